// What a lock costs the server's watchers, counted BY THE SERVER (mntr's per-event watcher sums, ZooKeeper 3.6+),
// not in the clients: exactly one notification per release however many wait, none when nobody waits (our own
// node's watch is dropped before our delete), and still: someone else deleting our node is noticed at once, held or
// waiting; a path whose queue changed library since the manager last joined it is joined by the new library's rules.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fourLetterWord } from '../support/ports';
import { eventually } from '../support/clients/zkClient';
import { children, lockSuite, trail } from '../support/clients/lockHelpers';
import { LockHandle, LockSnapshot } from '../../src/zk/locks';

const EVENTS = ['created', 'deleted', 'children', 'changed'];

describe('lock notifications as the server counts them', () => {
  const suite = lockSuite({ before, after });
  const manager = () => suite.manager();

  /** Watchers the server has triggered so far, all event types (mntr `zk_sum_node_<event>_watch_count`). */
  async function triggered(): Promise<number> {
    const mntr = await fourLetterWord(suite.zk.members[0].clientPort, 'mntr');
    let sum = 0;
    for (const event of EVENTS) {
      const line = new RegExp(`^zk_sum_node_${event}_watch_count\\s+(\\d+)`, 'm').exec(mntr);
      assert.ok(line, `mntr has no zk_sum_node_${event}_watch_count:\n${mntr}`);
      sum += Number(line[1]);
    }
    return sum;
  }

  test('the server notifies exactly one watcher per release with 20 waiters', async () => {
    const ms = Array.from({ length: 21 }, () => manager());
    const hs: LockHandle[] = [];
    for (const m of ms) {
      const h = await m.acquire('/n/many');
      hs.push(h);
      await eventually(() => h.state === 'held' || h.state === 'waiting', 5000, 'queued');
    }
    for (let i = 0; i < 10; i++) {
      const before = await triggered();
      await hs[i].release();
      await hs[i + 1].whenHeld(); // woken by the one notification, which the server counted before sending it
      assert.equal(await triggered() - before, 1, `release ${i}`);
    }
    for (const h of hs.slice(10)) {
      await h.whenHeld();
      await h.release();
    }
  });

  test('acquire → release in a loop with nobody waiting: the server notifies no one (own watch dropped first)', async () => {
    const m = manager();
    const first = await m.acquire('/n/alone');
    await first.whenHeld();
    await first.release();
    const before = await triggered();
    for (let i = 0; i < 10; i++) {
      const h = await m.acquire('/n/alone');
      await h.whenHeld();
      await h.release();
    }
    assert.equal(await triggered() - before, 0);
    assert.deepEqual(await children(suite.other, '/n/alone'), []);
  });

  test('someone else deletes our HELD node with nobody waiting: lost (nodeDeleted) at once', async () => {
    const h = await manager().acquire('/n/stolen-held');
    await h.whenHeld();
    const states = trail(h);
    const lost: LockSnapshot[] = [];
    h.on('lost', (s) => lost.push(s));
    await suite.other.remove(h.snapshot.node!);
    await eventually(() => lost.length === 1, 3000, 'lost event');
    assert.equal(lost[0].lostReason, 'nodeDeleted');
    assert.deepEqual(states, ['held', 'lost']);
  });

  test('someone else deletes our node while we WAIT: lost at once (the holder still holds), not at the next hand-off', async () => {
    const holder = await manager().acquire('/n/stolen-waiting');
    await holder.whenHeld();
    const h = await manager().acquire('/n/stolen-waiting');
    await eventually(() => h.state === 'waiting', 5000, 'waiting');
    const lost: LockSnapshot[] = [];
    h.on('lost', (s) => lost.push(s));
    await suite.other.remove(h.snapshot.node!);
    await eventually(() => lost.length === 1, 3000, 'lost event while the holder still holds');
    assert.equal(lost[0].lostReason, 'nodeDeleted');
    assert.equal(holder.state, 'held');
    await holder.release();
  });

  test('a path the manager joined as its own that now holds a kazoo queue: the next attempt joins it as kazoo', async () => {
    const m = manager();
    const mine = await m.acquire('/n/flip');
    await mine.whenHeld();
    assert.equal(mine.snapshot.convention, 'plain');
    await mine.release();
    // A kazoo contender (its naming: <hex32>__lock__<seq10>) takes the lock meanwhile.
    const kazooNode = await suite.other.create('/n/flip/0123456789abcdef0123456789abcdef__lock__', 'kazoo', 3 /* EPHEMERAL_SEQUENTIAL */);
    const again = await m.acquire('/n/flip');
    await eventually(() => again.state === 'waiting', 5000, 'waits behind the kazoo holder');
    assert.equal(again.snapshot.convention, 'kazoo');
    assert.match(again.snapshot.node ?? '', /\/[0-9a-f]{32}__lock__\d{10}$/);
    assert.equal(again.snapshot.waitingFor, kazooNode);
    const names = await children(suite.other, '/n/flip');
    assert.equal(names.length, 2, `only the kazoo holder and our kazoo-named node remain: ${names.join(', ')}`);
    await suite.other.remove(kazooNode);
    await again.whenHeld();
    await again.release();
  });

  test('a missing lock path is made on the first acquire (parents only after NONODE)', async () => {
    const h = await manager().acquire('/n/deep/er/path');
    await h.whenHeld();
    assert.match(h.snapshot.node ?? '', /^\/n\/deep\/er\/path\/[0-9a-f]{32}-lock-\d{10}$/);
    await h.release();
  });
});
