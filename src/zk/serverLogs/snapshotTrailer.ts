// What follows a snapshot's node list (FileSnap.serialize): a seal (long Adler-32 of every byte before it, then the
// string "/"); since 3.6 with digests on, DataTree.ZxidDigest (long zxid, int version, then a long digest, or hex
// text before version 2) and a seal; since 3.9, long lastProcessedZxid and a seal. Java's reader knows which parts
// to expect from its own settings; we tell them apart by the trailer's length, which is small and fixed.
import type { Adler32 } from './adler32';
import type { ByteSource } from './byteSource';
import { logIssue } from './logIssues';
import type { SnapshotReadItem } from './snapshotTypes';
import { JuteReader } from '../protocol/jute';

/** long checksum, int 1, "/". */
const SEAL_BYTES = 13;
const LAST_ZXID_PART = 8 + SEAL_BYTES;
/** Far more than any trailer: what is beyond is not ZooKeeper's. */
const MAX_TRAILER_BYTES = 4096;

/**
 * Reads the trailer. `checksum` has seen every byte up to it; the source no longer feeds it, so each seal is
 * checked against the bytes before that seal alone.
 */
export async function* readSnapshotTrailer(source: ByteSource, checksum: Adler32, name: string): AsyncGenerator<SnapshotReadItem> {
  const start = source.offset;
  const trailer = Buffer.from(await source.read(MAX_TRAILER_BYTES));
  const issue = (kind: 'badSeal' | 'tornEntry' | 'badLength', at: number, message: string): SnapshotReadItem =>
    ({ kind: 'issue', issue: logIssue(kind, name, start + at, message) });
  if (trailer.length === MAX_TRAILER_BYTES && (await source.read(1)).length > 0) {
    yield issue('badLength', MAX_TRAILER_BYTES, 'bytes beyond anything a snapshot holds after its nodes; they are not read');
  }
  let at = 0;
  let sealedUpTo = 0;
  let seals = 0;
  /** Checks the seal at `at`: the checksum of everything before it. */
  function seal(): string | undefined {
    if (trailer.length - at < SEAL_BYTES) return 'the snapshot ends before its seal';
    checksum.update(trailer, sealedUpTo, at);
    const stored = trailer.readBigInt64BE(at);
    const tail = trailer.readInt32BE(at + 8);
    const expected = BigInt(checksum.value);
    checksum.update(trailer, at, at + SEAL_BYTES);
    sealedUpTo = at += SEAL_BYTES;
    if (tail !== 1 || trailer[at - 1] !== 0x2f) return 'the seal is not followed by "/"';
    if (stored !== expected) return `the seal 0x${BigInt.asUintN(64, stored).toString(16)} does not match the bytes before it (0x${expected.toString(16)})`;
    seals++;
    return undefined;
  }

  const first = seal();
  if (first) {
    yield issue(first.includes('ends') ? 'tornEntry' : 'badSeal', 0, first);
    return;
  }
  if (trailer.length - at > 0 && trailer.length - at !== LAST_ZXID_PART) {
    const reader = new JuteReader(trailer, at);
    try {
      const zxid = reader.ulong();
      const version = reader.int();
      const digest = version < 2 ? BigInt.asUintN(64, BigInt('0x' + (reader.string() || '0'))) : reader.ulong();
      at = trailer.length - reader.remaining;
      yield { kind: 'digest', digest: { zxid, version, digest } };
    } catch {
      yield issue('tornEntry', at, 'the digest after the nodes is cut short or unreadable');
      return;
    }
    const second = seal();
    if (second) {
      yield issue(second.includes('ends') ? 'tornEntry' : 'badSeal', at, second);
      return;
    }
  }
  if (trailer.length - at === LAST_ZXID_PART) {
    const zxid = trailer.readBigUInt64BE(at);
    at += 8;
    yield { kind: 'lastProcessedZxid', zxid };
    const third = seal();
    if (third) {
      yield issue('badSeal', at, third);
      return;
    }
  }
  if (at !== trailer.length) {
    yield issue('badLength', at, `${trailer.length - at} bytes after the last seal that no ZooKeeper writes`);
    return;
  }
  yield { kind: 'sealed', seals };
}
