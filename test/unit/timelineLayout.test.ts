// The timeline's pure layout: what a frame draws for a window (only intervals on screen, only lanes on screen, bars
// merged within a pixel), lanes per participant or per session, gaps drawn as gaps, hand-overs, session-loss marks,
// what the pointer is over, and the hover text (exact or bound; names through the visible-text rules).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { timelineData } from '../../src/zk/history/timeline';
import { anomaliesInView, buildLanes, EARLIEST_TIME, frameOf, intervalAt, mergedUpright, MIN_LIVE_SPAN_MS, MIN_REPLAY_SPAN_MS, recordedWindow, zoomed } from '../../src/webview/lockQueue/timelineLayout';
import { LockHistory } from '../../src/zk/history/history';
import { anomalyText, gapText, intervalText } from '../../src/webview/lockQueue/timelineText';
import { chainHistory, T0 } from '../support/fixtures/timelineFixtures';
import { testStrings } from '../support/fixtures/webviewPage';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';

test('a frame draws only the intervals that overlap its window, on the lanes on screen', () => {
  const data = timelineData(chainHistory({ nodes: 1000, holdMs: 10 }));
  const lanes = buildLanes(data, false);
  assert.equal(lanes.lanes.length, 1000, 'a lane per node');
  // Holds 100…109 (ms 1000…1100) and the waits of the nodes queued then: nodes 100…112 are on screen.
  const frame = frameOf(data, lanes, { from: 1000, to: 1099 }, 1000, 0, 1000, 20_000);
  const drawn = frame.bars.map((b) => b.interval);
  assert.ok(drawn.length > 0);
  for (const i of drawn) {
    const end = data.end[i];
    assert.ok(data.start[i] <= 1099 && end >= 1000, `interval ${i} (${data.start[i]}…${end}) is outside the window`);
  }
  const expected = data.start.map((s, i) => (s <= 1099 && data.end[i] >= 1000 ? i : -1)).filter((i) => i >= 0);
  assert.deepEqual([...drawn].sort((a, b) => a - b), expected, 'every interval in the window is drawn, no other');
  // Only lanes 100…104 on screen: nothing of the others.
  const few = frameOf(data, lanes, { from: 0, to: 10_000 }, 1000, 100, 105, 20_000);
  assert.deepEqual([...new Set(few.bars.map((b) => b.lane))], [100, 101, 102, 103, 104]);
  for (const bar of few.bars) assert.ok(bar.x0 >= 0 && bar.x1 <= 1000 && bar.x0 <= bar.x1);
});

test('bars within a pixel already drawn are merged: a frame never draws more bars than its lanes have pixels', () => {
  // 20,000 holds of 1 ms of one fixed node (a plain lock node made again and again) on a 500-pixel plot.
  const data = timelineData(chainHistory({ nodes: 20_000, holdMs: 1, name: () => 'lock' }));
  const lanes = buildLanes(data, false);
  assert.equal(lanes.lanes.length, 1);
  const frame = frameOf(data, lanes, { from: 0, to: 20_000 }, 500, 0, 10, 40_000);
  assert.ok(frame.bars.length <= 2 * 501, `${frame.bars.length} bars`);
  assert.equal(frame.bars.length + frame.merged, data.start.length, 'every interval is drawn or merged into a drawn pixel');
  // Thin bars that touch join into one rectangle (at most 16 pixels long each): far fewer draws than pixels.
  assert.ok(frame.bars.length <= 2 * Math.ceil(500 / 16) + 4, `${frame.bars.length} bars for two runs of thin bars`);
  const close = frameOf(data, lanes, { from: 1000, to: 1050 }, 500, 0, 10, 40_000);
  // Zoomed in to 50 ms, each hold is a bar of its own again (overlapping waits cut at the edge may share a pixel).
  const holds = new Map(close.bars.filter((b) => data.kind[b.interval] === 1).map((b) => [b.interval, b]));
  const inside = data.start.map((start, i) => (data.kind[i] === 1 && start >= 1000 && data.end[i] <= 1050 ? i : -1)).filter((i) => i >= 0);
  assert.equal(inside.length, 50);
  for (const i of inside) assert.ok(holds.has(i) && holds.get(i)!.x1 - holds.get(i)!.x0 >= 9.9, `hold ${i} is a bar 10 pixels wide`);
});

test('zoomed out, the hand-overs of one pixel column are drawn as the union of their lane spans', () => {
  // 5,000 holds handed from session to session (20 lanes) over 50 s on a 500-pixel plot: 10 hand-overs a column.
  const data = timelineData(chainHistory({ nodes: 5000, sessions: 20, holdMs: 10 }));
  const lanes = buildLanes(data, true);
  const frame = frameOf(data, lanes, { from: 0, to: 50_000 }, 500, 0, 20, 60_000);
  assert.ok(frame.handOvers.length <= 2 * 501, `${frame.handOvers.length} strokes for ${lanes.handOvers.length / 2} hand-overs`);
  // Every hand-over's span is inside a stroke of its column.
  for (let p = 0; p < lanes.handOvers.length / 2; p++) {
    const [from, to] = [lanes.handOvers[2 * p], lanes.handOvers[2 * p + 1]];
    const column = Math.floor(data.end[from] / 100);
    const [lo, hi] = [Math.min(lanes.laneOf[from], lanes.laneOf[to]), Math.max(lanes.laneOf[from], lanes.laneOf[to])];
    assert.ok(frame.handOvers.some((h) => Math.floor(h.x0) === column && h.fromLane <= lo && h.toLane >= hi), `hand-over ${p} (column ${column}, lanes ${lo}…${hi})`);
  }
  // Spans that do not touch stay apart (no stroke across lanes nobody handed over between); slanted ones stay as drawn.
  const strokes = mergedUpright([
    { x0: 10.2, x1: 10.4, fromLane: 0, toLane: 1 }, { x0: 10.9, x1: 10.9, fromLane: 2, toLane: 1 },
    { x0: 10.5, x1: 10.5, fromLane: 5, toLane: 6 }, { x0: 11, x1: 40, fromLane: 3, toLane: 4 },
  ]);
  assert.deepEqual(strokes, [
    { x0: 11, x1: 40, fromLane: 3, toLane: 4 },
    { x0: 10.2, x1: 10.2, fromLane: 0, toLane: 2 }, { x0: 10.2, x1: 10.2, fromLane: 5, toLane: 6 },
  ]);
});

test('per session, the nodes of one session share a lane; nodes without a session keep their own', () => {
  const history = chainHistory({ nodes: 6, sessions: 2 });
  for (const orphan of history.closed.filter((i) => i.node === 'lock-0000000005')) delete orphan.session;
  const data = timelineData(history);
  assert.equal(buildLanes(data, false).lanes.length, 6);
  const perSession = buildLanes(data, true);
  assert.deepEqual(perSession.lanes.map((l) => l.name), ['0x1000', '0x1001', 'lock-0000000005']);
  for (const lane of perSession.lanes) {
    const starts = [...lane.items].map((i) => data.start[i]);
    assert.deepEqual(starts, [...starts].sort((a, b) => a - b), 'a lane\'s intervals are in start order');
  }
});

test('gaps are drawn as gaps (over all lanes, or one lock\'s) and only within the window', () => {
  const history = chainHistory({ nodes: 20, locks: 2, holdMs: 100 });
  history.gaps.push({ from: T0 + 500, to: T0 + 800 });
  history.gaps.push({ from: T0 + 1200, to: T0 + 1300, lock: '/locks/l1', unseen: 2 });
  history.gaps.push({ from: T0 + 1900 });
  const data = timelineData(history);
  const lanes = buildLanes(data, false);
  const frame = frameOf(data, lanes, { from: 0, to: 1000 }, 1000, 0, 100, 2000);
  assert.deepEqual(frame.gaps, [{ x0: 500, x1: 800 }]);
  const later = frameOf(data, lanes, { from: 1000, to: 2000 }, 1000, 0, 100, 2000);
  assert.deepEqual(later.gaps, [{ x0: 200, x1: 300, lock: 1 }, { x0: 900, x1: 1000 }], 'a lock\'s gap names its lock; an open gap runs to now');
  const s = testStrings();
  assert.match(gapText(history.gaps[1], s, T0 + 2000), /^tl\.unseen /);
});

test('hand-overs link each hold\'s end to the next hold of its lock; session losses are marks', () => {
  const history = chainHistory({ nodes: 4, holdMs: 100 });
  const lost = history.closed.find((i) => i.node === 'lock-0000000002' && i.kind === 'hold')!;
  lost.ended = 'sessionEnded';
  const data = timelineData(history);
  const lanes = buildLanes(data, false);
  const frame = frameOf(data, lanes, { from: 0, to: 400 }, 400, 0, 10, 400);
  assert.deepEqual(frame.handOvers.map((h) => [h.fromLane, h.toLane, h.x0, h.x1]), [[0, 1, 100, 100], [1, 2, 200, 200], [2, 3, 300, 300]]);
  assert.deepEqual(frame.marks.map((m) => [m.lane, m.x]), [[2, 300]]);
  // Off screen in time, none.
  assert.equal(frameOf(data, lanes, { from: 1000, to: 2000 }, 400, 0, 10, 2000).handOvers.length, 0);
});

test('an open interval runs to now; the pointer finds the interval under it', () => {
  const data = timelineData(chainHistory({ nodes: 3, holdMs: 100, lastOpen: true }));
  const lanes = buildLanes(data, false);
  const open = data.end.findIndex((e) => e < 0);
  const frame = frameOf(data, lanes, { from: 0, to: 1000 }, 1000, 0, 10, 700);
  const bar = frame.bars.find((b) => b.interval === open)!;
  assert.equal(bar.x1, 700);
  assert.equal(intervalAt(data, lanes.lanes[2], 650, 1, 700), open);
  assert.equal(intervalAt(data, lanes.lanes[2], 750, 1, 700), undefined, 'past now, nothing');
  assert.equal(intervalAt(data, lanes.lanes[0], 50, 1, 700), data.start.findIndex((s, i) => s === 0 && data.kind[i] === 1));
});

test('hover text: exact times to the millisecond, bounds said as bounds, names through the visible-text rules', () => {
  const history = chainHistory({ nodes: 2, holdMs: 1234, name: (_, k) => (k === 0 ? HOSTILE_NAMES.rtlOverride : HOSTILE_NAMES.markup) });
  const data = timelineData(history);
  const s = testStrings();
  const first = data.kind.findIndex((k, i) => k === 1 && data.start[i] === 0);
  const text = intervalText(data, first, s, T0 + 5000);
  assert.match(text[0], /^tl\.hold · \/locks\/l0\/invoice-\[U\+202E\]gnp\.exe$/);
  assert.match(text[1], /\d\d:\d\d:\d\d\.000/);
  assert.match(text[1], /1\.234/);
  assert.equal(text[2], 'tl.startBound', 'the first hold was found already held');
  for (const line of text) assert.doesNotMatch(line, RAW_HIDDEN);
  const second = data.kind.findIndex((k, i) => k === 1 && data.start[i] === 1234);
  assert.equal(intervalText(data, second, s, T0 + 5000)[2], 'tl.exact');
  assert.match(intervalText(data, second, s, T0 + 5000)[0], /<img src=x/, 'markup stays text (drawn on a canvas or set as textContent)');
});

test('zoom keeps the time under the pointer where it is', () => {
  const window = zoomed({ from: 0, to: 1000 }, 0.5, 0.25);
  assert.deepEqual(window, { from: 125, to: 625 });
});

test('anomalies are marks where they appeared, only those in the window; their text through the visible-text rules', () => {
  const marks = [
    { at: T0 + 100, lock: '/locks/l0', severity: 'warning' as const, title: 'Held too long' },
    { at: T0 + 900, severity: 'error' as const, title: `Deadlock ${HOSTILE_NAMES.rtlOverride}` },
    { at: T0 + 5000, severity: 'info' as const, title: 'later' },
  ];
  const shown = anomaliesInView(marks, T0, { from: 0, to: 1000 }, 500);
  assert.deepEqual(shown.map((m) => [m.x, m.mark.title.slice(0, 8)]), [[50, 'Held too'], [450, 'Deadlock']]);
  assert.match(anomalyText(marks[0]), /^Held too long · \/locks\/l0 · /);
  assert.match(anomalyText(marks[1]), /\[U\+202E\]/);
  assert.doesNotMatch(anomalyText(marks[1]), RAW_HIDDEN);
});

test('the first view is the recorded window: from when recording began, at least 30 s live, never from time 0', () => {
  // Live, nothing recorded yet (the panel's first timeline): the window starts where recording began.
  const empty = new LockHistory();
  empty.startedAt = T0;
  const young = timelineData(empty);
  assert.equal(young.origin, T0, 'the origin of an empty history is where it began, not 1970');
  assert.equal(young.startedAt, T0);
  assert.deepEqual(recordedWindow(young, 5_000, true), { from: 0, to: MIN_LIVE_SPAN_MS }, 'a young recording fills the minimum span from the left');
  // A minute and a half of hand-overs: all of it, with a small margin after now.
  const history = chainHistory({ nodes: 90, holdMs: 1000, lastOpen: true });
  history.startedAt = T0;
  assert.deepEqual(recordedWindow(timelineData(history), 90_000, true), { from: 0, to: 90_000 * 1.02 });
  // A waiter found already queued since an hour before: its bar starts before the view, the view where recording began.
  const found = chainHistory({ nodes: 3, holdMs: 1000 });
  found.startedAt = T0;
  found.addClosed({ id: found.newId(), kind: 'wait', lock: '/locks/l1', node: 'lock-0000000001', participant: 'exclusive', start: T0 - 3_600_000, startExact: true, end: T0 + 2000, endExact: true, ended: 'gaveUp' });
  const foundData = timelineData(found);
  assert.equal(foundData.origin, T0 - 3_600_000);
  assert.equal(recordedWindow(foundData, 3_600_000 + 40_000, true).from + foundData.origin, T0);
});

test('no time 0 or otherwise absurd defines the view: a ctime of 0, a start of 0 in a file, a history that never began', () => {
  // A bar from a Stat's ctime of 0 (and no known start): the view begins at the earliest plausible time.
  const zero = chainHistory({ nodes: 3, holdMs: 1000 });
  zero.addClosed({ id: zero.newId(), kind: 'wait', lock: '/locks/l0', node: 'root', participant: 'exclusive', start: 0, startExact: true, end: T0 + 10, endExact: true, ended: 'acquired' });
  const zeroData = timelineData(zero);
  assert.equal(zeroData.origin, 0);
  const live = recordedWindow(zeroData, T0 + 3000, true);
  assert.equal(live.from, T0);
  assert.equal(live.to - live.from, MIN_LIVE_SPAN_MS);
  // A recording whose header says it began at 0: the same (replay: its end is the recording's last record).
  zero.startedAt = 0;
  assert.deepEqual(recordedWindow(timelineData(zero), T0 + 3000, false), { from: T0, to: T0 + 3000 * 1.02 });
  // A start after the recording's end is no start either.
  zero.startedAt = T0 + 10_000;
  assert.equal(recordedWindow(timelineData(zero), T0 + 3000, false).from, T0);
  assert.ok(EARLIEST_TIME > 0 && EARLIEST_TIME < T0);
  // Nothing recorded and no start known (the data's origin is 0): the last minimum span before now.
  const never = timelineData(new LockHistory());
  const unknown = recordedWindow(never, T0, true);
  assert.equal(unknown.from, T0 - MIN_LIVE_SPAN_MS);
  assert.ok(unknown.to >= T0 && unknown.to - unknown.from < MIN_LIVE_SPAN_MS * 1.05, JSON.stringify(unknown));
  // A replay of 200 ms is shown whole (its minimum span is a second, not the live 30 s).
  const short = chainHistory({ nodes: 2, holdMs: 100 });
  short.startedAt = T0;
  assert.deepEqual(recordedWindow(timelineData(short), 200, false), { from: 0, to: MIN_REPLAY_SPAN_MS });
});
