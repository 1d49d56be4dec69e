// A node's history from the logs: every create, setData, setACL and removal of one path (or of every path a glob
// matches), in zxid order, the parts of multis included. The entry that removed a node says how: deleted by a
// session, gone with its ephemeral owner's session (closeSession, whether or not the server listed the paths), a
// container emptied or a TTL node expired (deleteContainer, by the server).
import { parsePathGlob } from '../pathGlob';
import type { LogIndex } from './logIndex';
import type { LogSetItem } from './logSet';
import type { LogAcl, Txn, TxnRecord } from './txnTypes';

export type HistoryOp = 'create' | 'create2' | 'createContainer' | 'createTTL' | 'setData' | 'reconfig' | 'setACL' | 'delete' | 'deleteContainer' | 'closeSession';

/** sessionExpired: the server closed the session itself (cxid 0); sessionClosed: its client closed it. */
export type Removal = 'deleted' | 'sessionClosed' | 'sessionExpired' | 'containerEmptied' | 'ttlExpired' | 'removedByServer';

export interface HistoryEntry {
  zxid: bigint;
  time: number;
  /** The session that made the change (0: the server's own work). */
  session: bigint;
  op: HistoryOp;
  path: string;
  /** Creates and setData. */
  data?: Buffer | null;
  /** Creates and setACL. */
  acl?: LogAcl[];
  /** The version after the change: data version for setData, ACL version for setACL, 0 for a create. */
  version?: number;
  ephemeral?: boolean;
  ttl?: bigint;
  /** The entry that ended the node: how it went. */
  removed?: Removal;
  /** Made by a part of a multi (all its parts applied together, at this zxid). */
  inMulti?: boolean;
}

export type HistoryItem = { kind: 'entry'; entry: HistoryEntry } | Extract<LogSetItem, { kind: 'issue' }>;

const isGlob = (target: string) => /[*?]/.test(target);

/** A path as given, or every path a glob (`*`, `**`, `?`) matches. */
function pathMatcher(target: string): (path: string) => boolean {
  return isGlob(target) ? parsePathGlob(target) : (path) => path === target;
}

/** nodeHistory answered from an index: the same items, only the transactions that may touch the target decoded. */
export function nodeHistoryFromIndex(index: LogIndex, target: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<HistoryItem> {
  return nodeHistory(index.items(index.select(isGlob(target) ? { glob: target } : { path: target }), options), target);
}

type Kind = 'persistent' | 'ephemeral' | 'container' | 'ttl';

export async function* nodeHistory(items: AsyncIterable<LogSetItem>, target: string): AsyncGenerator<HistoryItem> {
  const wanted = pathMatcher(target);
  /** Live nodes among the wanted ones whose end depends on how they were made: by path. */
  const made = new Map<string, { kind: Kind; session: bigint }>();

  function* entries(txn: Txn, record: TxnRecord, inMulti: boolean): Generator<HistoryEntry> {
    const base = { zxid: txn.zxid, time: txn.time, session: txn.session, ...(inMulti ? { inMulti } : {}) };
    switch (record.op) {
      case 'multi':
        // The log keeps the parts before a failed one as written, but the server applies none of a multi with an
        // error part (DataTree.processTxn): it changed nothing.
        if (record.parts.some((part) => part.op === 'error')) return;
        for (const part of record.parts) yield* entries(txn, part, true);
        return;
      case 'closeSession': {
        // 3.6+ lists the ephemerals the close removed; older servers do not, and the creates say whose they were.
        const listed = record.paths ? new Set(record.paths) : undefined;
        const gone: string[] = [];
        for (const [path, node] of made) {
          if (node.kind === 'ephemeral' && node.session === txn.session && (!listed || listed.has(path))) gone.push(path);
        }
        // Listed ephemerals created before the logs given begin went with this session too.
        for (const path of listed ?? []) if (wanted(path) && !made.has(path)) gone.push(path);
        // The server closes an expired session itself, with cxid 0; a client's own close carries its request's xid.
        const removed: Removal = txn.cxid === 0 ? 'sessionExpired' : 'sessionClosed';
        for (const path of gone) {
          made.delete(path);
          yield { ...base, op: 'closeSession', path, removed };
        }
        return;
      }
      default:
        break;
    }
    if (!('path' in record) || !wanted(record.path)) return;
    const path = record.path;
    switch (record.op) {
      case 'create':
      case 'create2':
      case 'createContainer':
      case 'createTTL': {
        const ephemeral = 'ephemeral' in record ? record.ephemeral : false;
        const kind: Kind = record.op === 'createContainer' ? 'container' : record.op === 'createTTL' ? 'ttl' : ephemeral ? 'ephemeral' : 'persistent';
        made.set(path, { kind, session: txn.session });
        yield { ...base, op: record.op, path, data: record.data, acl: record.acl, version: 0, ...(ephemeral ? { ephemeral } : {}), ...(record.op === 'createTTL' ? { ttl: record.ttl } : {}) };
        return;
      }
      case 'setData':
      case 'reconfig':
        yield { ...base, op: record.op, path, data: record.data, version: record.version };
        return;
      case 'setACL':
        yield { ...base, op: 'setACL', path, acl: record.acl, version: record.version };
        return;
      case 'delete':
      case 'deleteContainer': {
        const kind = made.get(path)?.kind;
        made.delete(path);
        const removed: Removal = record.op === 'delete' ? 'deleted' : kind === 'ttl' ? 'ttlExpired' : kind === 'container' ? 'containerEmptied' : 'removedByServer';
        yield { ...base, op: record.op, path, removed };
        return;
      }
      default:
        return;
    }
  }
  for await (const item of items) {
    if (item.kind === 'issue') {
      yield item;
      continue;
    }
    for (const entry of entries(item.txn, item.txn.record, false)) yield { kind: 'entry', entry };
  }
}
