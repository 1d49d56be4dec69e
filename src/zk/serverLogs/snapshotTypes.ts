// What a snapshot (`snapshot.<zxid>`) holds, as FileSnap, SerializeUtils and DataTree write it.
import type { ZnodeStat } from '../stat';
import type { LogIssue } from './logIssues';
import type { LogAcl, LogFileHeader } from './txnTypes';

/** StatPersisted: the Stat fields the server stores (dataLength and numChildren are derived, so not stored). */
export type PersistedStat = Omit<ZnodeStat, 'dataLength' | 'numChildren'>;

export interface SnapshotNode {
  /** "" is the root, as the server writes it. */
  path: string;
  data: Buffer | null;
  /** The key of the node's ACL in the snapshot's ACL cache (-1: open to all). */
  aclRef: bigint;
  stat: PersistedStat;
}

/** The digest 3.6+ appends after the tree (DataTree.ZxidDigest); version < 2 wrote the digest as hex text. */
export interface SnapshotDigest {
  zxid: bigint;
  version: number;
  digest: bigint;
}

export type SnapshotItem =
  | { kind: 'header'; header: LogFileHeader }
  | { kind: 'session'; id: bigint; timeout: number }
  /** The ACL cache, before the first node: node.aclRef → ACL list. */
  | { kind: 'acls'; acls: Map<bigint, LogAcl[]> }
  | { kind: 'node'; node: SnapshotNode }
  | { kind: 'digest'; digest: SnapshotDigest }
  /** 3.9+: the zxid the tree reflects, written beside the file name's. */
  | { kind: 'lastProcessedZxid'; zxid: bigint }
  /** Every seal that was there matched: the tree is whole (still fuzzy: replay the logs from the name's zxid). */
  | { kind: 'sealed'; seals: number };

export type SnapshotReadItem = SnapshotItem | { kind: 'issue'; issue: LogIssue };
