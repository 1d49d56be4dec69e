// The 11 fields of a znode's Stat, kept exact: zxids and the ephemeral owner are 64-bit, so they are bigints.
import { JuteReader } from './protocol/jute';

export interface ZnodeStat {
  czxid: bigint;
  mzxid: bigint;
  ctime: number;
  mtime: number;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  dataLength: number;
  numChildren: number;
  pzxid: bigint;
}

export type NodeKind = 'persistent' | 'ephemeral' | 'container' | 'ttl';

/**
 * Long.MIN_VALUE: the ephemeralOwner ZooKeeper stores for container nodes. Servers since 3.5.4 hide these marks
 * from clients (the Stat they send says 0 for containers and TTL nodes, measured on 3.8.0), so `nodeKind` can
 * tell them only on older servers; the VS Code layer remembers the mode of the nodes it created itself.
 */
export const CONTAINER_OWNER = 0x8000000000000000n;
const TTL_MARK = 0xff00000000000000n;

/** The ephemeralOwner of every node no session owns: one value for all of them. */
const NO_OWNER = 0n;

/** A Stat's length on the wire: six longs and five ints, in the order of the fields above. */
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

export function nodeKind(stat: Pick<ZnodeStat, 'ephemeralOwner'>): NodeKind {
  const owner = stat.ephemeralOwner;
  if (owner === 0n) return 'persistent';
  if (owner === CONTAINER_OWNER) return 'container';
  if ((owner & TTL_MARK) === TTL_MARK) return 'ttl';
  return 'ephemeral';
}

/** The time-to-live in ms of a TTL node (the low 56 bits of its ephemeralOwner). */
export function ttlMillis(stat: Pick<ZnodeStat, 'ephemeralOwner'>): number | undefined {
  return nodeKind(stat) === 'ttl' ? Number(stat.ephemeralOwner & ~TTL_MARK) : undefined;
}

/** `0x` + hex, unpadded, as ZooKeeper's own tools print zxids and session ids. */
export function hex(value: bigint): string {
  return '0x' + BigInt.asUintN(64, value).toString(16);
}

/** A session id given as a Buffer (node-zookeeper-client) or bigint, as exact hex. */
export function sessionIdHex(id: Buffer | bigint): string {
  return hex(typeof id === 'bigint' ? id : id.readBigUInt64BE(0));
}
