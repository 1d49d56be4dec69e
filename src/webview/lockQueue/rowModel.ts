// The model's rows in order, without building them all: a few header rows (deadlocks, anomalies, notes), then per
// queue its header rows and its participants, whose rows are made only when looked at. Heights are fixed per
// kind, so where a row is, and which row is at a scroll position, is arithmetic per queue. An update rebuilds the
// headers and the queues that changed (a delta keeps unchanged queues as the same objects); nothing is O(rows).
import { anomalyKey, type LockAnalysis, type LockQueue } from '../../shared/lockAnalysis';
import { ROW_HEIGHTS, RowGeometry } from './layout';
import { anomaliesByPath, deadlockedSessions, participantKey, ParticipantRow, QueueContext, Row, SEP } from './rows';

export interface RowList extends RowGeometry {
  /** Row `index`, 0 ≤ index < length. */
  row(index: number): Row;
  /** Where the row of `key` is; `hint` (where it was) is looked at first. */
  indexOfKey(key: string, hint?: number): number | undefined;
}

const PARTICIPANT_HEIGHT = ROW_HEIGHTS.participant;
/** Participant rows kept per queue (rows on screen are asked for several times per render). */
const ROW_CACHE_LIMIT = 512;

/** Header rows, then (for a queue) one row per participant. */
class Segment {
  /** tops[k]: top of header row k within the segment; tops[head.length]: height of the headers. */
  private readonly tops: Float64Array;
  private readonly cache = new Map<number, ParticipantRow>();
  private indexByKey?: Map<string, number>;

  constructor(readonly head: Row[], readonly ctx?: QueueContext) {
    this.tops = new Float64Array(head.length + 1);
    for (let k = 0; k < head.length; k++) this.tops[k + 1] = this.tops[k] + ROW_HEIGHTS[head[k].kind];
  }

  private get people(): number {
    return this.ctx ? this.ctx.queue.participants.length : 0;
  }

  get length(): number {
    return this.head.length + this.people;
  }

  get height(): number {
    return this.tops[this.head.length] + this.people * PARTICIPANT_HEIGHT;
  }

  row(k: number): Row {
    if (k < this.head.length || !this.ctx) return this.head[k];
    const i = k - this.head.length;
    let row = this.cache.get(i);
    if (!row) {
      if (this.cache.size >= ROW_CACHE_LIMIT) this.cache.clear();
      row = new ParticipantRow(this.ctx.queue.participants[i], i, this.ctx);
      this.cache.set(i, row);
    }
    return row;
  }

  offsetOf(k: number): number {
    const h = this.head.length;
    return k <= h ? this.tops[k] : this.tops[h] + (k - h) * PARTICIPANT_HEIGHT;
  }

  /** Row at `dy` below the segment's top (clamped). */
  indexAt(dy: number): number {
    const h = this.head.length;
    if (dy >= this.tops[h] && this.people > 0) return h + Math.min(this.people - 1, Math.floor((dy - this.tops[h]) / PARTICIPANT_HEIGHT));
    let k = 0;
    while (k + 1 < h && this.tops[k + 1] <= dy) k++;
    return k;
  }

  indexOfKey(key: string): number | undefined {
    const k = this.head.findIndex((r) => r.key === key);
    if (k >= 0) return k;
    if (!this.ctx || !key.startsWith('p:')) return undefined;
    if (!this.indexByKey) {
      this.indexByKey = new Map();
      this.ctx.queue.participants.forEach((p, i) => { if (!this.indexByKey!.has(participantKey(p))) this.indexByKey!.set(participantKey(p), i); });
    }
    const i = this.indexByKey.get(key);
    return i === undefined ? undefined : this.head.length + i;
  }
}

function globalHeadRows(analysis: LockAnalysis): Row[] {
  const rows: Row[] = [];
  analysis.deadlocks.forEach((cycle, index) => {
    rows.push({ kind: 'deadlock', key: `d:${cycle.sessions.join(',')}`, sig: `${cycle.sessions.join(',')}${SEP}${cycle.locks.join(',')}`, cycle, index });
  });
  for (const anomaly of analysis.anomalies) {
    if (anomaly.kind === 'deadlock' && analysis.deadlocks.length > 0) continue; // shown as a deadlock row
    const key = anomalyKey(anomaly);
    rows.push({ kind: 'anomaly', key: `g:${key}`, sig: key + SEP + JSON.stringify(anomaly.facts), anomaly, anomalyKey: key });
  }
  if (analysis.truncated) rows.push({ kind: 'note', key: 'n:truncated', sig: 'truncated', note: 'truncated' });
  if (analysis.queues.length === 0) rows.push({ kind: 'note', key: 'n:none', sig: 'noQueues', note: 'noQueues' });
  return rows;
}

function queueSegment(queue: LockQueue, analysis: LockAnalysis, deadlocked: Set<string>): Segment {
  const rows: Row[] = [];
  let holders = 0;
  for (const p of queue.participants) if (p.role !== 'waiter') holders++;
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
  return new Segment(rows, { queue, anomaliesByPath: anomaliesByPath(queue), deadlocked });
}

export class RowModel implements RowList {
  readonly length: number;
  private readonly segments: Segment[];
  /** starts[s]: index of segment s's first row; tops[s]: its top. One more entry each for the end. */
  private readonly starts: number[];
  private readonly tops: number[];

  private constructor(
    readonly analysis: LockAnalysis,
    private readonly deadlocked: Set<string>,
    private readonly byQueue: Map<LockQueue, Segment>,
  ) {
    this.segments = [new Segment(globalHeadRows(analysis)), ...analysis.queues.map((q) => byQueue.get(q)!)];
    this.starts = [0];
    this.tops = [0];
    for (const s of this.segments) {
      this.starts.push(this.starts[this.starts.length - 1] + s.length);
      this.tops.push(this.tops[this.tops.length - 1] + s.height);
    }
    this.length = this.starts[this.segments.length];
  }

  /**
   * The rows of `analysis`. Queues that are the same objects as in `previous` (and deadlocks the same array) keep
   * their rows: the caller must not have changed them in place.
   */
  static build(analysis: LockAnalysis, previous?: RowModel): RowModel {
    const reuse = previous !== undefined && previous.analysis.deadlocks === analysis.deadlocks;
    const deadlocked = reuse ? previous.deadlocked : deadlockedSessions(analysis.deadlocks);
    const byQueue = new Map<LockQueue, Segment>();
    for (const q of analysis.queues) {
      if (byQueue.has(q)) continue;
      byQueue.set(q, (reuse ? previous.byQueue.get(q) : undefined) ?? queueSegment(q, analysis, deadlocked));
    }
    return new RowModel(analysis, deadlocked, byQueue);
  }

  /** Index of the last segment whose `edges` entry is ≤ value (binary search). */
  private lastAtOrBelow(edges: readonly number[], value: number): number {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (edges[mid] <= value) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  row(index: number): Row {
    const s = this.lastAtOrBelow(this.starts, index);
    return this.segments[s].row(index - this.starts[s]);
  }

  offsetOf(index: number): number {
    if (index >= this.length) return this.tops[this.segments.length];
    const s = this.lastAtOrBelow(this.starts, index);
    return this.tops[s] + this.segments[s].offsetOf(index - this.starts[s]);
  }

  indexAt(y: number): number {
    if (this.length === 0) return 0;
    // Segments without rows (the header segment may have none) have no height: step over them.
    let s = this.lastAtOrBelow(this.tops, y);
    while (this.segments[s].length === 0) s++;
    return this.starts[s] + this.segments[s].indexAt(y - this.tops[s]);
  }

  indexOfKey(key: string, hint?: number): number | undefined {
    if (hint !== undefined) {
      for (const i of [hint, hint - 1, hint + 1]) if (i >= 0 && i < this.length && this.row(i).key === key) return i;
    }
    for (let s = 0; s < this.segments.length; s++) {
      const k = this.segments[s].indexOfKey(key);
      if (k !== undefined) return this.starts[s] + k;
    }
    return undefined;
  }
}

/** Every row of `analysis`, in order (tests, and whatever needs them all). */
export function buildRows(analysis: LockAnalysis): Row[] {
  const model = RowModel.build(analysis);
  return Array.from({ length: model.length }, (_, i) => model.row(i));
}
