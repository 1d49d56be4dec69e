// Anomalies of one queue, as structured facts (the front end writes the words): herd effect, stuck waiter,
// persistent lock node, dead owner, held too long, two nodes of one GUID, unknown recipe, nodes of several
// libraries in one queue, a session waiting behind its own node.
import type { Anomaly, LockQueue, Participant } from '../../shared/lockAnalysis';
import type { Family } from './families';
import { parseName } from './recipes';
import type { ServerView } from './serverView';

/** This many sessions or more watching one node (or a lock's children) is a herd: all wake on one change. */
export const HERD_THRESHOLD = 3;
/** A waiter younger than this may not have set its watch yet. */
export const WATCH_GRACE_MS = 1000;

export interface QueueContext {
  queue: LockQueue;
  /** Directories whose children are this queue's nodes. */
  dirs: string[];
  /** Every node path the queue has now. */
  existing: Set<string>;
  /** Whether waiters of this recipe wait through a data watch the servers can list. */
  dataWatchRecipe: boolean;
  /** Participants (paths) that wait with a children watch whatever the recipe (a semaphore's next in line). */
  childWaiters: Set<string>;
  view: ServerView;
  ours: Set<string>;
  takenAt: number;
  heldTooLongMs: number;
  /** The library the queue's names mostly follow (single-folder queues only). */
  family?: Family;
}

const anomaly = (kind: Anomaly['kind'], severity: Anomaly['severity'], paths: string[], sessions: (string | undefined)[], facts: Anomaly['facts'] = {}): Anomaly =>
  ({ kind, severity, paths, sessions: sessions.filter((s): s is string => !!s), facts });

export function inQueueDirs(path: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => path.startsWith(d === '/' ? '/' : `${d}/`));
}

function stuck(p: Participant, c: QueueContext): Anomaly | undefined {
  if (p.role !== 'waiter' || p.nodeless || !p.session || !c.view.watchesComplete) return undefined;
  if (p.since > c.takenAt - WATCH_GRACE_MS) return undefined;
  const seen = [...(c.view.watchesBySession.get(p.session) ?? [])];
  const gone = seen.find((w) => inQueueDirs(w, c.dirs) && !c.existing.has(w));
  if (gone) return anomaly('stuck-waiter', 'error', [p.path, gone], [p.session], { reason: 'watchesMissingNode', watched: gone });
  const watchingQueue = seen.some((w) => c.existing.has(w) || c.dirs.includes(w));
  if (watchingQueue || p.waitsFor.length === 0) return undefined;
  // Child watches are invisible: a waiter of a recipe that may wait with one is stuck only if no server holds any.
  const byChildWatch = !c.dataWatchRecipe || c.childWaiters.has(p.path);
  if (byChildWatch && (c.view.childWatches === undefined || c.view.childWatches > 0)) return undefined;
  return anomaly('stuck-waiter', 'error', [p.path], [p.session], { reason: 'watchesNothing', expected: p.waitsFor[0] });
}

function herds(c: QueueContext): Anomaly[] {
  const result: Anomaly[] = [];
  const targets = [c.queue.path, ...c.dirs, ...c.queue.participants.map((p) => p.path)];
  for (const target of new Set(targets)) {
    const watchers = [...(c.view.watchersByPath.get(target) ?? [])].filter((s) => !c.ours.has(s));
    if (watchers.length >= HERD_THRESHOLD) {
      result.push(anomaly('herd', 'warning', [target], watchers, { watchers: watchers.length, watchKind: 'data', target }));
    }
  }
  // Naive waiters (a getChildren watch on the lock itself) are invisible; the servers' child-watch count shows them.
  const naive = c.queue.participants.filter((p) => p.role === 'waiter' && p.watches.some((w) => w.source === 'inferred' && c.dirs.includes(w.path)));
  const childWatches = c.view.childWatches ?? 0;
  if (!c.dataWatchRecipe && naive.length >= HERD_THRESHOLD && childWatches >= naive.length) {
    result.push(anomaly('herd', 'warning', [c.queue.path], naive.map((p) => p.session),
      { watchers: naive.length, watchKind: 'children', target: c.queue.path, childWatches, source: 'inferred' }));
  }
  return result;
}

function duplicates(c: QueueContext): Anomaly[] {
  const byGuid = new Map<string, Participant[]>();
  for (const p of c.queue.participants) {
    if (p.nodeless) continue;
    const guid = parseName(p.name)?.guid;
    if (!guid) continue;
    const list = byGuid.get(guid) ?? [];
    list.push(p);
    byGuid.set(guid, list);
  }
  const result: Anomaly[] = [];
  for (const [guid, list] of byGuid) {
    if (list.length < 2) continue;
    result.push(anomaly('duplicate-guid', 'warning', list.map((p) => p.path), [...new Set(list.map((p) => p.session))], { guid, count: list.length }));
  }
  return result;
}

/**
 * Nodes of two libraries in one queue: they do not see each other's nodes (kazoo skips names without its markers)
 * or order them differently (Curator by the text after its marker), so two of them can hold at once.
 */
function mixedRecipes(c: QueueContext): Anomaly | undefined {
  if (!c.family) return undefined;
  const families = new Set<Family>();
  const foreign: Participant[] = [];
  for (const p of c.queue.participants) {
    const family = p.nodeless ? undefined : parseName(p.name)?.family;
    if (!family || family === 'unknown') continue;
    families.add(family);
    if (family !== c.family) foreign.push(p);
  }
  if (families.size < 2) return undefined;
  return anomaly('mixed-recipes', 'error', [c.queue.path, ...foreign.map((p) => p.path)], [...new Set(foreign.map((p) => p.session))],
    { libraries: [...families].sort().join(', '), family: c.family, foreign: foreign.length });
}

/** A session with a waiting node behind another of its own nodes: several threads (or lock objects) of one client. */
function selfWaits(c: QueueContext): Anomaly[] {
  const nodes = new Map<string, Participant[]>();
  for (const p of c.queue.participants) {
    if (!p.session || p.nodeless) continue;
    const list = nodes.get(p.session) ?? [];
    list.push(p);
    nodes.set(p.session, list);
  }
  const result: Anomaly[] = [];
  for (const [session, list] of nodes) {
    if (list.length < 2 || !list.slice(1).some((p) => p.role === 'waiter')) continue;
    result.push(anomaly('self-wait', 'info', list.map((p) => p.path), [session], { nodes: list.length, first: list[0].path }));
  }
  return result;
}

export function queueAnomalies(c: QueueContext): Anomaly[] {
  const result: Anomaly[] = [];
  const q = c.queue;
  if (q.recipe === 'unknown') result.push(anomaly('unknown-recipe', 'info', [q.path], [], { participants: q.participants.length }));
  for (const p of q.participants) {
    if (p.nodeless) continue;
    if (!p.session) result.push(anomaly('persistent-lock-node', 'warning', [p.path], [], { role: p.role }));
    // A node newer than the connection tables belongs to a session they cannot show yet.
    const judgeable = c.view.readAt === undefined || p.since < c.view.readAt;
    if (p.session && judgeable && c.view.connectionsComplete && !c.view.connected.has(p.session) && !c.ours.has(p.session)) {
      const tracked = c.view.tracked ? (c.view.tracked.has(p.session) ? 1 : 0) : -1;
      result.push(anomaly('dead-owner', p.role === 'waiter' ? 'warning' : 'error', [p.path], [p.session], { role: p.role, inSessionTracker: tracked }));
    }
    // Only on what is known: an exact start, or a lower bound that already passes the threshold.
    if (p.role === 'holder' && p.kind !== 'candidate' && p.held && c.takenAt - p.held.since > c.heldTooLongMs) {
      result.push(anomaly('held-too-long', 'warning', [p.path], [p.session],
        { heldMs: c.takenAt - p.held.since, thresholdMs: c.heldTooLongMs, atLeast: p.held.exact ? 0 : 1 }));
    }
    const s = stuck(p, c);
    if (s) result.push(s);
  }
  const mix = mixedRecipes(c);
  if (mix) result.push(mix);
  result.push(...herds(c), ...duplicates(c), ...selfWaits(c));
  return result;
}
