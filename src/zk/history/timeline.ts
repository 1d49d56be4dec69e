// The history as a timeline will draw it: columns instead of objects (one array per field), so 100,000 intervals
// cross to a webview as a few flat JSON arrays and are drawn without building an object per bar. Intervals are
// ordered by lane, then start: a lane's bars are one contiguous run, searched by binary search for what is on
// screen. Times are ms after `origin`; an open interval ends at -1 (draw it to "now").
import type { LockHistory } from './history';
import { END_CODES, TIMELINE_VERSION, TimelineData, TimelineLane } from '../../shared/lockHistory';

export { END_CODES, TIMELINE_VERSION, type TimelineData, type TimelineLane } from '../../shared/lockHistory';

export function timelineData(history: LockHistory): TimelineData {
  const intervals = [...history.intervals()];
  let origin = history.startedAt ?? Infinity;
  for (const i of intervals) if (i.start < origin) origin = i.start;
  for (const g of history.gaps) if (g.from < origin) origin = g.from;
  for (const s of history.samples) if (s.at < origin) origin = s.at;
  if (!Number.isFinite(origin)) origin = 0;
  const lockIndex = new Map<string, number>();
  const laneIndex = new Map<string, number>();
  const lanes: TimelineLane[] = [];
  const lockOf = (lock: string) => {
    let index = lockIndex.get(lock);
    if (index === undefined) lockIndex.set(lock, (index = lockIndex.size));
    return index;
  };
  const laneOf = intervals.map((i) => {
    const key = `${i.lock}\0${i.node}`;
    let index = laneIndex.get(key);
    if (index === undefined) {
      laneIndex.set(key, (index = lanes.length));
      lanes.push({ lock: lockOf(i.lock), node: i.node, ...(i.session ? { session: i.session } : {}), ...(i.clientAddress ? { clientAddress: i.clientAddress } : {}), ...(i.label !== undefined ? { label: i.label } : {}) });
    }
    return index;
  });
  const order = intervals.map((_, k) => k).sort((a, b) => laneOf[a] - laneOf[b] || intervals[a].start - intervals[b].start);
  const data: TimelineData = {
    version: TIMELINE_VERSION, origin, ...(history.startedAt !== undefined ? { startedAt: history.startedAt } : {}), locks: [], lanes, laneStart: [], kind: [], start: [], end: [], exact: [], ended: [],
    gaps: history.gaps.map((g) => ({ ...g })), queue: [],
  };
  let lane = -1;
  order.forEach((k, position) => {
    const i = intervals[k];
    while (lane < laneOf[k]) { lane++; data.laneStart.push(position); }
    data.kind.push(i.kind === 'hold' ? 1 : 0);
    data.start.push(i.start - origin);
    data.end.push(i.end === undefined ? -1 : i.end - origin);
    data.exact.push((i.startExact ? 1 : 0) | (i.endExact ? 2 : 0));
    data.ended.push(END_CODES.indexOf(i.end === undefined ? 'open' : i.ended ?? 'unknown'));
  });
  while (data.laneStart.length <= lanes.length) data.laneStart.push(order.length);
  const byLock = new Map<number, { lock: number; at: number[]; length: number[] }>();
  for (const s of history.samples) {
    const lock = lockOf(s.lock);
    let series = byLock.get(lock);
    if (!series) byLock.set(lock, (series = { lock, at: [], length: [] }));
    series.at.push(s.at - origin);
    series.length.push(s.length);
  }
  data.queue = [...byLock.values()];
  data.locks = [...lockIndex.keys()];
  return data;
}
