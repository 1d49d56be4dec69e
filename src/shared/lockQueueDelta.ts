// What changed between two lock analyses, as the host sends it to the lock-queue webview, and how the webview
// applies it. Lists (queues, participants, sessions, anomalies) are keyed (participant path, session id, ...) and
// described as runs: slices of the previous list kept as they are, and the items that are new or changed.
// Positions are derived: a participant kept at another index moves its position with it, so the holder leaving
// a 10,000-waiter queue costs two runs, not 10,000 positions. Plain data (no vscode, no DOM): both sides and the
// node tests import it.
import { anomalyKey, type Anomaly, type LockAnalysis, type LockQueue, type Participant, type SessionInfo } from './lockAnalysis';

/** `from`/`count`: that slice of the previous list, unchanged; `items`: items as they are now. */
export type ListRun<T> = { from: number; count: number } | { items: T[] };

/** The fields of an analysis that are sent whole when they change (the others are keyed lists). */
export type AnalysisScalars = Omit<LockAnalysis, 'queues' | 'sessions' | 'anomalies'>;
export type QueueScalars = Omit<LockQueue, 'participants' | 'anomalies'>;

/** A queue that is new (`full`), or the previous queue at index `patch` with these changes. */
export type QueueChange =
  | { full: LockQueue }
  | { patch: number; set?: Partial<QueueScalars>; unset?: (keyof QueueScalars)[]; participants?: ListRun<Participant>[]; anomalies?: ListRun<Anomaly>[] };

/** Absent lists are unchanged (the webview keeps the same objects, so it keeps their rows too). */
export interface AnalysisDelta {
  set?: Partial<AnalysisScalars>;
  unset?: (keyof AnalysisScalars)[];
  queues?: ListRun<QueueChange>[];
  sessions?: ListRun<SessionInfo>[];
  anomalies?: ListRun<Anomaly>[];
}

/** JSON-like values equal, an absent property counting as undefined (as a message that crosses JSON leaves it). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], other[i])) return false;
    return true;
  }
  return sameFields(a as Record<string, unknown>, b as Record<string, unknown>);
}

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const key in a) if (!sameValue(a[key], b[key])) return false;
  for (const key in b) if (!(key in a) && b[key] !== undefined) return false;
  return true;
}

/** Counts what a delta carries against what the whole model holds, to send the model when that is not smaller. */
interface Cost { sent: number }

/**
 * The runs that turn `prev` into `next`. `keep(i, j)` says whether prev[i] may stand for next[j]; `change` gives
 * what to send for next[j] (with `i` the index of the previous item of the same key, if any).
 */
function diffList<T, E>(
  prev: readonly T[], next: readonly T[], key: (item: T) => string,
  keep: (i: number, j: number) => boolean, change: (j: number, i: number | undefined) => E,
): ListRun<E>[] {
  // Most updates keep the order: look just after the last match first, and index by key only when that misses.
  let index: Map<string, number> | undefined;
  const find = (k: string, guess: number): number | undefined => {
    for (let i = guess; i < Math.min(prev.length, guess + 3); i++) if (!used[i] && key(prev[i]) === k) return i;
    if (!index) {
      index = new Map();
      for (let i = 0; i < prev.length; i++) if (!index.has(key(prev[i]))) index.set(key(prev[i]), i);
    }
    const i = index.get(k);
    return i === undefined || used[i] ? undefined : i;
  };
  // Each previous item stands for one item at most: the webview may move it (and its position) in place.
  const used = new Uint8Array(prev.length);
  const runs: ListRun<E>[] = [];
  let guess = 0;
  for (let j = 0; j < next.length; j++) {
    const i = find(key(next[j]), guess);
    const last = runs[runs.length - 1];
    if (i !== undefined) {
      used[i] = 1;
      guess = i + 1;
    }
    if (i !== undefined && keep(i, j)) {
      if (last && 'from' in last && last.from + last.count === i) last.count++;
      else runs.push({ from: i, count: 1 });
    } else {
      const item = change(j, i);
      if (last && 'items' in last) last.items.push(item);
      else runs.push({ items: [item] });
    }
  }
  return runs;
}

/** Whether runs describe the previous list unchanged. */
function unchanged<E>(runs: readonly ListRun<E>[], prevLength: number): boolean {
  if (runs.length === 0) return prevLength === 0;
  const only = runs[0];
  return runs.length === 1 && 'from' in only && only.from === 0 && only.count === prevLength;
}

function diffPlain<T>(prev: readonly T[], next: readonly T[], key: (item: T) => string, cost: Cost): ListRun<T>[] | undefined {
  const runs = diffList(prev, next, key, (i, j) => sameValue(prev[i], next[j]), (j) => { cost.sent++; return next[j]; });
  return unchanged(runs, prev.length) && prev.length === next.length ? undefined : runs;
}

type Watch = Participant['watches'][number];

/**
 * Every field of a participant, and of its watches, that sameParticipant compares: a field added to the model
 * does not compile until it is listed here (and compared below), so no change can go unsent.
 */
export const PARTICIPANT_FIELDS: Record<keyof Participant, true> = {
  path: true, name: true, sequence: true, kind: true, role: true, position: true, session: true, clientAddress: true,
  label: true, since: true, held: true, waitsFor: true, watches: true, ours: true, nodeless: true,
};
export const WATCH_FIELDS: Record<keyof Watch, true> = { path: true, source: true };

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

function sameWatches(a: readonly Watch[], b: readonly Watch[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k].path !== b[k].path || a[k].source !== b[k].source) return false;
  return true;
}

/**
 * A participant may stay if nothing but its index changed, its position moving with it. Field by field (10,000
 * of them per update): a generic deep compare costs several times more.
 */
function sameParticipant(a: Participant, i: number, b: Participant, j: number): boolean {
  return a.position - i === b.position - j && a.path === b.path && a.name === b.name && a.sequence === b.sequence
    && a.kind === b.kind && a.role === b.role && a.session === b.session && a.clientAddress === b.clientAddress
    && a.label === b.label && a.since === b.since && a.ours === b.ours && a.nodeless === b.nodeless
    && (a.held === b.held || (a.held !== undefined && b.held !== undefined && a.held.since === b.held.since && a.held.exact === b.held.exact))
    && sameStrings(a.waitsFor, b.waitsFor) && sameWatches(a.watches, b.watches);
}

function diffScalars<T extends object>(prev: T, next: T, lists: readonly string[]): { set?: Partial<T>; unset?: (keyof T)[] } {
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  const p = prev as Record<string, unknown>;
  const n = next as Record<string, unknown>;
  for (const key of new Set([...Object.keys(p), ...Object.keys(n)])) {
    if (lists.includes(key) || sameValue(p[key], n[key])) continue;
    if (n[key] === undefined) unset.push(key);
    else set[key] = n[key];
  }
  return { ...(Object.keys(set).length ? { set: set as Partial<T> } : {}), ...(unset.length ? { unset: unset as (keyof T)[] } : {}) };
}

function sizeOfQueue(q: LockQueue): number {
  return 1 + q.participants.length + q.anomalies.length;
}

function diffQueue(prev: LockQueue, i: number, next: LockQueue, cost: Cost): QueueChange {
  const change: QueueChange = { patch: i, ...diffScalars<QueueScalars>(prev, next, ['participants', 'anomalies']) };
  if (change.set || change.unset) cost.sent++;
  const people = diffList(prev.participants, next.participants, (p) => p.path,
    (a, b) => sameParticipant(prev.participants[a], a, next.participants[b], b), (j) => { cost.sent++; return next.participants[j]; });
  if (!unchanged(people, prev.participants.length) || prev.participants.length !== next.participants.length) change.participants = people;
  const anomalies = diffPlain(prev.anomalies, next.anomalies, anomalyKey, cost);
  if (anomalies) change.anomalies = anomalies;
  return change;
}

/**
 * What turns `prev` into `next`, or undefined when sending `next` whole would not be larger (more than half of
 * its items changed). `prev` and `next` are only read.
 */
export function diffAnalysis(prev: LockAnalysis, next: LockAnalysis): AnalysisDelta | undefined {
  const cost: Cost = { sent: 0 };
  const delta: AnalysisDelta = diffScalars<AnalysisScalars>(prev, next, ['queues', 'sessions', 'anomalies']);
  const queues = diffList(prev.queues, next.queues, (q) => q.path, (i, j) => sameValue(prev.queues[i], next.queues[j]),
    (j, i): QueueChange => {
      if (i === undefined) {
        cost.sent += sizeOfQueue(next.queues[j]);
        return { full: next.queues[j] };
      }
      return diffQueue(prev.queues[i], i, next.queues[j], cost);
    });
  if (!unchanged(queues, prev.queues.length) || prev.queues.length !== next.queues.length) delta.queues = queues;
  const sessions = diffPlain(prev.sessions, next.sessions, (s) => s.id, cost);
  if (sessions) delta.sessions = sessions;
  const anomalies = diffPlain(prev.anomalies, next.anomalies, anomalyKey, cost);
  if (anomalies) delta.anomalies = anomalies;
  const size = next.queues.reduce((n, q) => n + sizeOfQueue(q), 0) + next.sessions.length + next.anomalies.length;
  return cost.sent * 2 > size ? undefined : delta;
}

function applyList<T, E>(prev: readonly T[], runs: readonly ListRun<E>[], keep: (item: T, from: number, to: number) => T, make: (entry: E) => T): T[] {
  const out: T[] = [];
  for (const run of runs) {
    if ('items' in run) {
      for (const entry of run.items) out.push(make(entry));
    } else {
      if (run.from < 0 || run.from + run.count > prev.length) throw new Error('lock-queue delta: a run outside the previous list');
      for (let k = 0; k < run.count; k++) out.push(keep(prev[run.from + k], run.from + k, out.length));
    }
  }
  return out;
}

const same = <T>(item: T): T => item;

function applyScalars<T extends object>(prev: T, set: Partial<T> | undefined, unset: readonly (keyof T)[] | undefined): T {
  const out = { ...prev, ...set };
  for (const key of unset ?? []) delete out[key];
  return out;
}

/**
 * `prev` changed by `delta`. Takes `prev` over: what did not change is reused (same objects), and participants
 * that moved get their position moved in place.
 */
export function applyAnalysisDelta(prev: LockAnalysis, delta: AnalysisDelta): LockAnalysis {
  const moveParticipant = (p: Participant, from: number, to: number): Participant => {
    if (from !== to) p.position += to - from;
    return p;
  };
  const queue = (change: QueueChange): LockQueue => {
    if ('full' in change) return change.full;
    const before = prev.queues[change.patch];
    if (!before) throw new Error('lock-queue delta: a patch of a queue that is not there');
    const after = applyScalars<LockQueue>(before, change.set, change.unset);
    if (change.participants) after.participants = applyList(before.participants, change.participants, moveParticipant, same);
    if (change.anomalies) after.anomalies = applyList(before.anomalies, change.anomalies, same, same);
    return after;
  };
  const next = applyScalars<LockAnalysis>(prev, delta.set, delta.unset);
  if (delta.queues) next.queues = applyList(prev.queues, delta.queues, same, queue);
  if (delta.sessions) next.sessions = applyList(prev.sessions, delta.sessions, same, same);
  if (delta.anomalies) next.anomalies = applyList(prev.anomalies, delta.anomalies, same, same);
  return next;
}
