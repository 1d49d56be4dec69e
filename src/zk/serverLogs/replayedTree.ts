// A data tree rebuilt from a snapshot and the transactions after it, by the rules the server itself replays them
// with (DataTree.processTxn): the same stat fields, the same idempotent handling of a fuzzy snapshot (a create of a
// node the snapshot already holds, a delete of one it no longer holds), so the tree at a zxid is the tree the
// server had then. Paths are kept as the server keeps them: "" is the root.
import { clientEphemeralOwner, CONTAINER_OWNER, nodeKind, TTL_MARK, type ZnodeStat } from '../stat';
import type { PersistedStat, SnapshotNode } from './snapshotTypes';
import type { LogAcl, Txn, TxnRecord } from './txnTypes';

export interface ReplayedNode {
  data: Buffer | null;
  acl: LogAcl[];
  stat: PersistedStat;
  /** Child names (not paths); most nodes are leaves, which share one empty set. */
  children: ReadonlySet<string>;
}

const NO_CHILDREN: ReadonlySet<string> = new Set();

function addChild(node: ReplayedNode, name: string): void {
  if (node.children === NO_CHILDREN) node.children = new Set([name]);
  else (node.children as Set<string>).add(name);
}

function removeChild(node: ReplayedNode, name: string): void {
  if (node.children !== NO_CHILDREN) (node.children as Set<string>).delete(name);
}

/**
 * A replayed node's stat as a server sends it to a client (DataNode.copyStat), so the past compares with a live
 * export field for field: the two derived fields derived, a container's or TTL node's owner mark hidden, and the
 * cversion told as changes, not creates (the tree stores creates; every create but the children still there had
 * its delete).
 */
export function replayedStat(node: ReplayedNode): ZnodeStat {
  const numChildren = node.children.size;
  const s = node.stat;
  // Field by field (no spread): a million nodes go through here for one export.
  return {
    czxid: s.czxid, mzxid: s.mzxid, ctime: s.ctime, mtime: s.mtime, version: s.version, cversion: s.cversion * 2 - numChildren,
    aversion: s.aversion, ephemeralOwner: clientEphemeralOwner(s.ephemeralOwner), dataLength: node.data?.length ?? 0, numChildren, pzxid: s.pzxid,
  };
}

const ttlOwner = (ttl: bigint) => TTL_MARK | ttl;
const isSessionOwner = (owner: bigint) => nodeKind({ ephemeralOwner: owner }) === 'ephemeral';

const OPEN_ACL: LogAcl[] = [{ perms: 31, scheme: 'world', id: 'anyone' }];

function split(path: string): { parent: string; name: string } {
  const slash = path.lastIndexOf('/');
  return { parent: path.slice(0, slash), name: path.slice(slash + 1) };
}

/** "" (the server's root) as "/", the rest as they are. */
export const shownPath = (key: string): string => (key === '' ? '/' : key);
const keyOf = (path: string): string => (path === '/' ? '' : path);

export class ReplayedTree {
  private readonly nodes = new Map<string, ReplayedNode>();
  private readonly ephemerals = new Map<bigint, Set<string>>();

  /**
   * @param keep which paths the tree holds (a subtree's, to bound memory): a node outside it is never stored, and a
   * change to one is skipped (the nodes kept are whole: a node's stat only moves with its own and its children's
   * changes).
   */
  constructor(private readonly keep: (path: string) => boolean = () => true) {}

  get size(): number {
    return this.nodes.size;
  }

  node(path: string): ReplayedNode | undefined {
    return this.nodes.get(keyOf(path));
  }

  /** A snapshot's node, in the snapshot's pre-order (parents first); `acls` is the snapshot's ACL cache. */
  addSnapshotNode(node: SnapshotNode, acls: ReadonlyMap<bigint, LogAcl[]>): void {
    const shown = shownPath(node.path);
    if (!this.keep(shown)) return;
    // The snapshot reader makes a stat for each node: it is the node's own from here on.
    this.nodes.set(node.path, { data: node.data, acl: node.aclRef === -1n ? OPEN_ACL : acls.get(node.aclRef) ?? [], stat: node.stat, children: NO_CHILDREN });
    if (node.path !== '') {
      const { parent, name } = split(node.path);
      const parentNode = this.nodes.get(parent);
      if (parentNode) addChild(parentNode, name);
    }
    this.noteOwner(node.path, node.stat.ephemeralOwner);
  }

  /** One transaction, as DataTree.processTxn applies it; what the server would refuse changes nothing. */
  apply(txn: Txn): void {
    if (txn.record.op === 'multi') {
      // A multi with a failed part was applied by no part (the server logs every part as an error then).
      if (txn.record.parts.some((part) => part.op === 'error')) return;
      for (const part of txn.record.parts) this.applyRecord(part, txn);
      return;
    }
    this.applyRecord(txn.record, txn);
  }

  /** The nodes at and below `root`, parents before children, children by name. */
  *preOrder(root = '/'): Generator<{ path: string; node: ReplayedNode }> {
    const start = keyOf(root);
    const first = this.nodes.get(start);
    if (!first) return;
    const stack: { key: string; node: ReplayedNode }[] = [{ key: start, node: first }];
    while (stack.length > 0) {
      const { key, node } = stack.pop()!;
      yield { path: shownPath(key), node };
      const names = [...node.children].sort().reverse();
      for (const name of names) {
        const childKey = `${key}/${name}`;
        const child = this.nodes.get(childKey);
        if (child) stack.push({ key: childKey, node: child });
      }
    }
  }

  private applyRecord(record: TxnRecord, txn: Txn): void {
    switch (record.op) {
      case 'create':
      case 'create2': {
        const created = this.createNode(record.path, record.data, record.acl, record.ephemeral ? txn.session : 0n, record.parentCVersion ?? -1, txn);
        // DataTree.processTxn: a plain create (not create2) of a node a fuzzy snapshot already holds still moves its
        // parent's cversion and pzxid.
        if (!created && record.op === 'create') this.setCversionPzxid(split(record.path).parent, record.parentCVersion ?? -1, txn.zxid);
        return;
      }
      case 'createContainer':
        this.createNode(record.path, record.data, record.acl, CONTAINER_OWNER, record.parentCVersion, txn);
        return;
      case 'createTTL':
        this.createNode(record.path, record.data, record.acl, ttlOwner(record.ttl), record.parentCVersion, txn);
        return;
      case 'delete':
      case 'deleteContainer':
        this.deleteNode(record.path, txn.zxid);
        return;
      case 'setData':
      case 'reconfig': {
        const node = this.nodes.get(record.path);
        if (!node) return;
        node.data = record.data;
        node.stat.mtime = txn.time;
        node.stat.mzxid = txn.zxid;
        node.stat.version = record.version;
        return;
      }
      case 'setACL': {
        const node = this.nodes.get(record.path);
        if (!node) return;
        node.acl = record.acl;
        node.stat.aversion = record.version;
        return;
      }
      case 'closeSession': {
        // The paths the close names (3.6+), then any ephemeral of the session it did not name (DataTree.killSession).
        const owned = this.ephemerals.get(txn.session);
        this.ephemerals.delete(txn.session);
        for (const path of record.paths ?? []) {
          this.deleteNode(path, txn.zxid);
          owned?.delete(path);
        }
        for (const path of owned ?? []) this.deleteNode(path, txn.zxid);
        return;
      }
      default:
        return; // createSession, check, error, multi parts already handled: no change to the tree
    }
  }

  /** DataTree.createNode; false when the node was there already (its ACL is still replaced, as the server does). */
  private createNode(path: string, data: Buffer | null, acl: LogAcl[], owner: bigint, parentCVersion: number, txn: Txn): boolean {
    if (!this.keep(path)) return true;
    const { parent: parentKey, name } = split(path);
    const parent = this.nodes.get(parentKey);
    const existing = this.nodes.get(path);
    if (existing) {
      if (parent) existing.acl = acl;
      return false;
    }
    if (parent) {
      const cversion = parentCVersion === -1 ? parent.stat.cversion + 1 : parentCVersion;
      // A node created and deleted while a fuzzy snapshot was written must not take the parent's cversion back.
      if (cversion > parent.stat.cversion) {
        parent.stat.cversion = cversion;
        parent.stat.pzxid = txn.zxid;
      }
      addChild(parent, name);
    } else if (this.keep(parentKey === '' ? '/' : parentKey)) {
      return true; // NoNode: the server refused it too
    }
    this.nodes.set(path, {
      data, acl, children: NO_CHILDREN,
      // The fields in the snapshot reader's order: one shape for every node's stat.
      stat: { czxid: txn.zxid, mzxid: txn.zxid, ctime: txn.time, mtime: txn.time, version: 0, cversion: 0, aversion: 0, ephemeralOwner: owner, pzxid: txn.zxid },
    });
    this.noteOwner(path, owner);
    return true;
  }

  private deleteNode(path: string, zxid: bigint): void {
    const { parent: parentKey, name } = split(path);
    const parent = this.nodes.get(parentKey);
    if (parent) {
      removeChild(parent, name);
      // Only forward: a higher pzxid set by a create must stay (DataTree.deleteNode).
      if (zxid > parent.stat.pzxid) parent.stat.pzxid = zxid;
    }
    const node = this.nodes.get(path);
    if (!node) return;
    this.nodes.delete(path);
    const owner = node.stat.ephemeralOwner;
    if (isSessionOwner(owner)) this.ephemerals.get(owner)?.delete(path);
  }

  private setCversionPzxid(path: string, cversion: number, zxid: bigint): void {
    const node = this.nodes.get(path);
    if (!node) return;
    const next = cversion === -1 ? node.stat.cversion + 1 : cversion;
    if (next > node.stat.cversion) {
      node.stat.cversion = next;
      node.stat.pzxid = zxid;
    }
  }

  private noteOwner(path: string, owner: bigint): void {
    if (!isSessionOwner(owner)) return;
    let owned = this.ephemerals.get(owner);
    if (!owned) this.ephemerals.set(owner, (owned = new Set()));
    owned.add(path);
  }
}
