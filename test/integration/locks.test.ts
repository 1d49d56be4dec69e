// ZooScope's own lock recipes on a real server: exclusive, read/write, fair and unfair elections, timeout, cancel,
// a repeated request, herd-free hand-offs (notifications counted in the waiting clients and watches read from the
// server), live position, someone else deleting our node, and a lock session of its own.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fourLetterWord } from '../support/ports';
import { eventually } from '../support/clients/zkClient';
import { sleep } from '../support/waiting';
import { children, countNotifications, lockSuite, ownerOf, trail } from '../support/clients/lockHelpers';
import { LockError, LockHandle, LockSnapshot } from '../../src/zk/locks';
import { ZkSession } from '../../src/zk/session/session';

/** The sequence number the server gave a handle's node. */
const seqOf = (h: LockHandle) => Number(h.snapshot.node!.slice(-10));

describe('lock recipes', () => {
  const suite = lockSuite({ before, after });
  const manager = () => suite.manager();

  test('exclusive: the second waits behind the first (position, node waited for), gets it on release', async () => {
    const [a, b] = [manager(), manager()];
    const ha = await a.acquire('/x/ex');
    const held = await ha.whenHeld();
    assert.equal(held.state, 'held');
    assert.equal(held.convention, 'plain');
    assert.match(held.node ?? '', /^\/x\/ex\/[0-9a-f]{32}-lock-\d{10}$/);
    assert.equal(held.sessionId, a.sessionId);
    assert.equal(await ownerOf(suite.other, held.node!), a.sessionId);
    const hb = await b.acquire('/x/ex');
    const states = trail(hb);
    await eventually(() => hb.state === 'waiting', 5000, 'b waiting');
    assert.deepEqual(hb.snapshot.position, { index: 2, of: 2 });
    assert.equal(hb.snapshot.waitingFor, held.node);
    await ha.release();
    assert.equal(ha.state, 'released');
    await hb.whenHeld();
    assert.deepEqual(states, ['acquiring', 'waiting', 'held']);
    assert.deepEqual(hb.snapshot.position, { index: 1, of: 1 });
    await hb.release();
    assert.deepEqual(await children(suite.other, '/x/ex'), []);
  });

  test('read/write: readers share, a writer waits for them, a reader behind a writer waits for it', async () => {
    const [r1, r2, w, r3] = [manager(), manager(), manager(), manager()];
    const h1 = await r1.acquire('/x/rw', { mode: 'read' });
    const h2 = await r2.acquire('/x/rw', { mode: 'read' });
    await Promise.all([h1.whenHeld(), h2.whenHeld()]);
    // The two readers ran at once: the queue's order is their nodes' sequence numbers, not the order of the calls.
    const [first, second] = [h1, h2].sort((a, b) => seqOf(a) - seqOf(b));
    const hw = await w.acquire('/x/rw', { mode: 'write' });
    await eventually(() => hw.state === 'waiting', 5000, 'writer waiting');
    assert.equal(hw.snapshot.waitingFor, second.snapshot.node, 'a writer waits for the nearest earlier node');
    const h3 = await r3.acquire('/x/rw', { mode: 'read' });
    await eventually(() => h3.state === 'waiting', 5000, 'late reader waiting');
    assert.equal(h3.snapshot.waitingFor, hw.snapshot.node);
    await second.release();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(hw.state, 'waiting', 'writer still waits for the first reader');
    await first.release();
    await hw.whenHeld();
    assert.equal(h3.state, 'waiting');
    await hw.release();
    await h3.whenHeld();
    await h3.release();
  });

  test('fair election: candidates queue, the lowest leads, leadership passes in order', async () => {
    const ms = [manager(), manager(), manager()];
    const hs: LockHandle[] = [];
    for (const m of ms) {
      hs.push(await m.acquire('/x/election', { mode: 'election' }));
      await eventually(() => hs[hs.length - 1].state === 'leader' || hs[hs.length - 1].state === 'waiting', 5000, 'queued');
    }
    assert.deepEqual(hs.map((h) => h.state), ['leader', 'waiting', 'waiting']);
    assert.equal(hs[2].snapshot.waitingFor, hs[1].snapshot.node);
    await hs[0].release();
    await hs[1].whenHeld();
    assert.equal(hs[1].state, 'leader');
    assert.equal(hs[2].state, 'waiting');
    await hs[1].release();
    await hs[2].whenHeld();
    await hs[2].release();
  });

  test('unfair election: one ephemeral node at the path; on release exactly one other candidate leads', async () => {
    const ms = [manager(), manager(), manager()];
    const hs = await Promise.all(ms.map((m) => m.acquire('/x/unfair/leader', { mode: 'unfairElection' })));
    await eventually(() => hs.filter((h) => h.state === 'leader').length === 1 && hs.filter((h) => h.state === 'waiting').length === 2, 5000, 'one leader');
    const leader = hs.find((h) => h.state === 'leader')!;
    assert.equal(await ownerOf(suite.other, '/x/unfair/leader'), ms[hs.indexOf(leader)].sessionId);
    for (const h of hs) if (h !== leader) assert.equal(h.snapshot.waitingFor, '/x/unfair/leader');
    await leader.release();
    await eventually(() => hs.filter((h) => h.state === 'leader').length === 1, 5000, 'a new leader');
    const next = hs.find((h) => h.state === 'leader')!;
    assert.notEqual(next, leader);
    assert.equal(await ownerOf(suite.other, '/x/unfair/leader'), ms[hs.indexOf(next)].sessionId);
    for (const h of hs) await h.release();
  });

  test('timeout: timedOut, whenHeld rejects, our node is deleted; the holder is untouched', async () => {
    const [a, b] = [manager(), manager()];
    const ha = await a.acquire('/x/timeout');
    await ha.whenHeld();
    const started = Date.now();
    const hb = await b.acquire('/x/timeout', { timeoutMs: 400 });
    await assert.rejects(hb.whenHeld(), (e: unknown) => e instanceof LockError && e.snapshot.state === 'timedOut');
    // Not before its time (a slow machine may tell it later; that it is told at all is the rejection above).
    assert.ok(Date.now() - started >= 390, `timed out after ${Date.now() - started} ms`);
    assert.deepEqual(await children(suite.other, '/x/timeout'), [ha.snapshot.node!.split('/').pop()]);
    assert.equal(ha.state, 'held');
    await ha.release();
  });

  test('a timeout longer than one timer can wait (2^31 ms, 24.9 days) keeps waiting: it does not fire at once', async () => {
    const [a, b] = [manager(), manager()];
    const ha = await a.acquire('/x/long-timeout');
    await ha.whenHeld();
    const hb = await b.acquire('/x/long-timeout', { timeoutMs: 2 ** 31 });
    await eventually(() => hb.state === 'waiting' || hb.isFinal, 5000, 'b waiting');
    // Node clamps a longer setTimeout to 1 ms; a timer due after that one has fired runs after it.
    await sleep(50);
    assert.equal(hb.state, 'waiting');
    await ha.release();
    await hb.whenHeld();
    await hb.release();
  });

  test('cancel with an AbortSignal: cancelled, node deleted; an already aborted signal never queues', async () => {
    const [a, b, c] = [manager(), manager(), manager()];
    const ha = await a.acquire('/x/cancel');
    await ha.whenHeld();
    const controller = new AbortController();
    const hb = await b.acquire('/x/cancel', { signal: controller.signal });
    await eventually(() => hb.state === 'waiting', 5000, 'waiting');
    controller.abort();
    await assert.rejects(hb.whenHeld(), (e: unknown) => e instanceof LockError && e.snapshot.state === 'cancelled');
    await eventually(async () => (await children(suite.other, '/x/cancel')).length === 1, 5000, 'node deleted');
    const hc = await c.acquire('/x/cancel', { signal: AbortSignal.abort() });
    await assert.rejects(hc.whenHeld(), (e: unknown) => e instanceof LockError && e.snapshot.state === 'cancelled');
    assert.equal((await children(suite.other, '/x/cancel')).length, 1);
    // release() of a waiting attempt cancels it too.
    const hb2 = await b.acquire('/x/cancel');
    await eventually(() => hb2.state === 'waiting', 5000, 'waiting again');
    await hb2.release();
    assert.equal(hb2.state, 'cancelled');
    assert.equal((await children(suite.other, '/x/cancel')).length, 1);
    await ha.release();
  });

  test('the same holder asking again is reported, not queued twice (held and while waiting)', async () => {
    const [a, b] = [manager(), manager()];
    const repeated: LockSnapshot[] = [];
    a.on('repeated', (s) => repeated.push(s));
    const ha = await a.acquire('/x/again');
    await ha.whenHeld();
    const again = await a.acquire('/x/again');
    assert.equal(again, ha);
    assert.equal(repeated.length, 1);
    assert.equal(ha.snapshot.repeatedRequests, 1);
    const hb = await b.acquire('/x/again');
    await eventually(() => hb.state === 'waiting', 5000, 'waiting');
    assert.equal(await b.acquire('/x/again', { mode: 'read' }), hb);
    assert.equal((await children(suite.other, '/x/again')).length, 2);
    await ha.release();
    await hb.whenHeld();
    // After a release the path can be taken anew.
    await hb.release();
    const fresh = await a.acquire('/x/again');
    assert.notEqual(fresh, ha);
    await fresh.whenHeld();
    await fresh.release();
  });

  test('herd-free: each release notifies exactly one of 9 waiters; each waiter watches only its predecessor', async () => {
    const ms = Array.from({ length: 10 }, () => manager());
    const hs: LockHandle[] = [];
    for (const m of ms) {
      const h = await m.acquire('/x/herd');
      hs.push(h);
      await eventually(() => h.state === 'held' || h.state === 'waiting', 5000, 'queued');
    }
    const counters = ms.map((m) => countNotifications(m));
    // Server view: every waiter's session watches its predecessor's node and its own, nothing else.
    const wchc = await fourLetterWord(suite.zk.members[0].clientPort, 'wchc');
    for (let i = 1; i < hs.length; i++) {
      const section = wchc.split(/\n(?=0x)/).find((s) => s.startsWith(ms[i].sessionId!)) ?? '';
      const watched = section.split('\n').slice(1).map((l) => l.trim()).filter(Boolean).sort();
      assert.deepEqual(watched, [hs[i - 1].snapshot.node!, hs[i].snapshot.node!].sort(), `watches of waiter ${i}: ${section}`);
    }
    for (let i = 0; i < hs.length - 1; i++) {
      const before = counters.map((c) => c.count);
      await hs[i].release();
      await hs[i + 1].whenHeld();
      const delivered = counters.map((c, j) => c.count - before[j]);
      const toWaiters = delivered.slice(i + 1).reduce((x, y) => x + y, 0);
      assert.equal(toWaiters, 1, `release ${i}: notifications to waiters ${JSON.stringify(delivered)}`);
      assert.equal(delivered[i + 1], 1, 'the successor is the one woken');
    }
    await hs[hs.length - 1].release();
  });

  test('position is kept current while waiting (positionRefreshMs) and the node waited for is named', async () => {
    const [a, b, c] = [manager(), manager(), manager()];
    const ha = await a.acquire('/x/position');
    await ha.whenHeld();
    const hb = await b.acquire('/x/position');
    await eventually(() => hb.state === 'waiting', 5000, 'b waiting');
    const hc = await c.acquire('/x/position', { positionRefreshMs: 100 });
    await eventually(() => hc.state === 'waiting', 5000, 'c waiting');
    assert.deepEqual(hc.snapshot.position, { index: 3, of: 3 });
    assert.equal(hc.snapshot.waitingFor, hb.snapshot.node);
    const seen: LockSnapshot[] = [];
    hc.on('change', (s) => seen.push(s));
    await ha.release();
    await hb.whenHeld();
    await eventually(() => hc.snapshot.position?.index === 2, 3000, 'c moves up to 2nd');
    assert.deepEqual(hc.snapshot.position, { index: 2, of: 2 });
    assert.ok(seen.some((s) => s.position?.index === 2 && s.state === 'waiting'), 'a change event carried the new position');
    await hb.release();
    await hc.whenHeld();
    await hc.release();
  });

  test('someone else deletes our node: lost (nodeDeleted) at once, never held again; the next waiter gets it', async () => {
    const [a, b] = [manager(), manager()];
    const ha = await a.acquire('/x/stolen');
    await ha.whenHeld();
    const hb = await b.acquire('/x/stolen');
    await eventually(() => hb.state === 'waiting', 5000, 'waiting');
    const lost: LockSnapshot[] = [];
    ha.on('lost', (s) => lost.push(s));
    const states = trail(ha);
    await suite.other.remove(ha.snapshot.node!);
    await eventually(() => lost.length === 1, 3000, 'lost event');
    assert.equal(lost[0].lostReason, 'nodeDeleted');
    assert.deepEqual(states, ['held', 'lost']);
    await hb.whenHeld();
    await ha.release(); // no effect on a lost lock
    assert.equal(ha.state, 'lost');
    assert.equal(hb.state, 'held');
    await hb.release();
  });

  test('locks live on a session of their own: a browsing session closing costs nothing; close() releases all', async () => {
    const browsing = new ZkSession({ connectString: suite.zk.connectString });
    await browsing.open();
    const m = manager();
    const h1 = await m.acquire('/x/own/a');
    const h2 = await m.acquire('/x/own/b', { mode: 'read' });
    await Promise.all([h1.whenHeld(), h2.whenHeld()]);
    assert.notEqual(m.sessionId, browsing.sessionId);
    browsing.close();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h1.state, 'held');
    m.close();
    assert.equal(h1.state, 'released');
    assert.equal(h2.state, 'released');
    await eventually(async () => (await children(suite.other, '/x/own/a')).length === 0 && (await children(suite.other, '/x/own/b')).length === 0, 3000, 'nodes gone with the session');
  });

  test('an unknown queue is not joined without a choice; detection tells what is there; a chosen convention joins', async () => {
    await suite.other.mkdirp('/x/foreign');
    await suite.other.create('/x/foreign/task-', 'x', 3 /* EPHEMERAL_SEQUENTIAL */);
    const m = manager();
    assert.deepEqual(await m.detectConvention('/x/foreign'), { status: 'unknown', unrecognised: [(await children(suite.other, '/x/foreign'))[0]] });
    const h = await m.acquire('/x/foreign');
    await assert.rejects(h.whenHeld(), (e: unknown) => e instanceof LockError && e.snapshot.error === 'conventionUnknown' && e.snapshot.detection?.status === 'unknown');
    assert.equal((await children(suite.other, '/x/foreign')).length, 1, 'nothing created');
    const forced = await m.acquire('/x/foreign', { convention: 'plain' });
    await forced.whenHeld();
    await forced.release();
    // A mode the queue's library has no such lock for: conventionMismatch.
    await suite.other.mkdirp('/x/zkw');
    await suite.other.create('/x/zkw/x-72057594037927936-', '', 3);
    const read = await m.acquire('/x/zkw', { mode: 'read' });
    await assert.rejects(read.whenHeld(), (e: unknown) => e instanceof LockError && e.snapshot.error === 'conventionMismatch');
  });
});
