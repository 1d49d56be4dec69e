// A Stat record as jute carries it in replies (six longs and five ints), read into the exact ZnodeStat.
import type { JuteReader } from './jute';
import type { ZnodeStat } from '../stat';

/** The ephemeralOwner of every node no session owns: one value for all of them. */
const NO_OWNER = 0n;

/** A Stat's length on the wire: six longs and five ints, in ZnodeStat's order. */
const STAT_BYTES = 68;

// Bytes read by index: Buffer's read methods check their offset on every call, and a Stat has eleven fields.
const int32 = (b: Buffer, at: number) => (b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3];

function sameLong(b: Buffer, x: number, y: number): boolean {
  for (let i = 0; i < 8; i++) if (b[x + i] !== b[y + i]) return false;
  return true;
}

const isZeroLong = (b: Buffer, at: number) => int32(b, at) === 0 && int32(b, at + 4) === 0;

/** A signed long as a number (times in ms are far below 2^53), without making a bigint first. */
const longNumber = (b: Buffer, at: number) => int32(b, at) * 0x1_0000_0000 + (int32(b, at + 4) >>> 0);

/**
 * Reads a Stat. Equal 64-bit values share one bigint (a leaf never changed has mzxid = pzxid = czxid; most nodes
 * have no owner), compared on the wire before any is made: reading a 100,000-node subtree makes one bigint per
 * node instead of six. Bigints are immutable, so sharing one is the same as holding a copy.
 */
export function readStat(reader: JuteReader): ZnodeStat {
  const { bytes: b, at } = reader.fixed(STAT_BYTES);
  const czxid = b.readBigUInt64BE(at);
  const mzxid = sameLong(b, at + 8, at) ? czxid : b.readBigUInt64BE(at + 8);
  const pzxid = sameLong(b, at + 60, at) ? czxid : sameLong(b, at + 60, at + 8) ? mzxid : b.readBigUInt64BE(at + 60);
  return {
    czxid,
    mzxid,
    ctime: longNumber(b, at + 16),
    mtime: longNumber(b, at + 24),
    version: int32(b, at + 32),
    cversion: int32(b, at + 36),
    aversion: int32(b, at + 40),
    ephemeralOwner: isZeroLong(b, at + 44) ? NO_OWNER : b.readBigUInt64BE(at + 44),
    dataLength: int32(b, at + 52),
    numChildren: int32(b, at + 56),
    pzxid,
  };
}
