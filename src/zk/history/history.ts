// The store of one lock history: open intervals by participant, closed intervals in the order they closed, gaps and
// queue-length samples. Memory is bounded: past `maxIntervals` closed intervals (and as many samples), the oldest
// tenth is folded into a per-lock summary (counts and duration sketches), so figures still count them; nothing is
// dropped without being counted.
import { DurationSketch } from './sketch';
import type { HistoryGap, HistoryInterval, QueueSample } from './model';

/** 150,000 closed intervals: about 66 MiB (459 B each with realistic names, bench/historyBench.ts), within 100 MiB. */
export const DEFAULT_MAX_INTERVALS = 150_000;

export interface LockSummary {
  lock: string;
  /** Holds and waits summarised away from memory. */
  holds: DurationSketch;
  waits: DurationSketch;
  /** Earliest and latest time the summarised intervals cover. */
  from: number;
  to: number;
  maxQueueLength: number;
  /** Some summarised interval had a bound for a time. */
  bounded: boolean;
}

export class LockHistory {
  readonly closed: HistoryInterval[] = [];
  readonly open = new Map<string, HistoryInterval>();
  readonly gaps: HistoryGap[] = [];
  readonly samples: QueueSample[] = [];
  readonly summaries = new Map<string, LockSummary>();
  /**
   * When recording began (ms since the epoch): a panel's first look at the servers, a recording's header. Intervals
   * found already there start earlier (from their node's creation); the recorded window starts here.
   */
  startedAt?: number;
  private nextId = 1;

  constructor(readonly maxIntervals = DEFAULT_MAX_INTERVALS) {}

  newId(): number {
    return this.nextId++;
  }

  /** Keeps ids unique when a recording is loaded (its ids come from the file). */
  noteId(id: number): void {
    if (id >= this.nextId) this.nextId = id + 1;
  }

  addClosed(interval: HistoryInterval): void {
    this.closed.push(interval);
    if (this.closed.length > this.maxIntervals) this.summarise(this.closed.splice(0, Math.ceil(this.maxIntervals / 10)));
  }

  addSample(sample: QueueSample): void {
    this.samples.push(sample);
    if (this.samples.length > this.maxIntervals) {
      for (const old of this.samples.splice(0, Math.ceil(this.maxIntervals / 10))) {
        const summary = this.summaryOf(old.lock, old.at);
        summary.maxQueueLength = Math.max(summary.maxQueueLength, old.length);
      }
    }
  }

  /** Every interval, closed then open (open ones have no end yet). */
  *intervals(): Iterable<HistoryInterval> {
    yield* this.closed;
    yield* this.open.values();
  }

  private summarise(intervals: HistoryInterval[]): void {
    for (const i of intervals) {
      const end = i.end ?? i.start;
      const summary = this.summaryOf(i.lock, i.start);
      (i.kind === 'hold' ? summary.holds : summary.waits).add(end - i.start);
      summary.from = Math.min(summary.from, i.start);
      summary.to = Math.max(summary.to, end);
      if (!i.startExact || i.endExact === false) summary.bounded = true;
    }
  }

  private summaryOf(lock: string, at: number): LockSummary {
    let summary = this.summaries.get(lock);
    if (!summary) {
      summary = { lock, holds: new DurationSketch(), waits: new DurationSketch(), from: at, to: at, maxQueueLength: 0, bounded: false };
      this.summaries.set(lock, summary);
    }
    return summary;
  }
}
