// Contention figures of a history, per lock and per participant (session), over all of it or a window: what
// `zooscope locks` prints and the panel will show. Exact percentiles over the intervals in memory; intervals
// summarised away (see LockHistory) join through their sketches, and the figures then say `approximate`.
import type { LockFigures, ParticipantFigures, Spread } from '../../shared/lockHistory';
import { DurationSketch } from './sketch';
import type { LockHistory } from './history';
import type { HistoryInterval } from './model';

export type { LockFigures, ParticipantFigures, Spread } from '../../shared/lockHistory';

/**
 * Whether an interval's duration is exact: seen starting and seen ending. One found already there, or that ended
 * in a gap (seen gone only after it), is a bound: figures flag it (`bounds`), metrics keep it out of their histograms.
 */
export const isExact = (i: HistoryInterval): boolean => i.startExact && i.endExact !== false;

export interface Window {
  from: number;
  to: number;
}

/** Intervals count in a window when they overlap it; open ones end at `window.to` (or now). */
export function lockFigures(history: LockHistory, window?: Window, now = Date.now()): LockFigures[] {
  const to = window?.to ?? now;
  const from = window?.from ?? earliest(history, to);
  const gapInWindow = (lock: string) => history.gaps.some((g) => (g.lock === undefined || g.lock === lock) && g.from <= to && (g.to ?? to) >= from);
  const byLock = new Map<string, HistoryInterval[]>();
  for (const i of history.intervals()) {
    const end = i.end ?? to;
    if (end < from || i.start > to) continue;
    const list = byLock.get(i.lock) ?? [];
    list.push(i);
    byLock.set(i.lock, list);
  }
  const summarised = window ? [] : [...history.summaries.values()];
  for (const s of summarised) if (!byLock.has(s.lock)) byLock.set(s.lock, []);
  const result: LockFigures[] = [];
  for (const [lock, intervals] of byLock) {
    const summary = history.summaries.get(lock);
    const useSummary = !window && summary !== undefined;
    const holds = intervals.filter((i) => i.kind === 'hold');
    const waits = intervals.filter((i) => i.kind === 'wait');
    const holdSpread = spread(holds.map((i) => (i.end ?? to) - i.start), useSummary ? summary.holds : undefined);
    const waitSpread = spread(waits.map((i) => (i.end ?? to) - i.start), useSummary ? summary.waits : undefined);
    const started = holds.filter((i) => i.start >= from).length + (useSummary ? summary.holds.count : 0);
    const seconds = Math.max(0.001, (to - (useSummary ? Math.min(from, summary.from) : from)) / 1000);
    const queue = history.samples.filter((s) => s.lock === lock && s.at >= from && s.at <= to).map((s): [number, number] => [s.at, s.length]);
    const longest = holds.reduce<HistoryInterval | undefined>((best, i) => (!best || (i.end ?? to) - i.start > (best.end ?? to) - best.start ? i : best), undefined);
    result.push({
      lock,
      acquisitions: holdSpread.count,
      holdMs: holdSpread,
      waitMs: waitSpread,
      maxQueueLength: Math.max(0, ...queue.map(([, n]) => n), useSummary ? summary.maxQueueLength : 0),
      queueLength: queue,
      acquisitionsPerSecond: started / seconds,
      ...(longest ? { longestHold: { node: longest.node, session: longest.session, clientAddress: longest.clientAddress, ms: (longest.end ?? to) - longest.start, exact: isExact(longest) } } : {}),
      sessionLosses: intervals.filter((i) => i.ended === 'sessionEnded').length,
      participants: participantFigures(intervals, to),
      unseenChanges: history.gaps.filter((g) => g.lock === lock && g.from <= to && (g.to ?? to) >= from).reduce((n, g) => n + (g.unseen ?? 0), 0),
      bounds: gapInWindow(lock) || intervals.some((i) => !isExact(i)) || (useSummary && summary.bounded),
      approximate: useSummary,
    });
  }
  return result.sort((a, b) => (a.lock < b.lock ? -1 : a.lock > b.lock ? 1 : 0));
}

function participantFigures(intervals: HistoryInterval[], to: number): ParticipantFigures[] {
  const byWho = new Map<string, HistoryInterval[]>();
  for (const i of intervals) {
    const who = i.session ?? i.node;
    const list = byWho.get(who) ?? [];
    list.push(i);
    byWho.set(who, list);
  }
  return [...byWho].map(([who, list]) => {
    const holds = list.filter((i) => i.kind === 'hold');
    const waits = list.filter((i) => i.kind === 'wait');
    const withAddress = list.find((i) => i.clientAddress);
    const withLabel = list.find((i) => i.label !== undefined);
    return {
      who,
      ...(withAddress ? { clientAddress: withAddress.clientAddress } : {}),
      ...(withLabel ? { label: withLabel.label } : {}),
      acquisitions: holds.length,
      holdMs: spread(holds.map((i) => (i.end ?? to) - i.start)),
      waitMs: spread(waits.map((i) => (i.end ?? to) - i.start)),
      gaveUp: waits.filter((i) => i.ended === 'gaveUp').length,
    };
  }).sort((a, b) => (b.holdMs.max ?? 0) - (a.holdMs.max ?? 0));
}

function earliest(history: LockHistory, fallback: number): number {
  let from = fallback;
  for (const i of history.intervals()) if (i.start < from) from = i.start;
  for (const s of history.summaries.values()) if (s.from < from) from = s.from;
  return from;
}

/** Nearest-rank percentiles of `values`, merged with a sketch of summarised ones when given. */
export function spread(values: number[], summarised?: DurationSketch): Spread {
  if (summarised && summarised.count > 0) {
    const sketch = new DurationSketch();
    sketch.merge(summarised);
    for (const v of values) sketch.add(v);
    return { count: sketch.count, median: sketch.quantile(0.5), p95: sketch.quantile(0.95), max: sketch.max };
  }
  if (values.length === 0) return { count: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
  return { count: sorted.length, median: rank(0.5), p95: rank(0.95), max: sorted[sorted.length - 1] };
}
