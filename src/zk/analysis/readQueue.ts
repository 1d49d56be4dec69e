// Reading one queue's nodes (names, Stat, data) with a bounded number of requests in flight. Nodes that vanish
// between the listing and the read (a lock released meanwhile) are simply left out. A node whose data this
// session may not read (noAuth) still takes part: exists needs no permission and gives its owner and ctime.
import { isZkError } from '../errors';
import { joinPath } from '../paths';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';
import { mapBounded } from '../timeouts';
import type { RawQueue } from './rawQueue';
import type { ParentStat, QueueSpec } from './discover';
import type { UnreadablePath } from '../../shared/lockAnalysis';
import type { QueueNode } from './queueRules';
import { recognizeQueue } from './recipes';

/** Requests in flight at most (node-zookeeper-client slows down past a few thousand queued). */
export const READ_WINDOW = 256;

async function childrenOf(session: ZkSession, path: string, unreadable: UnreadablePath[]): Promise<{ children: string[]; parent?: ParentStat }> {
  try {
    const { children, stat } = await session.getChildren(path);
    return { children, parent: { cversion: stat.cversion, pzxid: stat.pzxid } };
  } catch (error) {
    if (isZkError(error, 'noNode')) return { children: [] };
    if (isZkError(error, 'noAuth')) {
      unreadable.push({ path, reason: error.code, what: 'children' });
      return { children: [] };
    }
    throw error;
  }
}

const nodeOf = (path: string, name: string, stat: ZnodeStat, data?: Buffer): QueueNode =>
  ({ name, path, ctime: stat.ctime, czxid: stat.czxid, owner: stat.ephemeralOwner, data });

async function readNode(session: ZkSession, path: string, name: string, unreadable: UnreadablePath[]): Promise<QueueNode | undefined> {
  try {
    const { data, stat } = await session.getData(path);
    return nodeOf(path, name, stat, data);
  } catch (error) {
    if (isZkError(error, 'noNode')) return undefined;
    if (!isZkError(error, 'noAuth')) throw error;
    unreadable.push({ path, reason: error.code, what: 'data' });
    const stat = await session.exists(path);
    return stat && nodeOf(path, name, stat);
  }
}

/** One node as the rules need it (owner, ctime, data), or undefined when it is gone. */
export function readQueueNode(session: ZkSession, path: string): Promise<QueueNode | undefined> {
  return readNode(session, path, path.slice(path.lastIndexOf('/') + 1), []);
}

async function readNodes(session: ZkSession, dir: string, names: readonly string[], unreadable: UnreadablePath[]): Promise<QueueNode[]> {
  const nodes = await mapBounded(names, READ_WINDOW, (name) => readNode(session, joinPath(dir, name), name, unreadable));
  return nodes.filter((n): n is QueueNode => !!n);
}

async function readDir(session: ZkSession, dir: string, unreadable: UnreadablePath[]): Promise<QueueNode[]> {
  return readNodes(session, dir, (await childrenOf(session, dir, unreadable)).children, unreadable);
}

/** Reads a queue found by discovery; `fresh` ignores the names discovery already listed. */
export async function readQueue(session: ZkSession, spec: QueueSpec, fresh = false): Promise<RawQueue> {
  const unreadable: UnreadablePath[] = [];
  const raw = await read(session, spec, fresh, unreadable);
  if (unreadable.length) raw.unreadable = unreadable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return raw;
}

async function read(session: ZkSession, spec: QueueSpec, fresh: boolean, unreadable: UnreadablePath[]): Promise<RawQueue> {
  switch (spec.shape) {
    case 'simple': {
      const listed = fresh || !spec.names ? await childrenOf(session, spec.path, unreadable) : { children: spec.names, parent: spec.parent };
      const names = listed.children;
      // The recipe can change as nodes come and go (a kazoo lock gains its first reader); an empty queue keeps its own.
      const recognition = fresh && spec.recipe !== 'fixed-leader' ? recognizeQueue(names, spec.path) : undefined;
      const recipe = recognition?.recipe ?? spec.recipe;
      const family = recognition?.family ?? spec.family;
      const nodes = await readNodes(session, spec.path, names, unreadable);
      const raw: RawQueue = { shape: 'simple', path: spec.path, recipe, family, nodes };
      // The parent's counters describe exactly the listed names only if none vanished before it was read.
      if (listed.parent && nodes.length === names.length) raw.parent = listed.parent;
      return raw;
    }
    case 'curator-semaphore': {
      const [leases, locks] = await Promise.all([readDir(session, `${spec.path}/leases`, unreadable), readDir(session, `${spec.path}/locks`, unreadable)]);
      return { shape: 'curator-semaphore', path: spec.path, leases, locks };
    }
    case 'kazoo-semaphore': {
      const [self, leases, locks] = await Promise.all([
        readNode(session, spec.path, '', unreadable), readDir(session, spec.path, unreadable), readDir(session, `${spec.path}-__lock__`, unreadable),
      ]);
      const max = self?.data ? Number(self.data.toString('utf8')) : NaN;
      return { shape: 'kazoo-semaphore', path: spec.path, leases, locks, maxLeases: Number.isInteger(max) && max > 0 ? max : undefined };
    }
    case 'fixed': {
      const node = await readNode(session, spec.path, spec.path.slice(spec.path.lastIndexOf('/') + 1), unreadable);
      // Gone since discovery: an empty simple queue says "nobody holds it" without inventing a participant.
      return node ? { shape: 'fixed', path: spec.path, node } : { shape: 'simple', path: spec.path, recipe: 'fixed-leader', family: 'unknown', nodes: [] };
    }
  }
}
