// The queue as read, before it is judged: its nodes in the shape of its recipe, and the folders they live in. Kept
// apart from build.ts so what reads queues (readQueue, the monitor) and what remembers them (holdTimes) need not
// import the builder.
import type { RecipeId, UnreadablePath } from '../../shared/lockAnalysis';
import type { ParentStat } from './discover';
import type { Family } from './families';
import type { QueueNode } from './queueRules';

export type RawQueue = (
  /** `parent`: the folder's counters from the listing its nodes were read from (holdTimes.ts). */
  | { shape: 'simple'; path: string; recipe: RecipeId; family: Family; nodes: QueueNode[]; parent?: ParentStat }
  | { shape: 'curator-semaphore'; path: string; leases: QueueNode[]; locks: QueueNode[] }
  | { shape: 'kazoo-semaphore'; path: string; leases: QueueNode[]; locks: QueueNode[]; maxLeases?: number }
  | { shape: 'fixed'; path: string; node: QueueNode }
) & {
  /** What this session could not read of the queue (its nodes' data, a folder's children). */
  unreadable?: UnreadablePath[];
};

/** Directories whose children are the queue's nodes. */
export function queueDirs(raw: RawQueue): string[] {
  switch (raw.shape) {
    case 'simple': return [raw.path];
    case 'curator-semaphore': return [`${raw.path}/leases`, `${raw.path}/locks`];
    case 'kazoo-semaphore': return [raw.path, `${raw.path}-__lock__`];
    case 'fixed': return [];
  }
}

/** Paths a monitor watches to see the queue change. */
export function queueWatchPaths(raw: RawQueue): string[] {
  return raw.shape === 'fixed' ? [raw.path] : [raw.path, ...queueDirs(raw).filter((d) => d !== raw.path)];
}
