// The model turned into a flat list of rows (pure: no DOM), each with a stable key and a signature of what it
// shows, so the view can keep unchanged rows and render only those on screen.
import type { Anomaly, DeadlockCycle, EdgeSource, LockAnalysis, LockQueue, Participant } from '../../zk/analysis/model';
import { anomalyKey } from '../../shared/lockQueueMessages';

export interface EdgeTarget {
  path: string;
  /** The target's name, or its path when it is not a participant of this queue. */
  name: string;
  source: EdgeSource;
  /** Position of the target in the same queue, if it is one of its participants. */
  position?: number;
  /** True for a recipe's "waits for" that no watch confirms. */
  waitOnly?: boolean;
}

interface RowBase {
  /** Stable across updates for the same thing (queue path, participant path, ...). */
  key: string;
  /** Changes whenever what the row shows changes (time ticking aside). */
  sig: string;
}

export interface DeadlockRow extends RowBase { kind: 'deadlock'; cycle: DeadlockCycle; index: number }
export interface GlobalAnomalyRow extends RowBase { kind: 'anomaly'; anomaly: Anomaly; anomalyKey: string; queuePath?: string }
export interface QueueRow extends RowBase {
  kind: 'queue';
  queue: LockQueue;
  holders: number;
  waiters: number;
  deadlocked: boolean;
}
export interface ParticipantRow extends RowBase {
  kind: 'participant';
  participant: Participant;
  queuePath: string;
  edges: EdgeTarget[];
  anomalies: { kind: Anomaly['kind']; severity: Anomaly['severity']; key: string }[];
  deadlocked: boolean;
  /** The row directly above is the participant it watches (the usual predecessor edge). */
  watchesRowAbove?: EdgeSource;
}
export interface NoteRow extends RowBase { kind: 'note'; note: 'noQueues' | 'emptyQueue'; queuePath?: string }

export type Row = DeadlockRow | GlobalAnomalyRow | QueueRow | ParticipantRow | NoteRow;

const SEP = '\u0001';

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1) || '/';
}

function deadlockedSessions(deadlocks: readonly DeadlockCycle[]): Set<string> {
  const set = new Set<string>();
  for (const cycle of deadlocks) for (const s of cycle.sessions) set.add(s);
  return set;
}

function edgesOf(p: Participant, byPath: Map<string, Participant>): EdgeTarget[] {
  const target = (path: string, source: EdgeSource, waitOnly?: boolean): EdgeTarget => {
    const other = byPath.get(path);
    return { path, name: other ? other.name : path, source, position: other?.position, waitOnly };
  };
  const edges = p.watches.map((w) => target(w.path, w.source));
  const watched = new Set(p.watches.map((w) => w.path));
  for (const path of p.waitsFor) if (!watched.has(path)) edges.push(target(path, 'inferred', true));
  return edges;
}

function participantRow(queue: LockQueue, p: Participant, byPath: Map<string, Participant>, above: Participant | undefined,
  deadlocked: Set<string>): ParticipantRow {
  const edges = edgesOf(p, byPath);
  const anomalies = queue.anomalies.filter((a) => a.paths.includes(p.path) || (p.session !== undefined && a.kind === 'deadlock' && a.sessions.includes(p.session)))
    .map((a) => ({ kind: a.kind, severity: a.severity, key: anomalyKey(a) }));
  const isDeadlocked = p.session !== undefined && deadlocked.has(p.session) && p.role === 'waiter';
  const aboveEdge = above ? edges.find((e) => e.path === above.path && !e.waitOnly) : undefined;
  const sig = [p.name, p.role, p.position, p.kind, p.session ?? '', p.clientAddress ?? '', p.label ?? '', p.since, p.ours ? 1 : 0,
    edges.map((e) => `${e.path}>${e.source}${e.waitOnly ? '?' : ''}${e.position ?? ''}`).join(','),
    anomalies.map((a) => a.key).join(','), isDeadlocked ? 1 : 0, aboveEdge?.source ?? ''].join(SEP);
  return {
    kind: 'participant', key: `p:${p.path}`, sig, participant: p, queuePath: queue.path, edges, anomalies,
    deadlocked: isDeadlocked, watchesRowAbove: aboveEdge?.source,
  };
}

export function buildRows(analysis: LockAnalysis): Row[] {
  const rows: Row[] = [];
  const deadlocked = deadlockedSessions(analysis.deadlocks);
  analysis.deadlocks.forEach((cycle, index) => {
    rows.push({ kind: 'deadlock', key: `d:${cycle.sessions.join(',')}`, sig: `${cycle.sessions.join(',')}${SEP}${cycle.locks.join(',')}`, cycle, index });
  });
  for (const anomaly of analysis.anomalies) {
    if (anomaly.kind === 'deadlock' && analysis.deadlocks.length > 0) continue; // shown as a deadlock row
    const key = anomalyKey(anomaly);
    rows.push({ kind: 'anomaly', key: `g:${key}`, sig: key + SEP + JSON.stringify(anomaly.facts), anomaly, anomalyKey: key });
  }
  if (analysis.queues.length === 0) rows.push({ kind: 'note', key: 'n:none', sig: 'noQueues', note: 'noQueues' });
  for (const queue of analysis.queues) {
    const byPath = new Map(queue.participants.map((p) => [p.path, p] as const));
    const holders = queue.participants.filter((p) => p.role !== 'waiter').length;
    const waiters = queue.participants.length - holders;
    const queueDeadlocked = analysis.deadlocks.some((c) => c.locks.includes(queue.path));
    rows.push({
      kind: 'queue', key: `q:${queue.path}`, queue, holders, waiters, deadlocked: queueDeadlocked,
      sig: [queue.recipe, queue.leases ?? '', holders, waiters, queueDeadlocked ? 1 : 0].join(SEP),
    });
    // Every anomaly gets a row with its explanation under the header; participants it is about also get a badge.
    for (const anomaly of queue.anomalies) {
      const key = anomalyKey(anomaly);
      rows.push({ kind: 'anomaly', key: `a:${queue.path}${SEP}${key}`, sig: key + SEP + JSON.stringify(anomaly.facts), anomaly, anomalyKey: key, queuePath: queue.path });
    }
    if (queue.participants.length === 0) {
      rows.push({ kind: 'note', key: `n:${queue.path}`, sig: 'emptyQueue', note: 'emptyQueue', queuePath: queue.path });
    }
    let above: Participant | undefined;
    for (const p of queue.participants) {
      rows.push(participantRow(queue, p, byPath, above, deadlocked));
      above = p;
    }
  }
  return rows;
}

export interface RowDiff {
  added: string[];
  removed: string[];
  changed: string[];
  unchanged: number;
}

/** What changed between the signatures of the previous rows (key → sig) and the new rows. */
export function diffRows(previous: ReadonlyMap<string, string>, next: readonly Row[]): RowDiff {
  const diff: RowDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  const seen = new Set<string>();
  for (const row of next) {
    seen.add(row.key);
    const before = previous.get(row.key);
    if (before === undefined) diff.added.push(row.key);
    else if (before !== row.sig) diff.changed.push(row.key);
    else diff.unchanged++;
  }
  for (const key of previous.keys()) if (!seen.has(key)) diff.removed.push(key);
  return diff;
}

export function signatures(rows: readonly Row[]): Map<string, string> {
  return new Map(rows.map((r) => [r.key, r.sig] as const));
}
