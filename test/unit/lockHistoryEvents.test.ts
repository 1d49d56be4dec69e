// The recorder fed the server's notifications (synthetic here; the integration tests use a real server): members
// change as told, holders follow from the names under the recipe's rules, and reads only add what they know.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { RecipeId } from '../../src/zk/analysis';
import { HistoryInterval, LockHistory, LockRecorder } from '../../src/zk/history';
import type { NodeDetails } from '../../src/zk/history/members';
import { snapshot, T0 } from '../support/fixtures/lockHistoryFixtures';

/** A kazoo lock node name: `c` repeated as its guid, then the sequence. */
const k = (c: string, sequence: number, marker = '__lock__') => `${c.repeat(32)}${marker}${String(sequence).padStart(10, '0')}`;

const brief = (h: LockHistory) => h.closed.map((i) => `${i.kind} ${i.node.slice(0, 1)}${i.node.slice(-1)} ${i.start - T0}${i.startExact ? '' : '~'}..${(i.end ?? 0) - T0}${i.endExact ? '' : '~'} ${i.ended}`);
const openBrief = (h: LockHistory) => [...h.open.values()].map((i) => `${i.kind} ${i.node.slice(0, 1)}${i.node.slice(-1)} ${i.start - T0}${i.startExact ? '' : '~'}`);

/** A recorder following the events from T0, with an empty root read after the watch was set. */
function following(): LockRecorder {
  const recorder = new LockRecorder();
  recorder.observe(snapshot(0, {}));
  recorder.followEvents(T0);
  recorder.resync(snapshot(1, {}), T0);
  return recorder;
}

describe('lock history: followed from the events', () => {
  test('holds shorter than any read are recorded, in the order told, with no read at all', () => {
    const recorder = following();
    const created = (name: string, at: number) => recorder.nodeCreated(`/L/${name}`, T0 + at);
    const deleted = (name: string, at: number) => recorder.nodeDeleted(`/L/${name}`, T0 + at);
    created(k('a', 1), 10);
    created(k('b', 2), 11);
    deleted(k('a', 1), 12);
    deleted(k('b', 2), 13);
    created(k('a', 3), 14);
    deleted(k('a', 3), 14);
    assert.deepEqual(brief(recorder.history), [
      'hold a1 10..12 unknown',
      'wait b2 11..12 acquired',
      'hold b2 12..13 unknown',
      'hold a3 14..14 unknown',
    ]);
    assert.equal(recorder.history.open.size, 0);
    assert.deepEqual(recorder.history.gaps, []);
    // No read told a session: none is invented.
    assert.ok(recorder.history.closed.every((i) => i.session === undefined));
    assert.deepEqual(recorder.history.samples.map((s) => [s.at - T0, s.length]), [[10, 1], [11, 2], [12, 1], [13, 0], [14, 1], [14, 0]]);
  });

  test('a clock that steps back does not reorder what was told', () => {
    const recorder = following();
    recorder.nodeCreated(`/L/${k('a', 1)}`, T0 + 20);
    recorder.nodeCreated(`/L/${k('b', 2)}`, T0 + 21);
    recorder.nodeDeleted(`/L/${k('a', 1)}`, T0 + 15);
    assert.deepEqual(brief(recorder.history), ['hold a1 20..21 unknown', 'wait b2 21..21 acquired']);
    assert.deepEqual(openBrief(recorder.history), ['hold b2 21']);
  });

  test('readers share, a writer waits for the readers before it (kazoo read/write lock, from the names)', () => {
    const recorder = following();
    recorder.nodeCreated(`/RW/${k('d', 1, '__rlock__')}`, T0 + 10);
    recorder.nodeCreated(`/RW/${k('e', 2, '__rlock__')}`, T0 + 11);
    recorder.nodeCreated(`/RW/${k('f', 3)}`, T0 + 12);
    recorder.nodeDeleted(`/RW/${k('d', 1, '__rlock__')}`, T0 + 13);
    assert.deepEqual(openBrief(recorder.history).sort(), ['hold e2 11', 'wait f3 12']);
    recorder.nodeDeleted(`/RW/${k('e', 2, '__rlock__')}`, T0 + 14);
    assert.deepEqual(openBrief(recorder.history), ['hold f3 14']);
    assert.deepEqual(brief(recorder.history), ['hold d1 10..13 unknown', 'hold e2 11..14 unknown', 'wait f3 12..14 acquired']);
  });

  test('a read attaches session, client and label to what was told, also to an interval ended since; a deleted node is not brought back', () => {
    const recorder = following();
    const a = k('a', 1);
    const b = k('b', 2);
    recorder.nodeCreated(`/L/${a}`, T0 + 10);
    recorder.nodeCreated(`/L/${b}`, T0 + 11);
    recorder.nodeDeleted(`/L/${a}`, T0 + 12);
    // A read taken before the delete: it still lists a, as holder, and b waiting.
    recorder.observe(snapshot(13, { '/L': [{ name: a, session: '0xa', since: 10, holding: true, client: '10.0.0.1:5' }, { name: b, session: '0xb', since: 11 }] }));
    assert.deepEqual(brief(recorder.history), ['hold a1 10..12 unknown', 'wait b2 11..12 acquired']);
    assert.deepEqual(openBrief(recorder.history), ['hold b2 12']);
    const [holdA, waitB] = recorder.history.closed;
    assert.equal(holdA.session, '0xa');
    assert.equal(holdA.clientAddress, '10.0.0.1:5');
    assert.equal(waitB.session, '0xb');
    assert.equal([...recorder.history.open.values()][0].session, '0xb');
    // b's session owns a node again later: a's end stays unknown (another session), nothing else is guessed.
    recorder.observe(snapshot(20, { '/L': [{ name: b, session: '0xb', since: 11, holding: true }] }));
    assert.equal(recorder.history.closed.length, 2);
  });

  test('nodes there before the watch come from the full read after it; one gone untold ends by the first change told (a bound); then events are exact', () => {
    const recorder = new LockRecorder();
    const [a, b, c] = [k('a', 1), k('b', 2), k('c', 3)];
    recorder.observe(snapshot(0, { '/L': [{ name: a, session: '0xa', since: 0, holding: true }, { name: b, session: '0xb', since: 1 }] }));
    recorder.followEvents(T0 + 5);
    assert.deepEqual(recorder.followingEvents, { following: true, synced: false });
    recorder.nodeCreated(`/L/${c}`, T0 + 6);
    // The full read after the watch: a went before the watch was set (no event told it).
    const full = snapshot(10, { '/L': [{ name: b, session: '0xb', since: 1, holding: true, held: [8, false] }, { name: c, session: '0xc', since: 6 }] });
    recorder.observe(full);
    recorder.resync(full, T0 + 7);
    assert.deepEqual(recorder.followingEvents, { following: true, synced: true });
    // a went, and b took over, before the first change told (c's create at 6): both by then, as bounds (the read's
    // "held since 8" is later than the members at 6 show b holding).
    assert.deepEqual(brief(recorder.history), ['hold a1 0..6~ unknown', 'wait b2 1..6~ acquired']);
    assert.deepEqual(openBrief(recorder.history).sort(), ['hold b2 6~', 'wait c3 6']);
    recorder.nodeDeleted(`/L/${b}`, T0 + 20);
    assert.deepEqual(brief(recorder.history).slice(2), ['hold b2 6~..20 unknown', 'wait c3 6..20 acquired']);
    assert.deepEqual(openBrief(recorder.history), ['hold c3 20']);
  });

  test('after a gap, members the full read no longer lists end as bounds, by when the read was asked; those told since stay', () => {
    const recorder = following();
    const [a, b, c] = [k('a', 1), k('b', 2), k('c', 3)];
    recorder.nodeCreated(`/L/${a}`, T0 + 10);
    recorder.nodeCreated(`/L/${b}`, T0 + 11);
    recorder.gapStarted(T0 + 20);
    recorder.gapEnded(T0 + 30);
    // Told after the full read was asked for (at 32), which may have been answered before it: c stays.
    recorder.nodeCreated(`/L/${c}`, T0 + 33);
    const full = snapshot(40, { '/L': [{ name: b, session: '0xb', since: 11, holding: true, held: [35, false] }] });
    recorder.observe(full);
    recorder.resync(full, T0 + 32);
    assert.deepEqual(recorder.history.gaps, [{ from: T0 + 20, to: T0 + 30 }]);
    assert.deepEqual(brief(recorder.history), ['hold a1 10..32~ unknown', 'wait b2 11..32~ acquired']);
    assert.deepEqual(openBrief(recorder.history).sort(), ['hold b2 32~', 'wait c3 33']);
  });

  // Issue 33: the last read before the watch showed a holding and b waiting; before the watch was set, a went, b
  // took over and c queued behind it, untold. Then d queued, b released and c released, all told before the full
  // read after the watch came in.
  function startedLate(): { recorder: LockRecorder; names: string[] } {
    const recorder = new LockRecorder();
    const names = [k('a', 1), k('b', 2), k('c', 3), k('d', 4)];
    const [a, b, c, d] = names;
    recorder.observe(snapshot(0, { '/L': [{ name: a, session: '0xa', since: 0, holding: true }, { name: b, session: '0xb', since: 1 }] }));
    recorder.followEvents(T0 + 5);
    recorder.nodeCreated(`/L/${d}`, T0 + 6);
    recorder.nodeDeleted(`/L/${b}`, T0 + 7);
    assert.deepEqual(openBrief(recorder.history).sort(), ['hold a1 0', 'wait b2 1'], 'no one judged a holder from events alone');
    recorder.nodeDeleted(`/L/${c}`, T0 + 8);
    assert.equal(recorder.history.closed.length, 0, 'no wait closed from events alone');
    // A read the monitor made before the watch, arriving now, changes nothing either.
    recorder.observe(snapshot(9, { '/L': [{ name: b, session: '0xb', since: 1, holding: true }, { name: c, session: '0xc', since: 3 }] }));
    assert.equal(recorder.history.closed.length, 0);
    const full = snapshot(10, { '/L': [{ name: d, session: '0xd', since: 6, holding: true, held: [8, false] }] });
    recorder.observe(full);
    recorder.resync(full, T0 + 5);
    return { recorder, names };
  }

  test('started while the queue moved: waiters there before the watch are not taken for holders, nor their holds lost', () => {
    const { recorder } = startedLate();
    assert.deepEqual(brief(recorder.history), [
      'hold a1 0..5~ unknown', // went before the watch: by then, a bound
      'wait b2 1..5~ acquired', // took over before the watch: a bound
      'hold b2 5~..7 unknown',
      'wait c3 5~..7 acquired', // queued before the watch (no read saw it), then acquired when b's release was told
      'hold c3 7..8 unknown', // c's hold, exact: not a wait that ended
      'wait d4 6..8 acquired',
    ]);
    assert.deepEqual(openBrief(recorder.history), ['hold d4 8']);
    const holds = holdsOf(recorder.history).map((h) => h.node.slice(-1));
    assert.deepEqual(holds, ['1', '2', '3', '4'], 'each hold once');
    assert.ok(!recorder.history.closed.some((i) => i.kind === 'wait' && i.ended !== 'acquired'), 'no wait ended other than by acquiring');
  });

  test('after a reconnect, what is told before the full read is held for it too', () => {
    const recorder = following();
    const [a, b, c, d] = [k('a', 1), k('b', 2), k('c', 3), k('d', 4)];
    recorder.nodeCreated(`/L/${a}`, T0 + 10);
    recorder.nodeCreated(`/L/${b}`, T0 + 11);
    recorder.gapStarted(T0 + 20);
    recorder.gapEnded(T0 + 30);
    // In the gap: a went, b took over, c queued. After it, told: d queued, b and c released.
    recorder.nodeCreated(`/L/${d}`, T0 + 31);
    recorder.nodeDeleted(`/L/${b}`, T0 + 32);
    recorder.nodeDeleted(`/L/${c}`, T0 + 33);
    assert.deepEqual(openBrief(recorder.history).sort(), ['hold a1 10', 'wait b2 11'], 'no one judged a holder from events alone');
    const full = snapshot(40, { '/L': [{ name: d, session: '0xd', since: 31, holding: true }] });
    // A full read asked before the gap ended cannot sync.
    recorder.resync(full, T0 + 25);
    assert.deepEqual(recorder.followingEvents, { following: true, synced: false });
    recorder.observe(full);
    recorder.resync(full, T0 + 30);
    assert.deepEqual(brief(recorder.history), [
      'hold a1 10..30~ unknown',
      'wait b2 11..30~ acquired',
      'hold b2 30~..32 unknown',
      'wait c3 30~..32 acquired',
      'hold c3 32..33 unknown',
      'wait d4 31..33 acquired',
    ]);
    assert.deepEqual(openBrief(recorder.history), ['hold d4 33']);
  });
});

/** A node reader whose answers the test gives, one at a time, in the order asked. */
function heldReads() {
  const asked: { path: string; answer: (details?: NodeDetails) => void }[] = [];
  const reader = (path: string) => new Promise<NodeDetails | undefined>((resolve) => asked.push({ path, answer: resolve }));
  /** Answers every read asked so far from `owners` (path → owner; absent: the node was gone). */
  const answerAll = async (owners: Record<string, bigint>) => {
    for (const { path, answer } of asked.splice(0)) answer(path in owners ? { owner: owners[path], data: Buffer.from(path.slice(-1)) } : undefined);
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { reader, asked, answerAll };
}

/** A recorder following the events from T0 with `reader`, shown one empty queue of `recipe` at `path` first. */
function followingQueue(path: string, recipe: RecipeId, reader: (path: string) => Promise<NodeDetails | undefined>): LockRecorder {
  const recorder = new LockRecorder();
  const empty = snapshot(0, { [path]: [] });
  empty.queues[0].recipe = recipe;
  recorder.observe(empty);
  recorder.followEvents(T0, reader);
  recorder.resync({ ...empty, takenAt: T0 + 1 }, T0);
  return recorder;
}

const holdsOf = (h: LockHistory) => [...h.intervals()].filter((i) => i.kind === 'hold').sort((x, y) => x.start - y.start || x.id - y.id);

/** The most holds open at once, from the holds' starts and ends (an end at a start hands over). */
function mostAtOnce(holds: HistoryInterval[]): number {
  const edges = holds.flatMap((h) => [[h.start, 1], [h.end ?? Infinity, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, step] of edges) most = Math.max(most, (now += step));
  return most;
}

describe('lock history: semaphores and fixed leader nodes followed from the events', () => {
  const curatorLock = (n: number) => `/S/locks/_c_${'0'.repeat(8)}-0000-4000-8000-${String(n).padStart(12, '0')}-lock-${String(n).padStart(10, '0')}`;
  const curatorLease = (n: number) => `/S/leases/_c_${'0'.repeat(8)}-0000-4000-8000-${String(n).padStart(12, '0')}-lease-${String(n).padStart(10, '0')}`;

  test('a Curator semaphore of one lease hands over with no hold time: each lease held once, from its lock release, never two at once', async () => {
    const reads = heldReads();
    const recorder = followingQueue('/S', 'curator-semaphore', reads.reader);
    // A takes the internal lock, makes its lease, releases the lock (it holds from there), then returns the lease
    // at once while B, behind it, does the same.
    const created = (path: string, at: number) => recorder.nodeCreated(path, T0 + at);
    const deleted = (path: string, at: number) => recorder.nodeDeleted(path, T0 + at);
    const owners: Record<string, bigint> = { [curatorLock(1)]: 0xan, [curatorLease(1)]: 0xan, [curatorLock(2)]: 0xbn, [curatorLease(2)]: 0xbn };
    created(curatorLock(1), 10);
    created(curatorLease(1), 11);
    deleted(curatorLock(1), 12);
    created(curatorLock(2), 13);
    created(curatorLease(2), 14);
    deleted(curatorLease(1), 15);
    deleted(curatorLock(2), 16);
    deleted(curatorLease(2), 17);
    assert.deepEqual(brief(recorder.history), [], 'nothing applied before the first read is back');
    await reads.answerAll(owners);
    const holds = holdsOf(recorder.history);
    assert.deepEqual(holds.map((h) => `${h.node.slice(-1)} ${h.start - T0}..${(h.end ?? 0) - T0} ${h.session}`), ['1 12..15 0xa', '2 16..17 0xb']);
    assert.ok(holds.every((h) => h.startExact && h.endExact));
    assert.equal(mostAtOnce(holds), 1);
    assert.equal(recorder.history.open.size, 0);
  });

  test('a node gone before its read is still recorded, from its create to its delete; its owner is its lock holder\'s', async () => {
    const reads = heldReads();
    const recorder = followingQueue('/S', 'curator-semaphore', reads.reader);
    recorder.nodeCreated(curatorLock(1), T0 + 10);
    recorder.nodeCreated(curatorLease(1), T0 + 11);
    recorder.nodeDeleted(curatorLock(1), T0 + 12);
    recorder.nodeDeleted(curatorLease(1), T0 + 13);
    // Only the lock node was still there when read.
    await reads.answerAll({ [curatorLock(1)]: 0xan });
    assert.deepEqual(holdsOf(recorder.history).map((h) => `${h.node.slice(-1)} ${h.start - T0}..${(h.end ?? 0) - T0} ${h.session}`), ['1 12..13 0xa']);
  });

  test('a kazoo semaphore: a lease holds from its create; its maker stops waiting in the internal lock', async () => {
    const reads = heldReads();
    const recorder = followingQueue('/K', 'kazoo-semaphore', reads.reader);
    const lock = (c: string, n: number) => `/K-__lock__/${k(c, n)}`;
    const lease = (c: string) => `/K/${c.repeat(32)}`;
    recorder.nodeCreated(lock('a', 1), T0 + 10);
    recorder.nodeCreated(lease('e'), T0 + 11);
    recorder.nodeDeleted(lock('a', 1), T0 + 12);
    recorder.nodeCreated(lock('b', 2), T0 + 13);
    recorder.nodeDeleted(lease('e'), T0 + 14);
    recorder.nodeCreated(lease('f'), T0 + 15);
    recorder.nodeDeleted(lock('b', 2), T0 + 16);
    await reads.answerAll({ [lock('a', 1)]: 0xan, [lease('e')]: 0xan, [lock('b', 2)]: 0xbn });
    assert.deepEqual(holdsOf(recorder.history).map((h) => `${h.node.slice(0, 1)} ${h.start - T0}..${h.end === undefined ? 'open' : h.end - T0} ${h.session}`), ['e 11..14 0xa', 'f 15..open 0xb']);
    assert.deepEqual(brief(recorder.history).filter((b) => b.startsWith('wait')), ['wait a1 10..11 unknown', 'wait b2 13..15 unknown']);
    // Emptied, it goes from the reads (nothing names it a semaphore): still followed, its next lease is told.
    recorder.nodeDeleted(lease('f'), T0 + 17);
    recorder.observe(snapshot(18, {}));
    recorder.nodeCreated(lease('g'), T0 + 19);
    recorder.nodeDeleted(lease('g'), T0 + 20);
    await reads.answerAll({});
    assert.deepEqual(holdsOf(recorder.history).map((h) => `${h.node.slice(0, 1)} ${h.start - T0}..${(h.end ?? 0) - T0}`), ['e 11..14', 'f 15..17', 'g 19..20']);
  });

  test('a kazoo lease whose uuid ends in ten digits is not taken for the first node of a new lock queue', () => {
    const recorder = following();
    recorder.nodeCreated(`/K/${'c'.repeat(22)}0123456789`, T0 + 10);
    recorder.nodeDeleted(`/K/${'c'.repeat(22)}0123456789`, T0 + 11);
    assert.deepEqual(brief(recorder.history), []);
    assert.equal(recorder.history.open.size, 0);
  });

  test('a fixed leader node: each create is a hold by its owner until its delete, also after a read no longer shows it', async () => {
    const reads = heldReads();
    const recorder = followingQueue('/app/leader', 'fixed-leader', reads.reader);
    for (let n = 0; n < 3; n++) {
      recorder.nodeCreated('/app/leader', T0 + 10 + n * 10);
      recorder.nodeDeleted('/app/leader', T0 + 15 + n * 10);
      // Between holds the monitor no longer finds the node, nor its queue.
      recorder.observe(snapshot(16 + n * 10, {}));
      await reads.answerAll({ '/app/leader': BigInt(n + 1) });
    }
    assert.deepEqual(holdsOf(recorder.history).map((h) => `${h.start - T0}..${(h.end ?? 0) - T0} ${h.session} ${h.label}`), ['10..15 0x1 r', '20..25 0x2 r', '30..35 0x3 r']);
  });
});
