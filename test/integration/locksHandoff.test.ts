// What a hand-off costs the lock session, counted at its own request path against a real server: a waiter whose
// only predecessor goes takes the lock without reading the queue again (sequence numbers only grow: nobody can have
// joined ahead), a holder that releases in the same turn sets no watch on its node, and the shortcut never takes a
// lock that is not ours (nodes still ahead keep us waiting; our node deleted with the predecessor is a loss) nor
// costs a round trip per node that went meanwhile.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { eventually } from '../support/zkClient';
import { lockSuite, trail } from '../support/lockHelpers';
import type { LockManager } from '../../src/zk/locks';

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

describe('lock hand-off: requests per acquisition', () => {
  const suite = lockSuite({ before, after });

  test('a waiter whose only predecessor is released holds without listing the queue again', async () => {
    const [a, b] = [suite.manager(), suite.manager()];
    const holder = await a.acquire('/h/only');
    await holder.whenHeld();
    const waiter = await b.acquire('/h/only');
    await eventually(() => waiter.state === 'waiting', 5000, 'waiting');
    const requests = countRequests(b);
    await holder.release();
    const held = await waiter.whenHeld();
    assert.equal(requests.get('getChildren') ?? 0, 0, `requests after the release: ${JSON.stringify([...requests])}`);
    assert.deepEqual(held.position, { index: 1, of: 1 });
    await waiter.release();
  });

  test('the predecessor gone before we could watch it: listed again (our node seen there), no watch on our node', async () => {
    const [a, b] = [suite.manager(), suite.manager()];
    const before = await b.acquire('/h/gone'); // b knows the path's convention: it creates first
    await before.whenHeld();
    await before.release();
    const holder = await a.acquire('/h/gone');
    await holder.whenHeld();
    const requests = countRequests(b);
    // The holder releases between our listing and our watch on its node (our request waits for its delete).
    const channel = b.lockSession!.channel;
    const send = channel.send.bind(channel);
    channel.send = (opCode, body, operation, path) => (operation === 'getData' && path === holder.snapshot.node
      ? holder.release().then(() => send(opCode, body, operation, path))
      : send(opCode, body, operation, path));
    const waiter = await b.acquire('/h/gone');
    const states = trail(waiter);
    await waiter.whenHeld();
    assert.equal(holder.state, 'released');
    assert.deepEqual(states.filter((s) => s !== 'acquiring'), ['held']);
    assert.deepEqual([...requests].sort(), [['create', 1], ['getChildren', 2], ['getData', 1]]);
    await waiter.release();
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
