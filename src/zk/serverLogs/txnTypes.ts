// What a transaction log entry holds, as ZooKeeper writes it (zookeeper.jute, module org.apache.zookeeper.txn).
// 64-bit ids stay bigint: zxids and session ids pass 2^53.

export interface LogAcl {
  perms: number;
  scheme: string;
  id: string;
}

/** The record after the header, by ZooKeeper's name for the type (Request.op2String). */
export type TxnRecord =
  /** create and create2 (the same record); parentCVersion is absent in the oldest logs (CreateTxnV0). */
  | { op: 'create' | 'create2'; path: string; data: Buffer | null; acl: LogAcl[]; ephemeral: boolean; parentCVersion?: number }
  | { op: 'createContainer'; path: string; data: Buffer | null; acl: LogAcl[]; parentCVersion: number }
  | { op: 'createTTL'; path: string; data: Buffer | null; acl: LogAcl[]; parentCVersion: number; ttl: bigint }
  /** deleteContainer is also how the server removes an empty container or an expired TTL node (session 0). */
  | { op: 'delete' | 'deleteContainer'; path: string }
  /** reconfig carries the new dynamic config as setData on /zookeeper/config. */
  | { op: 'setData' | 'reconfig'; path: string; data: Buffer | null; version: number }
  | { op: 'setACL'; path: string; acl: LogAcl[]; version: number }
  /** Only inside a multi. */
  | { op: 'check'; path: string; version: number }
  /** A failed part has op 'error'. */
  | { op: 'multi'; parts: TxnRecord[] }
  | { op: 'createSession'; timeout: number }
  /** paths: the ephemeral nodes the close removes (3.6+); absent when the server wrote no body. */
  | { op: 'closeSession'; paths?: string[] }
  /** A failed write still takes a zxid; err is KeeperException.Code. */
  | { op: 'error'; err: number };

export type TxnOp = TxnRecord['op'];

export interface TxnDigest {
  version: number;
  treeDigest: bigint;
}

export interface Txn {
  /** The client's session (clientId); 0 for the server's own work. */
  session: bigint;
  cxid: number;
  zxid: bigint;
  /** The leader's clock, ms since the epoch. */
  time: number;
  /** The type number in the header (ZooDefs.OpCode). */
  type: number;
  record: TxnRecord;
  /** 3.6+ with digests on. */
  digest?: TxnDigest;
}

/** The log file header (FileHeader). */
export interface LogFileHeader {
  magic: number;
  version: number;
  dbid: bigint;
}
