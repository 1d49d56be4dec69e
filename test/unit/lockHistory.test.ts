import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { END_CODES, LockHistory, LockRecorder, lockFigures, timelineData } from '../../src/zk/history';
import { snapshot, T0 } from '../support/fixtures/lockHistoryFixtures';

/** A hand-over chain on /L: A found holding, B takes over, C takes over, C's session ends while B queues again. */
function handOvers(): LockRecorder {
  const recorder = new LockRecorder();
  recorder.observe(snapshot(100, { '/L': [{ name: 'a', session: '0xa', since: 0, holding: true, held: [0, false] }, { name: 'b', session: '0xb', since: 50 }] }));
  recorder.observe(snapshot(200, { '/L': [{ name: 'b', session: '0xb', since: 50, holding: true, held: [200, true] }, { name: 'c', session: '0xc', since: 150 }] }));
  // The servers' tables, asked for at 250 (after c's node was created), know c's session nowhere.
  recorder.observe(snapshot(300, { '/L': [{ name: 'c', session: '0xc', since: 150, holding: true, held: [300, true] }, { name: 'b2', session: '0xb', since: 290 }] }, ['0xc']), T0 + 300, T0 + 250);
  recorder.observe(snapshot(400, { '/L': [{ name: 'b2', session: '0xb', since: 290, holding: true, held: [400, true] }] }));
  return recorder;
}

const brief = (h: LockHistory) => h.closed.map((i) => `${i.kind} ${i.node} ${i.start - T0}${i.startExact ? '' : '~'}..${(i.end ?? 0) - T0}${i.endExact ? '' : '~'} ${i.ended}`);

describe('lock history: recorder', () => {
  test('waits and holds are cut where the monitor saw the queue move; a hold found at start is a bound', () => {
    const { history } = handOvers();
    assert.deepEqual(brief(history), [
      'wait b 50..200 acquired',
      'hold a 0~..200 unknown',
      'wait c 150..300 acquired',
      'hold b 200..300 released',
      'wait b2 290..400 acquired',
      'hold c 300..400 unknown',
    ]);
    assert.deepEqual([...history.open.values()].map((i) => `${i.kind} ${i.node} ${i.start - T0}`), ['hold b2 400']);
  });

  test('a gap is recorded, never filled: what changed meanwhile ends at the first look after it, as a bound', () => {
    const recorder = new LockRecorder();
    recorder.observe(snapshot(100, { '/L': [{ name: 'a', session: '0xa', since: 0, holding: true, held: [0, true] }, { name: 'b', session: '0xb', since: 50 }] }));
    recorder.gapStarted(T0 + 150);
    recorder.gapEnded(T0 + 350);
    recorder.observe(snapshot(360, { '/L': [{ name: 'b', session: '0xb', since: 50, holding: true, held: [360, false] }] }));
    assert.deepEqual(recorder.history.gaps, [{ from: T0 + 150, to: T0 + 350 }]);
    assert.deepEqual(brief(recorder.history), ['wait b 50..360~ acquired', 'hold a 0..360~ unknown']);
    const open = [...recorder.history.open.values()][0];
    assert.equal(open.startExact, false);
    assert.equal(lockFigures(recorder.history, undefined, T0 + 400)[0].bounds, true);
  });

  test('two holds of an exclusive lock never overlap: a hold proven to start before the read ends the one that left', () => {
    const recorder = new LockRecorder();
    recorder.observe(snapshot(0, { '/L': [{ name: 'a', session: '0xa', since: 0, holding: true }] }));
    // a released, then c was created (holding from creation) at 105, both before the read at 115.
    recorder.observe(snapshot(115, { '/L': [{ name: 'c', session: '0xc', since: 105, holding: true, held: [105, true] }] }));
    const a = recorder.history.closed.find((i) => i.node === 'a');
    const c = recorder.history.open.get('/L/c');
    assert.equal(a?.end, T0 + 105);
    assert.equal(c?.start, T0 + 105);
  });

  test('creates and deletes the folder counter shows beyond those seen are a gap on that lock, counted as unseen', () => {
    const recorder = new LockRecorder();
    recorder.observe(snapshot(0, { '/L': [{ name: 'a', session: '0xa', since: 0, holding: true }] }));
    recorder.noteCounters([{ path: '/L', cversion: 1 }], T0);
    recorder.observe(snapshot(100, { '/L': [{ name: 'b', session: '0xb', since: 90, holding: true }] }));
    recorder.noteCounters([{ path: '/L', cversion: 3 }], T0 + 100); // a deleted, b created: both seen
    assert.deepEqual(recorder.history.gaps, []);
    recorder.noteCounters([{ path: '/L', cversion: 5 }], T0 + 200); // a node came and went between two reads
    assert.deepEqual(recorder.history.gaps, [{ from: T0 + 100, to: T0 + 200, lock: '/L', unseen: 2 }]);
    const [figures] = lockFigures(recorder.history, undefined, T0 + 300);
    assert.equal(figures.unseenChanges, 2);
    assert.equal(figures.bounds, true);
  });

  test('readers and semaphore leases hold at once; a leader holds; the mutex rule does not cut shared holds', () => {
    const recorder = new LockRecorder();
    recorder.observe(snapshot(0, {}));
    recorder.observe(snapshot(10, {
      '/RW': [{ name: 'r1', session: '0x1', since: 5, holding: true, kind: 'read' }, { name: 'r2', session: '0x2', since: 8, holding: true, kind: 'read' }, { name: 'w', session: '0x3', since: 9, kind: 'write' }],
      '/SEM': [{ name: 'l1', session: '0x4', since: 1, holding: true, kind: 'lease' }, { name: 'l2', session: '0x5', since: 2, holding: true, kind: 'lease' }],
      '/ELECT': [{ name: 'c1', session: '0x6', since: 3, holding: true, kind: 'candidate', role: 'leader' }, { name: 'c2', session: '0x7', since: 4, kind: 'candidate' }],
    }));
    recorder.observe(snapshot(20, {
      '/RW': [{ name: 'r2', session: '0x2', since: 8, holding: true, kind: 'read' }, { name: 'w', session: '0x3', since: 9, kind: 'write' }],
      '/SEM': [{ name: 'l2', session: '0x5', since: 2, holding: true, kind: 'lease' }, { name: 'l3', session: '0x8', since: 15, holding: true, kind: 'lease', held: [15, true] }],
      '/ELECT': [{ name: 'c2', session: '0x7', since: 4, kind: 'candidate', role: 'leader', held: [20, true] }],
    }));
    const open = [...recorder.history.open.values()].map((i) => `${i.lock} ${i.kind} ${i.node} ${i.start - T0}`).sort();
    assert.deepEqual(open, ['/ELECT hold c2 20', '/RW hold r2 8', '/RW wait w 9', '/SEM hold l2 2', '/SEM hold l3 15'].sort());
    // l1 left after l3 took a lease: a lease is not exclusive, so l1's end is the read that saw it gone.
    assert.deepEqual(brief(recorder.history).sort(), ['hold c1 3..20 unknown', 'hold l1 1..20 unknown', 'hold r1 5..20 unknown', 'wait c2 4..20 acquired'].sort());
  });

  test('a node whose session the servers showed connected nowhere while it held is not called a session loss', () => {
    const recorder = new LockRecorder();
    recorder.observe(snapshot(0, {}));
    recorder.observe(snapshot(10, { '/L': [{ name: 'a', session: '0xa', since: 5, holding: true }, { name: 'b', session: '0xb', since: 6 }] }));
    // Tables asked for before a's node existed do not know its session yet: not a sign of anything.
    recorder.observe(snapshot(12, { '/L': [{ name: 'a', session: '0xa', since: 5, holding: true }, { name: 'b', session: '0xb', since: 6 }] }, ['0xa']), T0 + 12, T0 + 4);
    recorder.observe(snapshot(20, { '/L': [{ name: 'a', session: '0xa', since: 5, holding: true }, { name: 'b', session: '0xb', since: 6 }] }, ['0xa']), T0 + 20, T0 + 15);
    recorder.observe(snapshot(30, { '/L': [{ name: 'b', session: '0xb', since: 6, holding: true, held: [30, true] }] }));
    // A client cut off for a moment comes back and releases: the tables cannot tell that from an expiry.
    assert.deepEqual(brief(recorder.history), ['wait b 6..30 acquired', 'hold a 5..30 unknown']);
  });

  test('a session missing from tables older than its node is not taken for lost', () => {
    const recorder = new LockRecorder();
    recorder.observe(snapshot(0, {}));
    recorder.observe(snapshot(10, { '/L': [{ name: 'a', session: '0xa', since: 5, holding: true }] }, ['0xa']), T0 + 10, T0 + 2);
    recorder.observe(snapshot(30, { '/L': [] }));
    assert.deepEqual(brief(recorder.history), ['hold a 5..30 unknown']);
  });

  test('a history followed from an empty queue is exact', () => {
    const recorder = new LockRecorder();
    recorder.observe(snapshot(0, {}));
    recorder.observe(snapshot(10, { '/L': [{ name: 'a', session: '0xa', since: 5, holding: true, held: [5, true] }] }));
    recorder.observe(snapshot(20, { '/L': [] }));
    assert.deepEqual(brief(recorder.history), ['hold a 5..20 unknown']);
    assert.equal(lockFigures(recorder.history, undefined, T0 + 30)[0].bounds, false);
  });
});

describe('lock history: figures', () => {
  test('acquisitions, hold and wait spread, queue length and the longest holder of a lock', () => {
    const [figures] = lockFigures(handOvers().history, undefined, T0 + 500);
    assert.equal(figures.lock, '/L');
    assert.equal(figures.acquisitions, 4);
    assert.deepEqual(figures.holdMs, { count: 4, median: 100, p95: 200, max: 200 });
    assert.deepEqual(figures.waitMs, { count: 3, median: 150, p95: 150, max: 150 });
    assert.equal(figures.maxQueueLength, 2);
    assert.deepEqual(figures.queueLength.map(([at, n]) => [at - T0, n]), [[100, 2], [400, 1]]);
    assert.equal(figures.longestHold?.node, 'a');
    assert.equal(figures.longestHold?.exact, false);
    assert.equal(figures.sessionLosses, 0, 'a session end is not claimed from the tables');
    assert.equal(figures.bounds, true);
    // Four holds from the first known time (A's start) to the end of the window, 0.5 s.
    assert.equal(figures.acquisitionsPerSecond, 4 / 0.5);
    const b = figures.participants.find((p) => p.who === '0xb');
    assert.equal(b?.acquisitions, 2);
  });

  test('a window counts what overlaps it', () => {
    const [figures] = lockFigures(handOvers().history, { from: T0 + 250, to: T0 + 350 });
    assert.equal(figures.acquisitions, 2); // b's hold (200..300) and c's (300..400)
    assert.deepEqual(figures.participants.map((p) => p.who).sort(), ['0xb', '0xc']);
  });

  test('past the cap, old intervals are summarised and still counted; percentiles then say approximate', () => {
    const history = new LockHistory(10);
    for (let n = 0; n < 100; n++) {
      history.addClosed({ id: history.newId(), kind: 'hold', lock: '/L', node: `n${n}`, participant: 'exclusive', start: T0 + n * 1000, startExact: true, end: T0 + n * 1000 + 10 * (n + 1), endExact: true, ended: 'released' });
    }
    assert.ok(history.closed.length <= 10);
    const [figures] = lockFigures(history, undefined, T0 + 200_000);
    assert.equal(figures.acquisitions, 100);
    assert.equal(figures.approximate, true);
    assert.equal(figures.holdMs.max, 1000);
    const median = figures.holdMs.median ?? 0;
    assert.ok(Math.abs(median - 500) <= 500 * 0.03, `median ${median} within 2% of 500 (+ rank rounding)`);
  });
});

describe('lock history: timeline columns', () => {
  test('one run per lane in start order, times after the origin, open intervals at -1, JSON-safe', () => {
    const data = JSON.parse(JSON.stringify(timelineData(handOvers().history))) as ReturnType<typeof timelineData>;
    assert.equal(data.origin, T0);
    assert.deepEqual(data.locks, ['/L']);
    assert.deepEqual(data.lanes.map((l) => l.node), ['b', 'a', 'c', 'b2']);
    assert.equal(data.laneStart.length, data.lanes.length + 1);
    const bars = data.lanes.map((lane, n) => {
      const bars: string[] = [];
      for (let k = data.laneStart[n]; k < data.laneStart[n + 1]; k++) bars.push(`${data.kind[k] ? 'hold' : 'wait'} ${data.start[k]}..${data.end[k]} ${END_CODES[data.ended[k]]} ${data.exact[k]}`);
      return `${lane.node}: ${bars.join(', ')}`;
    });
    assert.deepEqual(bars, [
      'b: wait 50..200 acquired 3, hold 200..300 released 3',
      'a: hold 0..200 unknown 2',
      'c: wait 150..300 acquired 3, hold 300..400 unknown 3',
      'b2: wait 290..400 acquired 3, hold 400..-1 open 1',
    ]);
    assert.deepEqual(data.queue, [{ lock: 0, at: [100, 400], length: [2, 1] }]);
  });
});
