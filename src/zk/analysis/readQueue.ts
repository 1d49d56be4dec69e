// Reading one queue's nodes (names, Stat, data) with a bounded number of requests in flight. Nodes that vanish
// between the listing and the read (a lock released meanwhile) are simply left out.
import { isZkError } from '../errors';
import { joinPath } from '../paths';
import type { ZkSession } from '../session';
import { mapBounded } from '../timeouts';
import type { RawQueue } from './build';
import type { QueueSpec } from './discover';
import type { QueueNode } from './queueRules';
import { recognizeQueue } from './recipes';

/** Requests in flight at most (node-zookeeper-client slows down past a few thousand queued). */
export const READ_WINDOW = 256;

async function childrenOf(session: ZkSession, path: string): Promise<string[]> {
  try {
    return (await session.getChildren(path)).children;
  } catch (error) {
    if (isZkError(error, 'noNode')) return [];
    throw error;
  }
}

async function readNode(session: ZkSession, path: string, name: string): Promise<QueueNode | undefined> {
  try {
    const { data, stat } = await session.getData(path);
    return { name, path, ctime: stat.ctime, owner: stat.ephemeralOwner, data };
  } catch (error) {
    if (isZkError(error, 'noNode')) return undefined;
    throw error;
  }
}

export async function readNodes(session: ZkSession, dir: string, names?: readonly string[]): Promise<QueueNode[]> {
  const list = names ?? await childrenOf(session, dir);
  const nodes = await mapBounded(list, READ_WINDOW, (name) => readNode(session, joinPath(dir, name), name));
  return nodes.filter((n): n is QueueNode => !!n);
}

/** Reads a queue found by discovery; `fresh` ignores the names discovery already listed. */
export async function readQueue(session: ZkSession, spec: QueueSpec, fresh = false): Promise<RawQueue> {
  switch (spec.shape) {
    case 'simple': {
      const names = fresh || !spec.names ? await childrenOf(session, spec.path) : spec.names;
      // The recipe can change as nodes come and go (a kazoo lock gains its first reader); an empty queue keeps its own.
      const recognition = fresh && spec.recipe !== 'fixed-leader' ? recognizeQueue(names, spec.path) : undefined;
      const recipe = recognition?.recipe ?? spec.recipe;
      const family = recognition?.family ?? spec.family;
      return { shape: 'simple', path: spec.path, recipe, family, nodes: await readNodes(session, spec.path, names) };
    }
    case 'curator-semaphore': {
      const [leases, locks] = await Promise.all([readNodes(session, `${spec.path}/leases`), readNodes(session, `${spec.path}/locks`)]);
      return { shape: 'curator-semaphore', path: spec.path, leases, locks };
    }
    case 'kazoo-semaphore': {
      const [self, leases, locks] = await Promise.all([
        readNode(session, spec.path, ''), readNodes(session, spec.path), readNodes(session, `${spec.path}-__lock__`),
      ]);
      const max = self?.data ? Number(self.data.toString('utf8')) : NaN;
      return { shape: 'kazoo-semaphore', path: spec.path, leases, locks, maxLeases: Number.isInteger(max) && max > 0 ? max : undefined };
    }
    case 'fixed': {
      const node = await readNode(session, spec.path, spec.path.slice(spec.path.lastIndexOf('/') + 1));
      // Gone since discovery: an empty simple queue says "nobody holds it" without inventing a participant.
      return node ? { shape: 'fixed', path: spec.path, node } : { shape: 'simple', path: spec.path, recipe: 'fixed-leader', family: 'unknown', nodes: [] };
    }
  }
}
