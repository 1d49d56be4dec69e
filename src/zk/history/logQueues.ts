// Which followed queue a node created in the servers' logs belongs to. The live recorder learns a semaphore or a
// fixed leader node from an analysis (a read of the tree); the logs have only the nodes' paths, owners and data,
// which tell them as the analysis' discovery does: a Curator semaphore by its `leases` and `locks` folders, a kazoo
// semaphore by its bare-uuid leases or its `<path>-__lock__` lock, a fixed leader node by being ephemeral and
// asked for by name (or named as Kafka, HBase, Hadoop and the others name theirs). The queues themselves are the
// recorder's (members.ts, followedQueues.ts), under the same rules.
import { fixedLeaderRecipe } from '../analysis/systemElections';
import { isFixedLeaderName, parseName, recognizeQueue } from '../analysis/recipes';
import { baseName, isBelow, parentPath } from '../paths';
import type { FollowedQueues } from './followedQueues';
import type { FollowedQueue } from './members';

export const KAZOO_LOCK_SUFFIX = '-__lock__';

/** Whether a node at `path` may be part of a queue at or under `root`: below it, the root itself (a fixed leader node), or a kazoo semaphore's lock beside it. */
export function followsPath(root: string, path: string): boolean {
  return path === root || isBelow(path, root) || (root !== '/' && isBelow(path, `${root}${KAZOO_LOCK_SUFFIX}`));
}

/** What a created node is: a member of this queue, a Curator lock whose semaphore is not known yet, or nothing followed. */
export type CreatedNode = FollowedQueue | 'undecided' | undefined;

/**
 * The queue a node created at `path` joins, followed from now on if it starts one. A Curator lock node in a folder
 * named `locks` is a semaphore's internal lock when a `leases` folder is beside it; on a semaphore's first use the
 * lock comes before the folder, so without one it is 'undecided' (the caller holds it until the folder comes, or its
 * queue empties without one: then it was a lock of its own).
 */
export function queueOfCreated(queues: FollowedQueues, root: string, path: string, ephemeral: boolean, data: Buffer | null, hasLeases: (semaphore: string) => boolean): CreatedNode {
  const fixed = queues.get(path);
  // A persistent node of the same name is no leadership.
  if (fixed?.shape === 'fixed') return ephemeral ? fixed : undefined;
  // The node asked about is a fixed leader node whatever it is called, as discovery takes it.
  if (path === root) return ephemeral ? queues.follow(path, fixedLeaderRecipe(path, data ?? undefined), []) : undefined;
  const folder = parentPath(path);
  if (folder === undefined) return undefined;
  const name = baseName(path);
  const parsed = parseName(name);
  const semaphore = parentPath(folder);
  if (semaphore !== undefined && (baseName(folder) === 'leases' || baseName(folder) === 'locks')) {
    const known = queues.get(semaphore);
    if (known?.shape === 'curator-semaphore') return known;
    const lease = baseName(folder) === 'leases' && parsed?.marker === 'lease-';
    const lock = baseName(folder) === 'locks' && parsed?.family === 'curator' && parsed.marker === 'lock-';
    if (lease || (lock && hasLeases(semaphore))) return queues.follow(semaphore, 'curator-semaphore', ['leases']);
    if (lock) return queues.queueOfNode(path) ?? 'undecided';
  }
  if (folder.endsWith(KAZOO_LOCK_SUFFIX) && parsed?.family === 'kazoo' && parsed.marker === '__lock__') {
    return queues.follow(folder.slice(0, -KAZOO_LOCK_SUFFIX.length), 'kazoo-semaphore', []);
  }
  const member = queues.queueOfNode(path);
  if (member) return member;
  if (ephemeral && recognizeQueue([name])?.recipe === 'kazoo-semaphore') return queues.follow(folder, 'kazoo-semaphore', [name]);
  if (ephemeral && isFixedLeaderName(name)) return queues.follow(path, fixedLeaderRecipe(path, data ?? undefined), []);
  return queues.followNew(path);
}

/** The names queue a held Curator lock turned out to be (no semaphore came): followed as the analysis would show it. */
export function lockOfItsOwn(queues: FollowedQueues, folder: string, names: string[]): FollowedQueue {
  return queues.follow(folder, recognizeQueue(names, folder)?.recipe ?? 'curator-mutex', names);
}
