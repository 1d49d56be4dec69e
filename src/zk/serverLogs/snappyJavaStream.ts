// snappy-java's stream format, which ZooKeeper's `.snappy` snapshots are written in (SnappyOutputStream): an 8-byte
// magic "\x82SNAPPY\0", two ints (version, compatible version), then blocks, each an int length and that many bytes
// of raw snappy. Streams written one after the other are read on (SnappyInputStream does), and a block whose
// uncompressed size is above the limit is refused before it is expanded (a bomb).
import { uncompress } from 'snappyjs';

const MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const HEADER_BYTES = 16;
/** snappy-java writes 32 KiB blocks by default; far more than any it writes, far less than a bomb needs. */
const MAX_BLOCK_BYTES = 64 * 1024 * 1024;

export class SnappyStreamError extends Error {}

/** The uncompressed bytes of a snappy-java stream, a block at a time. */
export async function* snappyJavaBlocks(compressed: AsyncIterable<Buffer>, maxBlockBytes = MAX_BLOCK_BYTES): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  let offset = 0;
  let headerSeen = false;
  for await (const chunk of compressed) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      if (pending.length >= MAGIC.length && pending.subarray(0, MAGIC.length).equals(MAGIC)) {
        if (pending.length < HEADER_BYTES) break;
        pending = pending.subarray(HEADER_BYTES);
        offset += HEADER_BYTES;
        headerSeen = true;
        continue;
      }
      if (!headerSeen) {
        if (pending.length < MAGIC.length) break;
        throw new SnappyStreamError('not a snappy-java stream (no SNAPPY magic header)');
      }
      if (pending.length < 4) break;
      const length = pending.readInt32BE(0);
      if (length < 0 || length > maxBlockBytes) throw new SnappyStreamError(`a snappy block of ${length} bytes at byte ${offset} of the compressed file: not a length snappy-java writes`);
      if (pending.length < 4 + length) break;
      const block = pending.subarray(4, 4 + length);
      try {
        yield Buffer.from(uncompress(block, maxBlockBytes));
      } catch (error) {
        throw new SnappyStreamError(`the snappy block at byte ${offset} of the compressed file is corrupt (${(error as Error).message})`);
      }
      pending = pending.subarray(4 + length);
      offset += 4 + length;
    }
  }
  if (pending.length > 0) throw new SnappyStreamError(`the compressed file ends inside a snappy block (${pending.length} bytes left at byte ${offset})`);
}
