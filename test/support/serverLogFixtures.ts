// Builds transaction logs and snapshots byte by byte to ZooKeeper's layout (FileTxnLog, FileSnap, SnapStream,
// DataTree, zookeeper.jute), independently of the reader under test, for unit tests and hostile cases.
import { JuteWriter } from '../../src/zk/protocol/jute';

type Acl = { perms: number; scheme: string; id: string };
const OPEN: Acl[] = [{ perms: 31, scheme: 'world', id: 'anyone' }];

function acls(w: JuteWriter, list: Acl[]): void {
  w.vector(list, (x, a) => x.int(a.perms).string(a.scheme).string(a.id));
}

/** Adler-32 written out plainly (the reader has its own). */
export function plainAdler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return b * 65536 + a;
}

/** Record bodies by type, as the server serializes them. */
export const records = {
  create: (path: string, data: string | null, ephemeral = false, parentCVersion: number | null = 1, acl = OPEN) => {
    const w = new JuteWriter().string(path).buffer(data === null ? null : Buffer.from(data));
    acls(w, acl);
    w.bool(ephemeral);
    if (parentCVersion !== null) w.int(parentCVersion);
    return w.toBuffer();
  },
  createContainer: (path: string, data: string, parentCVersion = 1) => {
    const w = new JuteWriter().string(path).buffer(Buffer.from(data));
    acls(w, OPEN);
    return w.int(parentCVersion).toBuffer();
  },
  createTTL: (path: string, data: string, ttl: bigint, parentCVersion = 1) => {
    const w = new JuteWriter().string(path).buffer(Buffer.from(data));
    acls(w, OPEN);
    return w.int(parentCVersion).long(ttl).toBuffer();
  },
  delete: (path: string) => new JuteWriter().string(path).toBuffer(),
  setData: (path: string, data: string | Buffer, version: number) =>
    new JuteWriter().string(path).buffer(Buffer.isBuffer(data) ? data : Buffer.from(data)).int(version).toBuffer(),
  setACL: (path: string, acl: Acl[], version: number) => {
    const w = new JuteWriter().string(path);
    acls(w, acl);
    return w.int(version).toBuffer();
  },
  check: (path: string, version: number) => new JuteWriter().string(path).int(version).toBuffer(),
  multi: (parts: { type: number; record: Buffer }[]) =>
    new JuteWriter().vector(parts, (w, p) => w.int(p.type).buffer(p.record)).toBuffer(),
  createSession: (timeout: number) => new JuteWriter().int(timeout).toBuffer(),
  closeSession: (paths: string[]) => new JuteWriter().vector(paths, (w, p) => w.string(p)).toBuffer(),
  error: (err: number) => new JuteWriter().int(err).toBuffer(),
};

export interface FixtureTxn {
  session?: bigint;
  cxid?: number;
  zxid: bigint;
  time?: bigint;
  type: number;
  record: Buffer;
  /** TxnDigest (int version, long treeDigest), as 3.6+ servers append with digests on. */
  digest?: { version: number; treeDigest: bigint };
}

/** TxnHeader + record + optional digest: what the checksum covers. */
export function txnPayload(t: FixtureTxn): Buffer {
  const w = new JuteWriter().long(t.session ?? 0x100000abcn).int(t.cxid ?? 1).long(t.zxid).long(t.time ?? 1_700_000_000_123n).int(t.type);
  const head = w.toBuffer();
  const tail = t.digest ? new JuteWriter().int(t.digest.version).long(t.digest.treeDigest).toBuffer() : Buffer.alloc(0);
  return Buffer.concat([head, t.record, tail]);
}

export function logFileHeader(dbid = 0n, magic = 0x5a4b4c47): Buffer {
  return new JuteWriter().int(magic).int(2).long(dbid).toBuffer();
}

/** One entry: long checksum, int length, payload, 'B'. Overrides make it lie. */
export function logEntry(payload: Buffer, lie: { checksum?: bigint; length?: number; endByte?: number } = {}): Buffer {
  const w = new JuteWriter().long(lie.checksum ?? BigInt(plainAdler32(payload))).int(lie.length ?? payload.length);
  return Buffer.concat([w.toBuffer(), payload, Buffer.from([lie.endByte ?? 0x42])]);
}

/** A whole log: header, entries, and a zero tail as preallocation leaves. */
export function logFile(txns: FixtureTxn[], zeroTail = 4096): Buffer {
  return Buffer.concat([logFileHeader(), ...txns.map((t) => logEntry(txnPayload(t))), Buffer.alloc(zeroTail)]);
}

export interface FixtureNode {
  path: string;
  data?: Buffer | null;
  aclRef?: bigint;
  czxid?: bigint;
  mzxid?: bigint;
  ctime?: bigint;
  mtime?: bigint;
  version?: number;
  cversion?: number;
  aversion?: number;
  ephemeralOwner?: bigint;
  pzxid?: bigint;
}

export interface FixtureSnapshot {
  sessions?: { id: bigint; timeout: number }[];
  acls?: { ref: bigint; acl: Acl[] }[];
  nodes: FixtureNode[];
  /** DataTree.ZxidDigest, 3.6+ with digests on; version < 2 writes the digest as hex text. */
  digest?: { zxid: bigint; version: number; digest: bigint };
  /** The 3.9 trailer. */
  lastProcessedZxid?: bigint;
  /** Make the seal after the nodes lie. */
  lyingSeal?: boolean;
}

/** A snapshot to FileSnap.serialize's layout, seals computed over everything before each (SnapStream.sealStream). */
export function snapshotFile(s: FixtureSnapshot): Buffer {
  const w = new JuteWriter().int(0x5a4b534e).int(2).long(-1n);
  w.vector(s.sessions ?? [], (x, e) => x.long(e.id).int(e.timeout));
  w.vector(s.acls ?? [], (x, e) => {
    x.long(e.ref);
    acls(x, e.acl);
  });
  for (const n of s.nodes) {
    w.string(n.path).buffer(n.data === undefined ? Buffer.from(`data of ${n.path}`) : n.data).long(n.aclRef ?? -1n);
    w.long(n.czxid ?? 1n).long(n.mzxid ?? 1n).long(n.ctime ?? 1_700_000_000_000n).long(n.mtime ?? 1_700_000_000_000n);
    w.int(n.version ?? 0).int(n.cversion ?? 0).int(n.aversion ?? 0).long(n.ephemeralOwner ?? 0n).long(n.pzxid ?? 1n);
  }
  w.string('/');
  let bytes = w.toBuffer();
  const seal = (lie = false) => {
    bytes = Buffer.concat([bytes, new JuteWriter().long(BigInt(plainAdler32(bytes)) + (lie ? 1n : 0n)).string('/').toBuffer()]);
  };
  seal(s.lyingSeal);
  if (s.digest) {
    const d = new JuteWriter().long(s.digest.zxid).int(s.digest.version);
    if (s.digest.version < 2) d.string(s.digest.digest.toString(16));
    else d.long(s.digest.digest);
    bytes = Buffer.concat([bytes, d.toBuffer()]);
    seal();
  }
  if (s.lastProcessedZxid !== undefined) {
    bytes = Buffer.concat([bytes, new JuteWriter().long(s.lastProcessedZxid).toBuffer()]);
    seal();
  }
  return bytes;
}
