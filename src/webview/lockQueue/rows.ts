// The rows of the list (pure: no DOM), each with a stable key and a signature of what it shows, so the view can
// keep unchanged rows and render only those on screen. rowModel.ts puts them in order.
import { anomalyKey, type Anomaly, type DeadlockCycle, type EdgeSource, type LockQueue, type Participant } from '../../shared/lockAnalysis';

export interface EdgeTarget {
  path: string;
  /** The target's name, or its path when it is not a participant of this queue. */
  name: string;
  source: EdgeSource;
  /** Position of the target in the same queue, if it is one of its participants. */
  position?: number;
  /** True for a recipe's "waits for" that no watch confirms. */
  waitOnly?: boolean;
  /** The participant's watch on its own node (ZooScope's recipe, to learn at once of a deletion): no wait. */
  own?: boolean;
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
/** What a queue's participant rows share: built when the queue changes, looked into lazily by the rows on screen. */
export interface QueueContext {
  queue: LockQueue;
  anomaliesByPath: Map<string, ParticipantAnomaly[]>;
  deadlocked: Set<string>;
  byPathCache?: Map<string, Participant>;
}

export const SEP = '\u0001';
/** Starts the part of a participant row's signature that only positions make (digits and commas after it). */
const POSITIONS = '\u0002';

/** Whether two signatures of a participant row differ in positions only (its text is patched, not rebuilt). */
export function onlyPositionsDiffer(before: string, after: string): boolean {
  const i = before.lastIndexOf(POSITIONS);
  return i >= 0 && i === after.lastIndexOf(POSITIONS) && before.slice(0, i) === after.slice(0, i);
}

/** A participant row's key. A fixed leader's contenders own no node and carry the path of the node they watch: their session tells them apart. */
export function participantKey(p: Participant): string {
  return p.nodeless ? `p:${p.path}${SEP}${p.session ?? ''}` : `p:${p.path}`;
}

export interface ParticipantAnomaly { kind: Anomaly['kind']; severity: Anomaly['severity']; key: string }
const NO_ANOMALIES: ParticipantAnomaly[] = [];

/**
 * A participant's row. Built only when it is looked at (on screen, focus, clicks), and does nothing up front: its
 * signature and edges are computed when asked for.
 */
export class ParticipantRow {
  readonly kind = 'participant' as const;
  readonly key: string;
  private sigCache?: string;
  private edgesCache?: EdgeTarget[];

  constructor(readonly participant: Participant, private readonly index: number, private readonly ctx: QueueContext) {
    this.key = participantKey(participant);
  }

  get queuePath(): string {
    return this.ctx.queue.path;
  }

  get anomalies(): ParticipantAnomaly[] {
    return this.ctx.anomaliesByPath.get(this.participant.path) ?? NO_ANOMALIES;
  }

  get deadlocked(): boolean {
    const p = this.participant;
    return p.session !== undefined && p.role === 'waiter' && this.ctx.deadlocked.has(p.session);
  }

  /** How it watches the participant in the row directly above (the usual predecessor edge), if it does. */
  get watchesRowAbove(): EdgeSource | undefined {
    const above = this.ctx.queue.participants[this.index - 1];
    return above ? this.participant.watches.find((w) => w.path === above.path)?.source : undefined;
  }

  get edges(): EdgeTarget[] {
    this.edgesCache ??= edgesOf(this.participant, (path) => this.find(path));
    return this.edgesCache;
  }

  /** A participant of the same queue by path: most edges go to a near predecessor, so look there first. */
  private find(path: string): Participant | undefined {
    const list = this.ctx.queue.participants;
    for (let i = this.index - 1; i >= Math.max(0, this.index - 4); i--) if (list[i].path === path) return list[i];
    this.ctx.byPathCache ??= new Map(list.map((p) => [p.path, p] as const));
    return this.ctx.byPathCache.get(path);
  }

  get sig(): string {
    if (this.sigCache === undefined) {
      const p = this.participant;
      let sig = `${p.name}${SEP}${p.role}${SEP}${p.kind}${SEP}${p.session ?? ''}${SEP}${p.clientAddress ?? ''}${SEP}${p.label ?? ''}${SEP}${p.since}${SEP}${p.held ? `${p.held.since}${p.held.exact ? '' : '+'}` : ''}${SEP}${p.ours ? 1 : 0}${SEP}`;
      for (const w of p.watches) sig += `${w.path}>${w.source},`;
      sig += SEP;
      for (const path of p.waitsFor) sig += `${path},`;
      for (const a of this.anomalies) sig += `${SEP}${a.key}`;
      sig += `${SEP}${this.deadlocked ? 1 : 0}${SEP}${this.watchesRowAbove ?? ''}${POSITIONS}${p.position}`;
      // Last, apart: the positions shown (its own, its edges' targets'), which the holder leaving changes on every row.
      for (const e of this.edges) sig += `,${e.position ?? ''}`;
      this.sigCache = sig;
    }
    return this.sigCache;
  }
}

export interface NoteRow extends RowBase { kind: 'note'; note: 'noQueues' | 'emptyQueue' | 'truncated'; queuePath?: string }

export type Row = DeadlockRow | GlobalAnomalyRow | QueueRow | ParticipantRow | NoteRow;

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1) || '/';
}

export function deadlockedSessions(deadlocks: readonly DeadlockCycle[]): Set<string> {
  const set = new Set<string>();
  for (const cycle of deadlocks) for (const s of cycle.sessions) set.add(s);
  return set;
}

function edgesOf(p: Participant, find: (path: string) => Participant | undefined): EdgeTarget[] {
  const target = (path: string, source: EdgeSource, waitOnly?: boolean): EdgeTarget => {
    const other = find(path);
    return { path, name: other ? other.name : path, source, position: other?.position, waitOnly };
  };
  const edges = p.watches.filter((w) => w.path !== p.path).map((w) => target(w.path, w.source));
  const watched = new Set(p.watches.map((w) => w.path));
  for (const path of p.waitsFor) if (!watched.has(path)) edges.push(target(path, 'inferred', true));
  // Last: what it waits for comes first on the row.
  for (const w of p.watches) if (w.path === p.path) edges.push({ ...target(w.path, w.source), own: true });
  return edges;
}

export function anomaliesByPath(queue: LockQueue): Map<string, ParticipantAnomaly[]> {
  const map = new Map<string, ParticipantAnomaly[]>();
  const add = (path: string, a: Anomaly) => {
    const list = map.get(path) ?? [];
    list.push({ kind: a.kind, severity: a.severity, key: anomalyKey(a) });
    map.set(path, list);
  };
  for (const a of queue.anomalies) {
    for (const path of new Set(a.paths)) add(path, a);
    if (a.kind === 'deadlock') {
      for (const p of queue.participants) if (p.session !== undefined && a.sessions.includes(p.session) && !a.paths.includes(p.path)) add(p.path, a);
    }
  }
  return map;
}

/** How to bring the rendered rows (key → signature) to rows [start, end) of the new list. */
export interface PatchPlan {
  /** Indexes of rows to create (not rendered yet). */
  create: number[];
  /** Indexes of rendered rows whose content changed. */
  update: number[];
  /** Indexes of rendered rows to keep as they are (at most moved). */
  keep: number[];
  /** Rendered keys that are no longer in the window (or gone). */
  remove: string[];
}

/** The keyed diff of an update, restricted to the rows on screen: the only ones that cost DOM work. */
export function planPatch(rendered: ReadonlyMap<string, string>, rows: { row(index: number): Row }, start: number, end: number): PatchPlan {
  const plan: PatchPlan = { create: [], update: [], keep: [], remove: [] };
  const wanted = new Set<string>();
  for (let i = start; i < end; i++) {
    const row = rows.row(i);
    wanted.add(row.key);
    const before = rendered.get(row.key);
    if (before === undefined) plan.create.push(i);
    else if (before !== row.sig) plan.update.push(i);
    else plan.keep.push(i);
  }
  for (const key of rendered.keys()) if (!wanted.has(key)) plan.remove.push(key);
  return plan;
}
