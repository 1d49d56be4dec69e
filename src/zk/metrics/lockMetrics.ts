// Lock contention as Prometheus metrics, fed by a lock recorder's events: each hand-off only adds to counters and
// buckets (O(1)); the exposition is built when scraped. What is counted is what the figures count (figures.ts):
// every hold is an acquisition, and only exact holds and waits (isExact) enter the histograms; those that are bounds
// (found already there, ended in a gap) are counted apart. One series per lock (never per node or session); past
// `maxLocks` locks, the rest are summed under one label value that no znode path can be (paths start with "/").
import type { RecipeId } from '../../shared/lockAnalysis';
import { isExact, type HistoryEvent, type HistoryInterval, type LockRecorder } from '../history';
import { Family, HistogramValue, Labels, render, type ExpositionFormat } from './exposition';

/** Bucket bounds in seconds, from a millisecond to four hours (+Inf last). */
export const DURATION_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 1800, 3600, 7200, 14400, Infinity,
];

export const DEFAULT_MAX_LOCKS = 100;

/** The `lock` label of the locks past --max-locks, summed (no path: a path starts with "/"). */
export const OTHER_LOCKS = '(other)';

class Histogram {
  /** Per bucket, not cumulative: an observation adds to one bucket. */
  readonly counts = new Array<number>(DURATION_BUCKETS.length).fill(0);
  sum = 0;
  count = 0;

  observe(seconds: number): void {
    let i = 0;
    while (seconds > DURATION_BUCKETS[i]) i++;
    this.counts[i]++;
    this.sum += seconds;
    this.count++;
  }

  value(): HistogramValue {
    let running = 0;
    return { cumulative: this.counts.map((n) => (running += n)), sum: this.sum, count: this.count };
  }
}

/** The series of one lock label and recipe. */
interface RecipeSeries {
  lock: string;
  recipe: RecipeId;
  acquisitions: number;
  holds: Histogram;
  waits: Histogram;
  boundedHolds: number;
  boundedWaits: number;
  lostHolding: number;
  lostWaiting: number;
}

/** The gauges of one lock label. */
interface LockGauges {
  queueLength: number;
  /** Holds open now (several for read locks and semaphores; many under the folded label). */
  openHolds: Set<HistoryInterval>;
  unseenChanges: number;
}

export interface LockMetricsOptions {
  maxLocks?: number;
  /** Wall clock for the held-so-far gauge (tests give their own). */
  now?: () => number;
}

export class LockMetrics {
  readonly maxLocks: number;
  private readonly now: () => number;
  /** Lock path → its label (itself, or OTHER_LOCKS once maxLocks have their own). */
  private readonly labels = new Map<string, string>();
  private ownLocks = 0;
  private foldedLocks = 0;
  private readonly series = new Map<string, RecipeSeries>();
  /** Each lock path's series as last used: a hand-off finds it without building the key. */
  private readonly lastSeries = new Map<string, RecipeSeries>();
  private readonly gauges = new Map<string, LockGauges>();
  /** Each lock's last queue length, for its label's sum. */
  private readonly lengths = new Map<string, number>();
  private monitorGaps = 0;
  private seeing: () => boolean = () => false;
  private recipeOf: (lock: string) => RecipeId | undefined = () => undefined;

  constructor(options: LockMetricsOptions = {}) {
    this.maxLocks = options.maxLocks ?? DEFAULT_MAX_LOCKS;
    this.now = options.now ?? Date.now;
  }

  /** Follows `recorder` from now (what it holds open already counts too); returns the way to stop. */
  attach(recorder: LockRecorder): () => void {
    this.seeing = () => recorder.seeing;
    this.recipeOf = (lock) => recorder.recipeOf(lock);
    for (const interval of recorder.history.open.values()) this.opened(interval);
    return recorder.onEvent((event) => this.note(event));
  }

  /** One event of the recorder. */
  note(event: HistoryEvent): void {
    switch (event.type) {
      case 'open':
        this.opened(event.interval);
        break;
      case 'close':
        this.closed(event.interval);
        break;
      case 'ended':
        this.lost(event.interval);
        break;
      case 'gap':
        // A gap of sight is told when it starts and when it ends (the same gap): counted once, at its start. A
        // lock's unseen changes come told once, over already.
        if (event.gap.lock === undefined) {
          if (event.gap.to === undefined) this.monitorGaps++;
        } else {
          this.gaugesOf(this.labelOf(event.gap.lock)).unseenChanges += event.gap.unseen ?? 0;
        }
        break;
      case 'queue': {
        const { lock, length } = event.sample;
        this.gaugesOf(this.labelOf(lock)).queueLength += length - (this.lengths.get(lock) ?? 0);
        this.lengths.set(lock, length);
        break;
      }
    }
  }

  /** The exposition in `format`, as of now. */
  render(format: ExpositionFormat): string {
    return render(this.families(), format);
  }

  /** Locks given their own series, and locks summed under OTHER_LOCKS. */
  get lockCounts(): { own: number; folded: number } {
    return { own: this.ownLocks, folded: this.foldedLocks };
  }

  private opened(interval: HistoryInterval): void {
    if (interval.kind !== 'hold') return;
    this.seriesOf(interval).acquisitions++;
    this.gaugesOf(this.labelOf(interval.lock)).openHolds.add(interval);
  }

  private closed(interval: HistoryInterval): void {
    const series = this.seriesOf(interval);
    const hold = interval.kind === 'hold';
    if (hold) this.gaugesOf(this.labelOf(interval.lock)).openHolds.delete(interval);
    if (isExact(interval)) (hold ? series.holds : series.waits).observe(((interval.end ?? interval.start) - interval.start) / 1000);
    else if (hold) series.boundedHolds++;
    else series.boundedWaits++;
    this.lost(interval);
  }

  /** A session lost: told when the interval closes, or later (`ended`) once the leader's tracker tells. */
  private lost(interval: HistoryInterval): void {
    if (interval.ended !== 'sessionEnded') return;
    const series = this.seriesOf(interval);
    if (interval.kind === 'hold') series.lostHolding++;
    else series.lostWaiting++;
  }

  private labelOf(lock: string): string {
    let label = this.labels.get(lock);
    if (label === undefined) {
      const own = this.ownLocks < this.maxLocks;
      label = own ? lock : OTHER_LOCKS;
      if (own) this.ownLocks++;
      else this.foldedLocks++;
      this.labels.set(lock, label);
    }
    return label;
  }

  /** The series of an interval's lock label and its queue's recipe (as recognised when first asked). */
  private seriesOf(interval: HistoryInterval): RecipeSeries {
    const recipe = this.recipeOf(interval.lock) ?? 'unknown';
    const last = this.lastSeries.get(interval.lock);
    if (last?.recipe === recipe) return last;
    const lock = this.labelOf(interval.lock);
    const key = `${lock}\0${recipe}`;
    let series = this.series.get(key);
    if (!series) {
      series = { lock, recipe, acquisitions: 0, holds: new Histogram(), waits: new Histogram(), boundedHolds: 0, boundedWaits: 0, lostHolding: 0, lostWaiting: 0 };
      this.series.set(key, series);
      this.gaugesOf(lock);
    }
    this.lastSeries.set(interval.lock, series);
    return series;
  }

  private gaugesOf(label: string): LockGauges {
    let gauges = this.gauges.get(label);
    if (!gauges) {
      gauges = { queueLength: 0, openHolds: new Set(), unseenChanges: 0 };
      this.gauges.set(label, gauges);
    }
    return gauges;
  }

  private families(): Family[] {
    const now = this.now();
    const series = [...this.series.values()];
    const byRecipe = (s: RecipeSeries): Labels => [['lock', s.lock], ['recipe', s.recipe]];
    const withRole = (s: RecipeSeries, role: string): Labels => [...byRecipe(s), ['role', role]];
    const locks = [...this.gauges];
    const byLock = (lock: string): Labels => [['lock', lock]];
    const heldSeconds = (g: LockGauges) => {
      let longest = 0;
      for (const hold of g.openHolds) longest = Math.max(longest, now - hold.start);
      return longest / 1000;
    };
    return [
      { type: 'counter', name: 'zookeeper_lock_acquisitions', help: 'Holds that began (each acquisition of the lock, exact or found already held).', samples: series.map((s) => ({ labels: byRecipe(s), value: s.acquisitions })) },
      {
        type: 'histogram', name: 'zookeeper_lock_hold_seconds', unit: 'seconds', bounds: DURATION_BUCKETS,
        help: 'How long each hold lasted, holds seen starting and ending only (bounds are in zookeeper_lock_bounded_intervals_total).',
        samples: series.map((s) => ({ labels: byRecipe(s), value: s.holds.value() })),
      },
      {
        type: 'histogram', name: 'zookeeper_lock_wait_seconds', unit: 'seconds', bounds: DURATION_BUCKETS,
        help: 'How long each wait lasted (until it held, gave up or went), waits seen starting and ending only.',
        samples: series.map((s) => ({ labels: byRecipe(s), value: s.waits.value() })),
      },
      {
        type: 'counter', name: 'zookeeper_lock_bounded_intervals', help: 'Holds and waits whose duration is only a bound (found already there, or ended in a gap): not in the histograms.',
        samples: series.flatMap((s) => [{ labels: withRole(s, 'hold'), value: s.boundedHolds }, { labels: withRole(s, 'wait'), value: s.boundedWaits }]),
      },
      {
        type: 'counter', name: 'zookeeper_lock_session_losses', help: 'Holds and waits that ended with their session expiring.',
        samples: series.flatMap((s) => [{ labels: withRole(s, 'hold'), value: s.lostHolding }, { labels: withRole(s, 'wait'), value: s.lostWaiting }]),
      },
      { type: 'gauge', name: 'zookeeper_lock_queue_length', help: 'Participants in the lock\'s queue now (holders and waiters).', samples: locks.map(([lock, g]) => ({ labels: byLock(lock), value: g.queueLength })) },
      { type: 'gauge', name: 'zookeeper_lock_held_seconds', unit: 'seconds', help: 'How long the current holder has held the lock so far (the longest, if several); 0 when free.', samples: locks.map(([lock, g]) => ({ labels: byLock(lock), value: heldSeconds(g) })) },
      { type: 'counter', name: 'zookeeper_lock_unseen_changes', help: 'Creates and deletes in the lock\'s queue that came and went between two reads, unseen.', samples: locks.map(([lock, g]) => ({ labels: byLock(lock), value: g.unseenChanges })) },
      { type: 'counter', name: 'zookeeper_lock_monitor_gaps', help: 'Times the recorder lost sight of the servers (disconnected, or reads failing).', samples: [{ labels: [], value: this.monitorGaps }] },
      { type: 'gauge', name: 'zookeeper_lock_recorder_connected', help: '1 while the recorder sees the servers, 0 in a gap or before its first read.', samples: [{ labels: [], value: this.seeing() ? 1 : 0 }] },
      { type: 'gauge', name: 'zookeeper_lock_folded_locks', help: `Locks past --max-locks (${this.maxLocks}), summed under lock="${OTHER_LOCKS}".`, samples: [{ labels: [], value: this.foldedLocks }] },
    ];
  }
}
