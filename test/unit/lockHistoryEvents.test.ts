// The recorder fed the server's notifications (synthetic here; the integration tests use a real server): members
// change as told, holders follow from the names under the recipe's rules, and reads only add what they know.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LockHistory, LockRecorder } from '../../src/zk/history';
import { snapshot, T0 } from './lockHistoryFixtures';

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

  test('nodes there before the watch come from the full read after it; one gone untold ends at that read (as read-driven); then events are exact', () => {
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
    // Seen gone between two reads with no gap, as on the read-driven path: it ended by this read, and no later than
    // b's hold began (at 8 as the read says, a bound: the folder's counters do not prove it).
    assert.deepEqual(brief(recorder.history), ['wait b2 1..8~ acquired', 'hold a1 0..8 unknown']);
    assert.deepEqual(openBrief(recorder.history).sort(), ['hold b2 8~', 'wait c3 6']);
    recorder.nodeDeleted(`/L/${b}`, T0 + 20);
    assert.deepEqual(brief(recorder.history).slice(2), ['hold b2 8~..20 unknown', 'wait c3 6..20 acquired']);
    assert.deepEqual(openBrief(recorder.history), ['hold c3 20']);
  });

  test('after a gap, members the full read no longer lists end as bounds; those told since stay', () => {
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
    assert.deepEqual(brief(recorder.history), ['hold a1 10..40~ unknown', 'wait b2 11..40~ acquired']);
    assert.deepEqual(openBrief(recorder.history).sort(), ['hold b2 40~', 'wait c3 33']);
  });

  test('a folder shown as a semaphore is left to the reads: its events change nothing', () => {
    const recorder = new LockRecorder();
    const analysis = snapshot(0, { '/S': [{ name: 'lease-a', session: '0xa', since: 0, holding: true, kind: 'lease' }] });
    analysis.queues[0].recipe = 'curator-semaphore';
    recorder.observe(analysis);
    recorder.followEvents(T0 + 1);
    recorder.resync(analysis, T0 + 1);
    recorder.nodeCreated(`/S/locks/${'_c_0d2f7b8e-0000-4000-8000-000000000000-lock-0000000001'}`, T0 + 2);
    recorder.nodeCreated(`/S/leases/${'_c_0d2f7b8e-0000-4000-8000-000000000000-lease-0000000001'}`, T0 + 3);
    assert.deepEqual(openBrief(recorder.history), ['hold la 0']);
  });
});
