// What the timeline draws for a window of time and a screenful of lanes (pure, no DOM): lanes per participant or
// per session, each an index of its intervals sorted by start with a running maximum of their ends, so the first
// interval on screen is a binary search and a frame costs what is on screen, not the whole history. Bars narrower
// than a pixel that fall on a pixel already drawn are merged, and thin bars that touch join into one rectangle, so
// a lane never draws more bars than it has pixels (zoomed out, far fewer).
import type { AnomalyMark } from '../../shared/lockQueueMessages';
import { END_CODES, type TimelineData } from '../../shared/lockHistory';

/** TimelineData.ended code of a session loss. */
export const ENDED_SESSION_LOST = END_CODES.indexOf('sessionEnded');

export interface DisplayLane {
  /** The lock (index into data.locks) of its first interval. */
  lock: number;
  /** Node name (per participant) or session (per session); untrusted text, shown through visibleText. */
  name: string;
  session?: string;
  /** Interval indices, sorted by start. */
  items: Int32Array;
  /** maxEnd[k]: the latest end among items[0..k] (Infinity for an open one). */
  maxEnd: Float64Array;
}

export interface Lanes {
  lanes: DisplayLane[];
  /** The display lane of each interval. */
  laneOf: Int32Array;
  /** Hand-overs [releasing interval, next hold] of each lock, sorted by the release's end. */
  handOvers: Int32Array;
}

export interface TimeWindow {
  /** ms after data.origin. */
  from: number;
  to: number;
}

export interface Bar {
  lane: number;
  interval: number;
  x0: number;
  x1: number;
}

export interface Frame {
  bars: Bar[];
  /** Intervals in the window that were merged into a neighbour's pixel. */
  merged: number;
  gaps: { x0: number; x1: number; lock?: number }[];
  /** Session losses: where, on which lane. */
  marks: { x: number; lane: number; interval: number }[];
  handOvers: { x0: number; x1: number; fromLane: number; toLane: number }[];
}

const endOf = (data: TimelineData, i: number): number => (data.end[i] < 0 ? Infinity : data.end[i]);

/** Bars narrower than this many pixels join a touching bar of the same kind and exactness. */
const THIN_PX = 2;

/** Exact start, and an exact end or none yet: drawn solid (bounds are drawn faint). */
export function isExact(data: TimelineData, i: number): boolean {
  return (data.exact[i] & 1) !== 0 && (data.end[i] < 0 || (data.exact[i] & 2) !== 0);
}

/** The lanes to draw: one per participant node, or one per session (nodes without one keep their own). */
export function buildLanes(data: TimelineData, perSession: boolean): Lanes {
  const groups = new Map<string, { lock: number; name: string; session?: string; items: number[] }>();
  data.lanes.forEach((lane, l) => {
    const key = perSession && lane.session ? `s\0${lane.session}` : `n\0${lane.lock}\0${lane.node}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { lock: lane.lock, name: perSession && lane.session ? lane.session : lane.node, ...(lane.session ? { session: lane.session } : {}), items: [] }));
    for (let i = data.laneStart[l]; i < data.laneStart[l + 1]; i++) group.items.push(i);
  });
  const firstStart = (g: { items: number[] }) => (g.items.length ? data.start[g.items[0]] : Infinity);
  const list = [...groups.values()];
  for (const g of list) if (perSession) g.items.sort((a, b) => data.start[a] - data.start[b]);
  list.sort((a, b) => a.lock - b.lock || firstStart(a) - firstStart(b));
  const laneOf = new Int32Array(data.start.length);
  const lanes = list.map((g, index): DisplayLane => {
    const items = Int32Array.from(g.items);
    const maxEnd = new Float64Array(items.length);
    let max = -Infinity;
    items.forEach((i, k) => {
      laneOf[i] = index;
      max = Math.max(max, endOf(data, i));
      maxEnd[k] = max;
    });
    return { lock: g.lock, name: g.name, ...(g.session ? { session: g.session } : {}), items, maxEnd };
  });
  return { lanes, laneOf, handOvers: handOversOf(data) };
}

/** Each ended hold and the first hold of its lock starting at or after that end. */
function handOversOf(data: TimelineData): Int32Array {
  const holdsByLock = new Map<number, number[]>();
  data.lanes.forEach((lane, l) => {
    for (let i = data.laneStart[l]; i < data.laneStart[l + 1]; i++) {
      if (data.kind[i] !== 1) continue;
      const list = holdsByLock.get(lane.lock) ?? [];
      list.push(i);
      holdsByLock.set(lane.lock, list);
    }
  });
  const pairs: [number, number][] = [];
  for (const holds of holdsByLock.values()) {
    holds.sort((a, b) => data.start[a] - data.start[b]);
    holds.forEach((i, k) => {
      if (data.end[i] < 0) return;
      const next = firstAtOrAfter(holds, k + 1, (j) => data.start[j] >= data.end[i]);
      if (next < holds.length) pairs.push([i, holds[next]]);
    });
  }
  pairs.sort((a, b) => data.end[a[0]] - data.end[b[0]]);
  return Int32Array.from(pairs.flat());
}

/** The first index in [lo, list.length) where `ok` holds, for an `ok` that stays true once true. */
function firstAtOrAfter<T extends ArrayLike<number>>(list: T, lo: number, ok: (value: number, index: number) => boolean): number {
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ok(list[mid], mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The first item of a lane that ends at or after `from` (open ones end at "now"). */
export function firstVisible(lane: DisplayLane, from: number): number {
  return firstAtOrAfter(lane.maxEnd, 0, (maxEnd) => maxEnd >= from);
}

/**
 * What to draw: bars of lanes [firstLane, lastLane) overlapping `window`, on a plot `width` pixels wide; `now` (ms
 * after the origin) is where open intervals end.
 */
export function frameOf(data: TimelineData, lanes: Lanes, window: TimeWindow, width: number, firstLane: number, lastLane: number, now: number): Frame {
  const scale = width / Math.max(1e-9, window.to - window.from);
  const x = (t: number) => (t - window.from) * scale;
  const frame: Frame = { bars: [], merged: 0, gaps: [], marks: [], handOvers: [] };
  const last = Math.min(lastLane, lanes.lanes.length);
  for (let l = Math.max(0, firstLane); l < last; l++) {
    const lane = lanes.lanes[l];
    // Per kind (waits and holds of one lane may overlap): up to which pixel it is drawn.
    const drawnTo = [-Infinity, -Infinity];
    // Per kind and exactness: the last bar, which a thin bar touching it extends instead of adding one.
    const lastBar: (Bar | undefined)[] = [undefined, undefined, undefined, undefined];
    for (let k = firstVisible(lane, window.from); k < lane.items.length; k++) {
      const i = lane.items[k];
      const start = data.start[i];
      if (start > window.to) break;
      const end = data.end[i] < 0 ? now : data.end[i];
      if (end < window.from) continue;
      const x0 = Math.max(0, x(start));
      const x1 = Math.min(width, Math.max(x(end), x0));
      if (data.ended[i] === ENDED_SESSION_LOST) frame.marks.push({ x: x(end), lane: l, interval: i });
      // Within pixels already drawn in the same colour: nothing more would show.
      const kind = data.kind[i];
      if (x1 <= drawnTo[kind]) {
        frame.merged++;
        continue;
      }
      drawnTo[kind] = Math.max(drawnTo[kind], Math.floor(x1) + 1);
      const style = 2 * kind + (isExact(data, i) ? 1 : 0);
      const previous = lastBar[style];
      // Zoomed out, a run of thin bars (a busy lane) is one rectangle: as many draws as pixels, not intervals.
      if (previous && x1 - x0 < THIN_PX && previous.x1 - previous.x0 < THIN_PX * 8 && x0 <= previous.x1 + 1) {
        previous.x1 = Math.max(previous.x1, x1);
        frame.merged++;
        continue;
      }
      const bar = { lane: l, interval: i, x0, x1 };
      frame.bars.push(bar);
      lastBar[style] = bar;
    }
  }
  for (const gap of data.gaps) {
    const from = gap.from - data.origin;
    const to = gap.to === undefined ? now : gap.to - data.origin;
    if (to < window.from || from > window.to) continue;
    const lock = gap.lock === undefined ? undefined : data.locks.indexOf(gap.lock);
    frame.gaps.push({ x0: Math.max(0, x(from)), x1: Math.min(width, x(to)), ...(lock !== undefined && lock >= 0 ? { lock } : {}) });
  }
  const pairs = lanes.handOvers;
  const count = pairs.length / 2;
  for (let p = firstAtOrAfter({ length: count } as ArrayLike<number>, 0, (_, k) => data.end[pairs[2 * k]] >= window.from); p < count; p++) {
    const from = pairs[2 * p];
    const to = pairs[2 * p + 1];
    if (data.end[from] > window.to) break;
    const fromLane = lanes.laneOf[from];
    const toLane = lanes.laneOf[to];
    if ((fromLane < firstLane && toLane < firstLane) || (fromLane >= last && toLane >= last)) continue;
    frame.handOvers.push({ x0: x(data.end[from]), x1: x(data.start[to]), fromLane, toLane });
  }
  frame.handOvers = mergedUpright(frame.handOvers);
  return frame;
}

type HandOver = Frame['handOvers'][number];

/**
 * Hand-overs narrower than a pixel are upright strokes; zoomed out, a busy lock has dozens in one pixel column, and
 * drawing each costs more than the whole frame. Those of one column are drawn as the union of their lane spans, the
 * same pixels in a handful of strokes; slanted ones stay as they are.
 */
export function mergedUpright(handOvers: HandOver[]): HandOver[] {
  if (handOvers.length < 2) return handOvers;
  const slanted: HandOver[] = [];
  // Per column, its upright hand-overs.
  const columns = new Map<number, HandOver[]>();
  for (const h of handOvers) {
    if (Math.abs(h.x1 - h.x0) >= 1) {
      slanted.push(h);
      continue;
    }
    const column = Math.floor(h.x0);
    const spans = columns.get(column) ?? [];
    spans.push(h);
    columns.set(column, spans);
  }
  const merged: HandOver[] = [];
  for (const spans of columns.values()) {
    if (spans.length === 1) {
      merged.push(spans[0]);
      continue;
    }
    // One x for the column's strokes: the first hand-over's.
    const x = spans[0].x0;
    const lanes = spans.map((h) => [Math.min(h.fromLane, h.toLane), Math.max(h.fromLane, h.toLane)]).sort((a, b) => a[0] - b[0]);
    let [lo, hi] = lanes[0];
    for (const [from, to] of lanes.slice(1)) {
      if (from <= hi) hi = Math.max(hi, to);
      else {
        merged.push({ x0: x, x1: x, fromLane: lo, toLane: hi });
        [lo, hi] = [from, to];
      }
    }
    merged.push({ x0: x, x1: x, fromLane: lo, toLane: hi });
  }
  return [...slanted, ...merged];
}

/** The interval under time `t` on a lane, within `slack` ms either side (the nearest when several are). */
export function intervalAt(data: TimelineData, lane: DisplayLane, t: number, slack: number, now: number): number | undefined {
  let best: number | undefined;
  let bestDistance = Infinity;
  for (let k = firstVisible(lane, t - slack); k < lane.items.length; k++) {
    const i = lane.items[k];
    if (data.start[i] > t + slack) break;
    const end = data.end[i] < 0 ? now : data.end[i];
    const distance = t < data.start[i] ? data.start[i] - t : t > end ? t - end : 0;
    if (distance <= slack && distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  }
  return best;
}

/** The shortest first view of a live history: a young recording fills it from the left as it goes on. */
export const MIN_LIVE_SPAN_MS = 30_000;
/** The shortest first view of a replay: a short recording is shown whole. */
export const MIN_REPLAY_SPAN_MS = 1_000;
/**
 * Nothing a lock history records happened before this (ZooKeeper's first release was 2008): an earlier time is a
 * Stat's ctime of 0, a clock never set, or a file made by hand, and never defines a view.
 */
export const EARLIEST_TIME = Date.UTC(2000, 0, 1);

/**
 * The recorded window, ms after data.origin: from when recording began to `now` (the host's clock while live, the
 * recording's end in a replay) and a margin after it, at least the minimum span (from where recording began, so a
 * young recording fills it from the left). Intervals found already there start earlier: they begin at the left edge.
 */
export function recordedWindow(data: TimelineData, now: number, live: boolean): TimeWindow {
  const minSpan = live ? MIN_LIVE_SPAN_MS : MIN_REPLAY_SPAN_MS;
  const from = recordingStart(data, now) ?? now - minSpan;
  return { from, to: from + Math.max(minSpan, (now - from) * 1.02) };
}

/**
 * When recording began, ms after data.origin: data.startedAt, or without a plausible one the earliest plausible time
 * in the data (a bar, a gap, a queue length); undefined when there is none. Plausible: from EARLIEST_TIME to `now`.
 */
export function recordingStart(data: TimelineData, now: number): number | undefined {
  const earliest = EARLIEST_TIME - data.origin;
  const plausible = (t: number) => t >= earliest && t <= now;
  if (data.startedAt !== undefined && plausible(data.startedAt - data.origin)) return data.startedAt - data.origin;
  let first = Infinity;
  const consider = (t: number) => { if (t < first && plausible(t)) first = t; };
  data.start.forEach(consider);
  for (const gap of data.gaps) consider(gap.from - data.origin);
  for (const series of data.queue) series.at.forEach(consider);
  return Number.isFinite(first) ? first : undefined;
}

/** The window zoomed by `factor` (< 1 zooms in) around the time at fraction `at` (0…1) of its width. */
export function zoomed(window: TimeWindow, factor: number, at: number, minSpan = 1): TimeWindow {
  const span = Math.max(minSpan, (window.to - window.from) * factor);
  const pivot = window.from + (window.to - window.from) * at;
  return { from: pivot - span * at, to: pivot + span * (1 - at) };
}

export function panned(window: TimeWindow, ms: number): TimeWindow {
  return { from: window.from + ms, to: window.to + ms };
}

/** Anomaly marks in the window (marks are in time order), at their x on a plot `width` pixels wide. */
export function anomaliesInView(marks: readonly AnomalyMark[], origin: number, window: TimeWindow, width: number): { x: number; mark: AnomalyMark }[] {
  const scale = width / Math.max(1e-9, window.to - window.from);
  const shown: { x: number; mark: AnomalyMark }[] = [];
  for (const mark of marks) {
    const t = mark.at - origin;
    if (t >= window.from && t <= window.to) shown.push({ x: (t - window.from) * scale, mark });
  }
  return shown;
}
