// Streams a snapshot as FileSnap writes it: FileHeader (magic ZKSN), the sessions, the ACL cache, the nodes in
// pre-order until the path "/", a seal (Adler-32 of everything so far, then "/"), and since 3.6 the zxid digest and
// a seal, since 3.9 the last processed zxid and a seal. Nodes are handed out one at a time, never kept.
import { Adler32 } from './adler32';
import { ByteSource } from './byteSource';
import { logIssue, type LogIssue } from './logIssues';
import { SnappyStreamError } from './snappyJavaStream';
import { snapshotBytes } from './snapshotStream';
import type { SnapshotNode, SnapshotReadItem } from './snapshotTypes';
import { readSnapshotTrailer } from './snapshotTrailer';
import { StreamEnded, StreamJute, UnreasonableLength } from './streamJute';
import type { LogAcl } from './txnTypes';

export const SNAP_MAGIC = 0x5a4b534e; // "ZKSN"
/** StatPersisted: four longs, three ints, two longs. */
const STAT_BYTES = 60;

export interface SnapshotReadOptions {
  /** Longest path, data or ACL id accepted (a hostile length is refused before anything is buffered for it). */
  maxValueBytes?: number;
  /** Most ACL cache entries kept (the cache is the one thing held while reading). */
  maxAcls?: number;
  /** Most nodes read before the reader stops: a snapshot whose node list never ends still ends here. */
  maxNodes?: number;
}

/** Reads a snapshot file from disk, plain, gzip or snappy by its name (as SnapStream picks it). */
export async function* readSnapshotFile(file: string, options: SnapshotReadOptions = {}): AsyncGenerator<SnapshotReadItem> {
  yield* readSnapshot(snapshotBytes(file), file, options);
}

/** Reads a snapshot from a stream of its uncompressed bytes; `name` says which file in issues. */
export async function* readSnapshot(chunks: AsyncIterable<Buffer | Uint8Array | string>, name: string, options: SnapshotReadOptions = {}): AsyncGenerator<SnapshotReadItem> {
  const checksum = new Adler32();
  let counting = true;
  const source = new ByteSource(chunks, (bytes) => {
    if (counting) checksum.update(bytes);
  });
  const jute = new StreamJute(source, options.maxValueBytes ?? 64 * 1024 * 1024);
  const maxAcls = options.maxAcls ?? 1_000_000;
  const maxNodes = options.maxNodes ?? 100_000_000;
  const issue = (kind: LogIssue['kind'], offset: number, message: string): SnapshotReadItem => ({ kind: 'issue', issue: logIssue(kind, name, offset, message) });
  try {
    const head = await source.read(16);
    if (head.length < 16 || head.readInt32BE(0) !== SNAP_MAGIC) {
      yield issue('badHeader', 0, head.length < 4 ? `not a ZooKeeper snapshot (only ${head.length} bytes)` : 'not a ZooKeeper snapshot (no ZKSN magic number)');
      return;
    }
    yield { kind: 'header', header: { magic: SNAP_MAGIC, version: head.readInt32BE(4), dbid: head.readBigInt64BE(8) } };

    const sessions = await jute.int();
    for (let i = 0; i < sessions; i++) {
      const id = await jute.ulong();
      yield { kind: 'session', id, timeout: await jute.int() };
    }

    const aclCount = await jute.int();
    if (aclCount > maxAcls) {
      yield issue('tooMany', jute.offset - 4, `ACL cache of ${aclCount} entries is above the limit of ${maxAcls}; the rest of the file is not read`);
      return;
    }
    const acls = new Map<bigint, LogAcl[]>();
    for (let i = 0; i < aclCount; i++) {
      const ref = await jute.long();
      const list: LogAcl[] = [];
      const count = await jute.int();
      for (let j = 0; j < count; j++) list.push({ perms: await jute.int(), scheme: (await jute.string()) ?? '', id: (await jute.string()) ?? '' });
      acls.set(ref, list);
    }
    yield { kind: 'acls', acls };

    let nodes = 0;
    for (let path = await jute.string(); path !== '/'; path = await jute.string()) {
      if (++nodes > maxNodes) {
        yield issue('tooMany', jute.offset, `more than ${maxNodes} nodes; the rest of the file is not read`);
        return;
      }
      yield { kind: 'node', node: await readNode(jute, path ?? '') };
    }

    counting = false;
    yield* readSnapshotTrailer(source, checksum, name);
  } catch (error) {
    if (error instanceof StreamEnded) yield issue('tornEntry', source.offset, `${error.message}: the snapshot is cut short`);
    else if (error instanceof UnreasonableLength) yield issue('badLength', source.offset, `${error.message}; the rest of the file is not read`);
    else if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) yield issue('badHeader', source.offset, `the compressed stream is corrupt (${(error as Error).message})`);
    else if (error instanceof SnappyStreamError) yield issue('badHeader', source.offset, `${error.message}; the rest of the file is not read`);
    else throw error;
  } finally {
    await source.close();
  }
}

async function readNode(jute: StreamJute, path: string): Promise<SnapshotNode> {
  const data = await jute.buffer();
  const aclRef = await jute.long();
  const s = await jute.fixed(STAT_BYTES);
  return {
    path,
    data,
    aclRef,
    stat: {
      czxid: s.readBigUInt64BE(0),
      mzxid: s.readBigUInt64BE(8),
      ctime: Number(s.readBigInt64BE(16)),
      mtime: Number(s.readBigInt64BE(24)),
      version: s.readInt32BE(32),
      cversion: s.readInt32BE(36),
      aversion: s.readInt32BE(40),
      ephemeralOwner: s.readBigUInt64BE(44),
      pzxid: s.readBigUInt64BE(52),
    },
  };
}
