// Finding the queues at or under a path: the path itself when its children look like a queue (or it is a fixed
// ephemeral leader node), else a bounded breadth-first crawl that does not descend into the queues it finds.
import { isZkError } from '../errors';
import { baseName, joinPath, parentPath } from '../paths';
import type { ZkSession } from '../session/session';
import { nodeKind, ZnodeStat } from '../stat';
import { mapBounded } from '../timeouts';
import type { RecipeId, UnreadablePath } from '../../shared/lockAnalysis';
import type { Family } from './families';
import { isFixedLeaderName, parseName, recognizeQueue } from './recipes';

export type QueueSpec =
  | { shape: 'simple'; path: string; recipe: RecipeId; family: Family; names?: string[]; parent?: ParentStat }
  | { shape: 'curator-semaphore'; path: string }
  | { shape: 'kazoo-semaphore'; path: string }
  | { shape: 'fixed'; path: string };

/** The queue folder's child counters from the same reply as `names` (see holdTimes.ts). */
export interface ParentStat {
  cversion: number;
  pzxid: bigint;
}

export interface Discovery {
  specs: QueueSpec[];
  truncated: boolean;
  /** Folders whose children this session may not list (noAuth): not crawled. */
  unreadable: UnreadablePath[];
  /** Folders crawled that are not queues (at most MAX_WATCHED_DIRS): a monitor watches them for new queues. */
  dirs: CrawledDir[];
}

/** A folder as the crawl listed it: its cversion then tells whether children came or went since. */
export interface CrawledDir {
  path: string;
  cversion: number;
}

export const MAX_WATCHED_DIRS = 1000;

export interface DiscoverOptions {
  maxQueues?: number;
  /** Nodes listed at most while crawling. */
  maxNodes?: number;
  signal?: AbortSignal;
}

const CRAWL_WINDOW = 64;
const KAZOO_LOCK_SUFFIX = '-__lock__';

function cancelled(signal?: AbortSignal): void {
  if (signal?.aborted) {
    const error = new Error('cancelled');
    error.name = 'AbortError';
    throw error;
  }
}

async function listOrUndefined(session: ZkSession, path: string, unreadable?: UnreadablePath[]): Promise<{ children: string[]; stat: ZnodeStat } | undefined> {
  try {
    return await session.getChildren(path);
  } catch (error) {
    if (isZkError(error, 'noNode')) return undefined;
    // One folder the session may not list must not hide every other queue: note it, crawl the rest.
    if (unreadable && isZkError(error, 'noAuth')) {
      unreadable.push({ path, reason: error.code, what: 'children' });
      return undefined;
    }
    throw error;
  }
}

/** What `path` is, given its children and Stat; undefined when it is not a queue. */
function specFor(path: string, children: string[], stat: ZnodeStat): QueueSpec | undefined {
  if (children.length === 0 && nodeKind(stat) === 'ephemeral' && isFixedLeaderName(baseName(path))) return { shape: 'fixed', path };
  const recognition = recognizeQueue(children, path);
  if (!recognition) return undefined;
  if (recognition.recipe === 'curator-semaphore') {
    if (children.includes('leases')) return { shape: 'curator-semaphore', path };
    // Lease nodes themselves: the semaphore is the parent of this `leases` directory.
    const parent = parentPath(path);
    return parent ? { shape: 'curator-semaphore', path: parent } : undefined;
  }
  if (recognition.recipe === 'kazoo-semaphore') return { shape: 'kazoo-semaphore', path };
  if (recognition.family === 'kazoo' && path.endsWith(KAZOO_LOCK_SUFFIX)) {
    return { shape: 'kazoo-semaphore', path: path.slice(0, -KAZOO_LOCK_SUFFIX.length) };
  }
  return {
    shape: 'simple', path, recipe: recognition.recipe, family: recognition.family, names: children,
    parent: { cversion: stat.cversion, pzxid: stat.pzxid },
  };
}

/** The queues at `root` or below it. */
export async function discoverQueues(session: ZkSession, root: string, options: DiscoverOptions = {}): Promise<Discovery> {
  const maxQueues = options.maxQueues ?? 100;
  const maxNodes = options.maxNodes ?? 20000;
  const rootList = await session.getChildren(root);
  // The root itself: a fixed leader node asked for by name is one whatever it is called.
  if (rootList.children.length === 0 && nodeKind(rootList.stat) === 'ephemeral') return { specs: [{ shape: 'fixed', path: root }], truncated: false, dirs: [], unreadable: [] };
  const unreadable: UnreadablePath[] = [];
  const own = specFor(root, rootList.children, rootList.stat);
  const found = new Map<string, QueueSpec>();
  let dirs: CrawledDir[] = [{ path: root, cversion: rootList.stat.cversion }];
  let level = rootList.children.map((c) => joinPath(root, c)).filter((p) => p !== '/zookeeper');
  if (own) {
    const spec = await lifted(session, own, unreadable);
    level = foreignChildren(own, rootList.children);
    if (level.length === 0) return { specs: [spec], truncated: false, dirs: [], unreadable };
    // Lock nodes and folders of other queues side by side: both are shown.
    found.set(spec.path, spec);
    dirs = [];
  } else {
    const lifted1 = await semaphoreParentOf(session, root, unreadable);
    if (lifted1) return { specs: [lifted1], truncated: false, dirs: [], unreadable };
  }

  let truncated = false;
  let visited = 1;
  while (level.length > 0 && !truncated) {
    cancelled(options.signal);
    if (visited + level.length > maxNodes) {
      level = level.slice(0, Math.max(0, maxNodes - visited));
      truncated = true;
    }
    visited += level.length;
    const lists = await mapBounded(level, CRAWL_WINDOW, (p) => listOrUndefined(session, p, unreadable));
    const next: string[] = [];
    level.forEach((path, i) => {
      const list = lists[i];
      if (!list) return;
      const spec = specFor(path, list.children, list.stat);
      if (spec) {
        if (!found.has(spec.path)) found.set(spec.path, spec);
        next.push(...foreignChildren(spec, list.children));
      } else {
        for (const c of list.children) next.push(joinPath(path, c));
        if (nodeKind(list.stat) !== 'ephemeral' && dirs.length < MAX_WATCHED_DIRS) dirs.push({ path, cversion: list.stat.cversion });
      }
    });
    if (found.size >= maxQueues) {
      truncated = truncated || next.length > 0 || found.size > maxQueues;
      break;
    }
    level = next;
  }
  // Keyed by path: a kazoo semaphore found both as its lease directory and through its lock is kept once.
  const specs = [...found.values()].slice(0, maxQueues);
  unreadable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { specs, truncated, dirs, unreadable };
}

/** Children of a lock queue that are no lock nodes of it (no sequence number): they may be folders of other queues. */
function foreignChildren(spec: QueueSpec, children: readonly string[]): string[] {
  if (spec.shape !== 'simple') return [];
  return children.filter((name) => !parseName(name)).map((name) => joinPath(spec.path, name));
}

/** A Curator semaphore's `leases` or `locks` directory asked for directly: analyse the semaphore as a whole. */
async function semaphoreParentOf(session: ZkSession, path: string, unreadable: UnreadablePath[]): Promise<QueueSpec | undefined> {
  const name = baseName(path);
  const parent = parentPath(path);
  if (!parent || (name !== 'leases' && name !== 'locks')) return undefined;
  const siblings = await listOrUndefined(session, parent, unreadable);
  return siblings?.children.includes('leases') ? { shape: 'curator-semaphore', path: parent } : undefined;
}

async function lifted(session: ZkSession, spec: QueueSpec, unreadable: UnreadablePath[]): Promise<QueueSpec> {
  if (spec.shape === 'simple' && (baseName(spec.path) === 'leases' || baseName(spec.path) === 'locks')) {
    return (await semaphoreParentOf(session, spec.path, unreadable)) ?? spec;
  }
  return spec;
}
