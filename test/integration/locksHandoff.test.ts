// What a hand-off costs the lock session, counted at its own request path against a real server: a waiter whose
// predecessor goes reads the queue once more before it holds (never on the news alone: the news that our own node
// went in the same transaction can come in a later read), a holder that releases in the same turn sets no watch on
// its node, nodes still ahead keep us waiting, and nodes that went meanwhile cost one listing, not a watch each.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as net from 'node:net';
import { eventually } from '../support/clients/zkClient';
import { lockSuite, trail } from '../support/clients/lockHelpers';
import type { LockHandle, LockManager } from '../../src/zk/locks';
import { FrameReader } from '../../src/zk/protocol/frameReader';
import { holdRequestsFrom } from '../support/fakes/requestGate';

/** Counts the requests the manager's lock session sends, by operation, from now on. */
function countRequests(manager: LockManager): Map<string, number> {
  const counts = new Map<string, number>();
  const channel = manager.lockSession!.channel;
  const send = channel.send.bind(channel);
  channel.send = (opCode, body, operation, path) => {
    counts.set(operation, (counts.get(operation) ?? 0) + 1);
    return send(opCode, body, operation, path);
  };
  return counts;
}

/**
 * From now on the manager's lock session gets each frame the server sends in a read of its own, the next one only
 * after everything the previous one set off (its promise continuations included) has run: what TCP may do to two
 * notifications the server sends for one transaction.
 */
function oneFramePerRead(manager: LockManager): void {
  const socket = (manager.lockSession!.channel as unknown as { manager: { socket: net.Socket } }).manager.socket;
  const emit = socket.emit.bind(socket);
  const frames = new FrameReader();
  const queued: Buffer[] = [];
  let draining = false;
  const drain = () => {
    const frame = queued.shift();
    if (!frame) {
      draining = false;
      return;
    }
    emit('data', frame);
    setImmediate(drain);
  };
  socket.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'data') return emit(event, ...args);
    frames.push(args[0] as Buffer);
    for (let frame = frames.next(); frame; frame = frames.next()) queued.push(Buffer.from(frame));
    if (!draining) {
      draining = true;
      drain();
    }
    return true;
  }) as typeof socket.emit;
}

describe('lock hand-off: requests per acquisition', () => {
  const suite = lockSuite({ before, after });

  test('a waiter whose only predecessor is released reads the queue once more, then holds', async () => {
    const [a, b] = [suite.manager(), suite.manager()];
    const holder = await a.acquire('/h/only');
    await holder.whenHeld();
    const waiter = await b.acquire('/h/only');
    await eventually(() => waiter.state === 'waiting', 5000, 'waiting');
    const requests = countRequests(b);
    await holder.release();
    const held = await waiter.whenHeld();
    assert.equal(requests.get('getChildren') ?? 0, 1, `requests after the release: ${JSON.stringify([...requests])}`);
    assert.deepEqual(held.position, { index: 1, of: 1 });
    await waiter.release();
  });

  /** `b` knows the path's convention (it creates first, listing behind its create); `holder`, on `a`, holds. */
  async function holderAhead(path: string): Promise<{ b: LockManager; holder: LockHandle }> {
    const [a, b] = [suite.manager(), suite.manager()];
    const known = await b.acquire(path);
    await known.whenHeld();
    await known.release();
    const holder = await a.acquire(path);
    await holder.whenHeld();
    return { b, holder };
  }

  test('the predecessor gone before we could watch it: the read sent behind the watch goes on (one round trip, not two), no watch on our node', async () => {
    const { b, holder } = await holderAhead('/h/gone');
    const requests = countRequests(b);
    // The holder releases between our listing and our watch on its node.
    const { wire } = holdRequestsFrom(b.lockSession!.channel, (operation, path) => operation === 'getData' && path === holder.snapshot.node, () => holder.release());
    const waiter = await b.acquire('/h/gone');
    const states = trail(waiter);
    await waiter.whenHeld();
    assert.equal(holder.state, 'released');
    assert.deepEqual(states.filter((s) => s !== 'acquiring'), ['held']);
    assert.deepEqual([...requests].sort(), [['create', 1], ['getChildren', 2], ['getData', 1]]);
    // The listing that follows the watch's NONODE was sent before that answer came.
    const afterCreate = wire.slice(wire.indexOf('answer create') + 1);
    assert.deepEqual(afterCreate, ['answer getChildren', 'send getData', 'send getChildren', 'error getData', 'answer getChildren'], wire.join(', '));
    await waiter.release();
  });

  test('our node and the one we were about to watch deleted together: the read behind the watch says lost, never held', async () => {
    const { b, holder } = await holderAhead('/h/behind-both');
    const ours: { handle?: LockHandle } = {}; // read when the watch goes out, after our create
    holdRequestsFrom(b.lockSession!.channel, (operation, path) => operation === 'getData' && path === holder.snapshot.node, () => new Promise<void>((resolve, reject) => {
      suite.other.client.transaction().remove(holder.snapshot.node!).remove(ours.handle!.snapshot.node!)
        .commit((error) => (error ? reject(error) : resolve()));
    }));
    const waiter = ours.handle = await b.acquire('/h/behind-both');
    const states = trail(waiter);
    await eventually(() => waiter.isFinal, 5000, 'the waiter ends');
    assert.equal(waiter.snapshot.lostReason, 'nodeDeleted');
    assert.ok(!states.includes('held'), `never held: ${states.join(' → ')}`);
  });

  test('the one waited for goes while another still holds: keep waiting, now for the holder', async () => {
    const [a, b, c] = [suite.manager(), suite.manager(), suite.manager()];
    const first = await a.acquire('/h/ahead');
    await first.whenHeld();
    const second = await b.acquire('/h/ahead');
    await eventually(() => second.state === 'waiting', 5000, 'second waiting');
    const third = await c.acquire('/h/ahead');
    await eventually(() => third.state === 'waiting', 5000, 'third waiting');
    assert.equal(third.snapshot.waitingFor, second.snapshot.node);
    const states = trail(third);
    await second.release(); // a cancelled waiter: its node goes, the holder's stays
    await eventually(() => third.snapshot.waitingFor === first.snapshot.node, 5000, 'third waits for the holder');
    assert.equal(first.state, 'held');
    assert.deepEqual(states, ['waiting']);
    await first.release();
    await third.whenHeld();
    await third.release();
  });

  test('others were ahead when we listed: the queue is listed again (one read), not the gone nodes watched one by one', async () => {
    const ms = [suite.manager(), suite.manager(), suite.manager()];
    const hs = [];
    for (const m of ms) {
      const h = await m.acquire('/h/line');
      hs.push(h);
      await eventually(() => h.state === 'held' || h.state === 'waiting', 5000, 'queued');
    }
    await hs[0].release();
    await hs[1].whenHeld();
    const requests = countRequests(ms[2]);
    await hs[1].release();
    await hs[2].whenHeld();
    assert.deepEqual([...requests], [['getChildren', 1]]);
    await hs[2].release();
  });

  test('our node and the one we wait for deleted together: lost, never held', async () => {
    const [a, b] = [suite.manager(), suite.manager()];
    const holder = await a.acquire('/h/both');
    await holder.whenHeld();
    const waiter = await b.acquire('/h/both');
    await eventually(() => waiter.state === 'waiting', 5000, 'waiting');
    const states = trail(waiter);
    await new Promise<void>((resolve, reject) => {
      suite.other.client.transaction().remove(waiter.snapshot.node!).remove(holder.snapshot.node!)
        .commit((error) => (error ? reject(error) : resolve()));
    });
    await eventually(() => waiter.isFinal, 5000, 'the waiter ends');
    assert.equal(waiter.snapshot.lostReason, 'nodeDeleted');
    assert.deepEqual(states, ['waiting', 'lost']);
  });

  test('our node deleted in the same transaction as the one we wait for, its news in a later read: lost, never held', async () => {
    const [a, b] = [suite.manager(), suite.manager()];
    const holder = await a.acquire('/h/split');
    await holder.whenHeld();
    const waiter = await b.acquire('/h/split');
    await eventually(() => waiter.state === 'waiting', 5000, 'waiting');
    // The session answers in order: once this is answered, so is the watch on our own node, asked for before it.
    await b.lockSession!.exists('/');
    oneFramePerRead(b);
    const states = trail(waiter);
    await new Promise<void>((resolve, reject) => {
      suite.other.client.transaction().remove(holder.snapshot.node!).remove(waiter.snapshot.node!)
        .commit((error) => (error ? reject(error) : resolve()));
    });
    await eventually(() => waiter.isFinal, 5000, 'the waiter ends');
    assert.equal(waiter.snapshot.lostReason, 'nodeDeleted');
    assert.deepEqual(states, ['waiting', 'lost'], 'never held');
  });

  test('a holder that releases in the same turn sets no watch on its node (nothing to remove either)', async () => {
    await suite.other.mkdirp('/h/quick');
    const m = suite.manager();
    await m.open();
    const requests = countRequests(m);
    for (let i = 0; i < 3; i++) {
      const h = await m.acquire('/h/quick');
      await h.whenHeld();
      await h.release();
    }
    assert.equal(requests.get('getData') ?? 0, 0, JSON.stringify([...requests]));
    assert.equal(requests.get('removeWatches') ?? 0, 0, JSON.stringify([...requests]));
    assert.equal(requests.get('create'), 3);
    assert.equal(requests.get('delete'), 3);
  });
});
