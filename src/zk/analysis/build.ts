// Builds a LockAnalysis from what was read: the queues' nodes and every member's tables. Pure (no I/O, time
// given), so the monitor can rebuild it cheaply when only one side changed, and tests can feed it directly.
import { fixedLeaderRecipe } from './systemElections';
import type { ServerTables } from '../servers/serverTables';
import { inQueueDirs, queueAnomalies, QueueContext } from './anomalies';
import { findCycles, waitForEdges } from './deadlocks';
import { HoldHistory, holdingSinceCreation, startOf } from './holdTimes';
import type { Anomaly, LockAnalysis, LockQueue, Participant, RecipeId, SessionInfo, UnreadablePath } from '../../shared/lockAnalysis';
import { fixedLeaderHolder, participantsOf, QueueNode } from './queueRules';
import { queueDirs, RawQueue } from './rawQueue';
import { curatorSemaphore, kazooSemaphore, SemaphoreParticipants } from './semaphores';
import { mergeServerTables, ServerView } from './serverView';

export interface BuildInput {
  root: string;
  takenAt: number;
  queues: RawQueue[];
  /** undefined when server tables were not asked for. */
  tables?: ServerTables[];
  heldTooLongMs: number;
  ourSessions: readonly string[];
  truncated?: boolean;
  /** The session's chroot: the servers' tables list absolute paths. */
  chroot?: string;
  /** Folders the crawl could not list (the queues' own unreadable parts come with them). */
  unreadable?: UnreadablePath[];
  /** A live monitor's memory of holders across snapshots (updated by the build). */
  holds?: HoldHistory;
}

export const DEFAULT_HELD_TOO_LONG_MS = 10 * 60 * 1000;
const MAX_LISTED = 100;
/** Paths named in the `unreadable` anomaly at most (the model's `unreadable` lists them all). */
const MAX_UNREADABLE_IN_ANOMALY = 20;

function nodesOf(raw: RawQueue): QueueNode[] {
  switch (raw.shape) {
    case 'simple': return raw.nodes;
    case 'fixed': return [raw.node];
    default: return [...raw.leases, ...raw.locks];
  }
}

function fixedLeader(raw: Extract<RawQueue, { shape: 'fixed' }>, view: ServerView, ours: Set<string>): Participant[] {
  const leader = fixedLeaderHolder(raw.path, raw.node);
  const owner = leader.session;
  // Contenders own no node: they are the sessions with an exists watch on it.
  const contenders = [...(view.watchersByPath.get(raw.path) ?? [])].filter((s) => s !== owner && !ours.has(s)).sort();
  return [leader, ...contenders.map((session, i): Participant => ({
    path: raw.path, name: raw.node.name, kind: 'candidate', role: 'waiter', position: i + 1, session, since: 0,
    waitsFor: [raw.path], watches: [{ path: raw.path, source: 'server' }], nodeless: true,
  }))];
}

function participantsFor(raw: RawQueue, view: ServerView, ours: Set<string>): { recipe: RecipeId; sem?: SemaphoreParticipants; participants: Participant[] } {
  switch (raw.shape) {
    case 'simple': return { recipe: raw.recipe, participants: participantsOf(raw.recipe, raw.family, raw.nodes) };
    case 'fixed': return { recipe: fixedLeaderRecipe(raw.path, raw.node.data), participants: fixedLeader(raw, view, ours) };
    case 'curator-semaphore': {
      const sem = curatorSemaphore(`${raw.path}/leases`, raw.leases, raw.locks);
      return { recipe: 'curator-semaphore', sem, participants: sem.participants };
    }
    case 'kazoo-semaphore': {
      const sem = kazooSemaphore(raw.path, raw.leases, raw.locks, raw.maxLeases);
      return { recipe: 'kazoo-semaphore', sem, participants: sem.participants };
    }
  }
}

/** Fills client addresses, ours, and each participant's watches: seen on a server, or inferred from the recipe. */
/** A session's data watches inside the queue's directories (computed once per session and queue). */
function watchesInQueue(session: string, dirs: string[], view: ServerView, cache: Map<string, string[]>): string[] {
  let seen = cache.get(session);
  if (!seen) {
    seen = [...(view.watchesBySession.get(session) ?? [])].filter((w) => inQueueDirs(w, dirs) || dirs.includes(w)).sort();
    cache.set(session, seen);
  }
  return seen;
}

function enrich(p: Participant, dirs: string[], view: ServerView, ours: Set<string>, childWatchPath: string | undefined, dataWatchRecipe: boolean,
  cache: Map<string, string[]>, present: Set<string>): void {
  if (!p.session) return;
  const connection = view.connected.get(p.session);
  if (connection) p.clientAddress = connection.client;
  if (ours.has(p.session)) p.ours = true;
  if (p.nodeless) return;
  const seen = watchesInQueue(p.session, dirs, view, cache);
  p.watches = seen.map((path) => ({ path, source: 'server' as const }));
  if (p.role !== 'waiter') {
    // A holder still "watching" a node that is gone: the tables predate the hand-off (a fired watch is removed).
    p.watches = p.watches.filter((w) => present.has(w.path));
    return;
  }
  if (childWatchPath) {
    p.watches.push({ path: childWatchPath, source: 'inferred' });
  } else if (!dataWatchRecipe && seen.length === 0 && view.watchesComplete) {
    // The plain recipe's naive form (and unknown recipes) may wait with a children watch on the lock itself.
    p.watches.push({ path: dirs[0], source: 'inferred' });
  } else {
    for (const target of p.waitsFor) if (!seen.includes(target)) p.watches.push({ path: target, source: 'inferred' });
  }
}

function sessionInfos(queues: LockQueue[], dirsByQueue: string[][], view: ServerView, ours: Set<string>): SessionInfo[] {
  const ids = new Set<string>();
  for (const q of queues) for (const p of q.participants) if (p.session) ids.add(p.session);
  dirsByQueue.forEach((dirs, i) => {
    for (const [path, sessions] of view.watchersByPath) {
      if (path === queues[i].path || dirs.includes(path) || inQueueDirs(path, dirs)) for (const s of sessions) ids.add(s);
    }
  });
  for (const s of ours) if (view.connected.has(s)) ids.add(s);
  return [...ids].sort().map((id) => {
    const info: SessionInfo = {
      id,
      ephemerals: (view.ephemerals.get(id) ?? []).slice(0, MAX_LISTED),
      watches: [...(view.watchesBySession.get(id) ?? [])].sort().slice(0, MAX_LISTED),
    };
    const connection = view.connected.get(id);
    if (connection) {
      info.clientAddress = connection.client;
      info.server = connection.server;
      info.alive = true;
    } else if (view.connectionsComplete) {
      info.alive = false;
    }
    if (ours.has(id)) info.ours = true;
    return info;
  });
}

function setHeld(participants: Participant[], raw: RawQueue, input: BuildInput): void {
  let fromCreation: Set<string> | undefined;
  for (const p of participants) {
    if (p.role === 'waiter' || p.nodeless) continue;
    fromCreation ??= holdingSinceCreation(raw);
    const created = fromCreation.has(p.path);
    p.held = input.holds ? input.holds.resolve(p, created, input.takenAt) : startOf(p, created, input.takenAt);
  }
}

function unreadableOf(input: BuildInput): UnreadablePath[] {
  const byPath = new Map<string, UnreadablePath>();
  for (const u of [...(input.unreadable ?? []), ...input.queues.flatMap((q) => q.unreadable ?? [])]) if (!byPath.has(u.path)) byPath.set(u.path, u);
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function buildAnalysis(input: BuildInput): LockAnalysis {
  const view = mergeServerTables(input.tables, input.chroot);
  const ours = new Set(input.ourSessions.map((s) => s.toLowerCase()));
  const queues: LockQueue[] = [];
  const dirsByQueue: string[][] = [];
  for (const raw of input.queues) {
    const { recipe, sem, participants } = participantsFor(raw, view, ours);
    const dirs = queueDirs(raw);
    const dataWatchRecipe = recipe !== 'plain-lock' && recipe !== 'plain-rwlock' && recipe !== 'unknown';
    const childWaiters = new Set<string>();
    const cache = new Map<string, string[]>();
    const present = new Set([raw.path, ...dirs, ...nodesOf(raw).map((n) => n.path)]);
    for (const p of participants) {
      const isNext = !!sem?.next && p.path === sem.next;
      if (isNext) childWaiters.add(p.path);
      enrich(p, dirs, view, ours, isNext ? sem?.childWatchPath : undefined, dataWatchRecipe, cache, present);
    }
    setHeld(participants, raw, input);
    const queue: LockQueue = { path: raw.path, recipe, participants, anomalies: [] };
    queue.leases = sem ? sem.leases : 1;
    if (queue.leases === undefined) delete queue.leases;
    const context: QueueContext = {
      queue, dirs: raw.shape === 'fixed' ? [] : dirs, existing: new Set(nodesOf(raw).map((n) => n.path)),
      dataWatchRecipe, childWaiters, view, ours, takenAt: input.takenAt, heldTooLongMs: input.heldTooLongMs,
      family: raw.shape === 'simple' ? raw.family : undefined,
    };
    queue.anomalies = queueAnomalies(context);
    queues.push(queue);
    dirsByQueue.push(dirs);
  }
  const sessions = sessionInfos(queues, dirsByQueue, view, ours);
  const clientOf = new Map(sessions.map((s) => [s.id, s.clientAddress ?? null]));
  // A cycle through one queue only is a multi-threaded client queued twice (A, B, A, B): the holder at its head
  // goes on and releases. Those are reported per queue as 'self-wait'.
  const acrossQueues = (c: { locks: string[] }) => new Set(c.locks).size > 1;
  const deadlocks = findCycles(waitForEdges(queues), acrossQueues).map((c) => ({ ...c, clients: c.sessions.map((s) => clientOf.get(s) ?? null) }));
  const anomalies: Anomaly[] = deadlocks.map((c) => ({
    kind: 'deadlock', severity: 'error', paths: [...new Set(c.locks)], sessions: c.sessions, facts: { length: c.sessions.length },
  }));
  const usesChildWatches = queues.some((q) => {
    const nodes = new Set(q.participants.map((p) => p.path));
    return q.participants.some((p) => p.watches.some((w) => w.source === 'inferred' && !nodes.has(w.path)));
  });
  if (view.available && (usesChildWatches || (view.childWatches ?? 0) > 0)) {
    anomalies.push({ kind: 'child-watches-invisible', severity: 'info', paths: [], sessions: [], facts: { childWatches: view.childWatches ?? -1 } });
  }
  const unreadable = unreadableOf(input);
  if (unreadable.length) {
    anomalies.push({
      kind: 'unreadable', severity: 'warning', paths: unreadable.slice(0, MAX_UNREADABLE_IN_ANOMALY).map((u) => u.path), sessions: [],
      facts: { count: unreadable.length, reason: unreadable[0].reason },
    });
  }
  const analysis: LockAnalysis = { root: input.root, takenAt: input.takenAt, queues, sessions, deadlocks, servers: view.servers, anomalies };
  if (input.truncated) analysis.truncated = true;
  if (unreadable.length) analysis.unreadable = unreadable;
  input.holds?.remember(queues.flatMap((q) => q.participants));
  return analysis;
}
