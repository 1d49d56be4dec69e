// The timeline's words (pure): what hovering a bar or a gap says, exact times to the millisecond and whether each is
// exact or a bound. Every text from ZooKeeper goes through visibleText.
import type { AnomalyMark, WebviewStrings } from '../../shared/lockQueueMessages';
import { visibleText } from '../../shared/visibleText';
import type { TimelineData } from '../../shared/lockHistory';
import { fmt, formatDuration } from './format';

const END_KEYS = ['tl.open', 'end.acquired', 'end.released', 'end.sessionEnded', 'end.gaveUp', 'end.unknown'] as const;

const two = (n: number) => String(n).padStart(2, '0');

/** Local wall-clock time to the millisecond, with the date when it is not today's. */
export function clockTime(ms: number, today = new Date()): string {
  const d = new Date(ms);
  const time = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  return d.toDateString() === today.toDateString() ? time : `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${time}`;
}

/** `123 ms`, `4.250 s`, then the two largest units. */
export function preciseDuration(ms: number, s: WebviewStrings): string {
  if (ms < 1000) return fmt(s['unit.ms'], Math.max(0, Math.round(ms)));
  if (ms < 60_000) return fmt(s['unit.s'], (ms / 1000).toFixed(3));
  return formatDuration(ms, s);
}

/** Full path of a participant's node. */
export function nodePath(data: TimelineData, lane: number): string {
  const lock = data.locks[data.lanes[lane].lock];
  return `${lock === '/' ? '' : lock}/${data.lanes[lane].node}`;
}

/** The data lane (participant) an interval belongs to. */
export function dataLaneOf(data: TimelineData, interval: number): number {
  let lo = 0;
  let hi = data.lanes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (data.laneStart[mid] <= interval) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The hover text of an interval, one fact a line. */
export function intervalText(data: TimelineData, interval: number, s: WebviewStrings, now: number): string[] {
  const lane = data.lanes[dataLaneOf(data, interval)];
  const start = data.origin + data.start[interval];
  const open = data.end[interval] < 0;
  const end = open ? now : data.origin + data.end[interval];
  const startExact = (data.exact[interval] & 1) !== 0;
  const endExact = (data.exact[interval] & 2) !== 0;
  const lines = [
    `${data.kind[interval] === 1 ? s['tl.hold'] : s['tl.wait']} · ${nodePath(data, dataLaneOf(data, interval))}`,
    fmt(s['tl.span'], clockTime(start), open ? s['tl.open'] : clockTime(end), preciseDuration(end - start, s)),
    startExact && (open || endExact) ? s['tl.exact'] : [!startExact ? s['tl.startBound'] : '', !open && !endExact ? s['tl.endBound'] : ''].filter(Boolean).join(' · '),
  ];
  const who = [lane.session ? fmt(s.session, lane.session) : s.persistentNode, lane.clientAddress ? fmt(s.client, lane.clientAddress) : '', lane.label ?? ''].filter(Boolean);
  lines.push(who.join(' · '));
  if (!open) lines.push(fmt(s['tl.ended'], s[END_KEYS[data.ended[interval]] ?? 'end.unknown']));
  return lines.map(visibleText);
}

/** The hover text of a gap in what was seen. */
export function gapText(gap: TimelineData['gaps'][number], s: WebviewStrings, now: number): string {
  const to = gap.to ?? now;
  const span = fmt(s['tl.span'], clockTime(gap.from), gap.to === undefined ? s['tl.open'] : clockTime(to), preciseDuration(to - gap.from, s));
  return visibleText(gap.lock === undefined ? `${s['tl.gap']} ${span}` : `${fmt(s['tl.unseen'], gap.unseen ?? 0, gap.lock)} ${span}`);
}

/** The hover text of an anomaly mark. */
export function anomalyText(mark: AnomalyMark): string {
  return visibleText([mark.title, mark.lock ?? '', clockTime(mark.at)].filter(Boolean).join(' · '));
}
