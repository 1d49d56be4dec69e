// LockMonitor against a real server: queue changes arrive through watches, server tables are polled only while
// started, and dispose() leaves no watch and no polling behind.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { LockAnalysis, LockMonitor } from '../../src/zk/analysis';
import { parseMntr, parseWchc } from '../../src/zk/servers/serverCommands';
import { ZkSession } from '../../src/zk/session/session';
import { fourLetterWord } from '../support/ports';
import { holdRequestsFrom } from '../support/fakes/requestGate';
import { sleep } from '../support/waiting';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;
const dataWatch = (c: OtherClient, path: string) => c.watch(path, 'exists');

describe('LockMonitor', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let a: OtherClient;
  let b: OtherClient;
  const packets = async () => Number(parseMntr(await fourLetterWord(zk.members[0].clientPort, 'mntr')).packets_received);

  before(async () => {
    // No AdminServer: the monitor polls with four-letter words, which the server counts in packets_received.
    zk = await startStandalone({ adminServer: false });
    session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 10000 });
    await session.open();
    a = await connectOtherClient(zk.connectString, 20000);
    b = await connectOtherClient(zk.connectString, 20000);
    await a.mkdirp('/mon/lock');
  });

  after(async () => {
    session?.close();
    a?.close();
    b?.close();
    await zk?.stop();
  });

  test('queue changes show through watches; new watches show at the next poll; dispose stops everything', async () => {
    const held = await a.create('/mon/lock/lock-', 'a', EPH_SEQ);
    const monitor = new LockMonitor(session, '/mon/lock', { pollIntervalMs: 200, adminPort: 1 });
    const updates: LockAnalysis[] = [];
    const errors: Error[] = [];
    monitor.onUpdate((u) => updates.push(u));
    monitor.onError((e) => errors.push(e));
    const latest = () => updates[updates.length - 1];
    const paths = () => latest()?.queues[0]?.participants.map((p) => [p.path, p.role]) ?? [];
    try {
      monitor.start();
      await eventually(() => paths().length === 1, 10000, 'first analysis');
      assert.deepEqual(paths(), [[held, 'holder']]);
      // The monitor's persistent watch is on the server while it is started.
      await eventually(async () => parseWchc(await fourLetterWord(zk.members[0].clientPort, 'wchc')).get(session.sessionId!)?.includes('/mon/lock') ?? false, 10000, 'monitor watch on server');

      const t0 = Date.now();
      const waiting = await b.create('/mon/lock/lock-', 'b', EPH_SEQ);
      await eventually(() => paths().length === 2, 10000, 'new waiter');
      console.log(`# waiter shown ${Date.now() - t0} ms after its create was sent`);
      assert.deepEqual(paths(), [[held, 'holder'], [waiting, 'waiter']]);

      await dataWatch(b, held);
      await eventually(() => latest().queues[0].participants[1].watches.some((w) => w.path === held && w.source === 'server'), 10000, 'watch seen at a poll');

      const t1 = Date.now();
      await a.remove(held);
      await eventually(() => paths().length === 1 && paths()[0][0] === waiting, 10000, 'hand-off');
      console.log(`# hand-off shown ${Date.now() - t1} ms after the delete was sent`);
      assert.deepEqual(paths(), [[waiting, 'holder']]);

      // Polling while started: four words per poll reach the server.
      const p0 = await packets();
      await sleep(1000);
      const started = (await packets()) - p0 - 1;
      assert.ok(started >= 8, `packets while started: ${started}`);
    } finally {
      monitor.dispose();
    }
    assert.deepEqual(errors, []);
    const count = updates.length;
    // Settle: a poll in flight at dispose time may still land on the server.
    await sleep(300);
    const p1 = await packets();
    await b.create('/mon/lock/lock-', 'late', EPH_SEQ);
    await sleep(1000);
    const afterDispose = (await packets()) - p1 - 1 - 1; // our own mntr and b's create
    assert.ok(afterDispose <= 1, `packets after dispose: ${afterDispose}`); // at most one ping of a session
    assert.equal(updates.length, count, 'no update after dispose');
      // (wchc may still print the session, with no path under it.)
    await eventually(async () => (parseWchc(await fourLetterWord(zk.members[0].clientPort, 'wchc')).get(session.sessionId!) ?? []).length === 0, 10000, 'monitor watch removed');
  });

  test('a lock folder that does not exist yet (Curator\'s containers come and go): shown once it appears', async () => {
    const monitor = new LockMonitor(session, '/mon/later', { serverWatches: false });
    const updates: LockAnalysis[] = [];
    const errors: Error[] = [];
    monitor.onUpdate((u) => updates.push(u));
    monitor.onError((e) => errors.push(e));
    try {
      monitor.start();
      await eventually(() => updates.length > 0, 10000, 'first analysis');
      assert.deepEqual(updates[updates.length - 1].queues, []);
      await a.mkdirp('/mon/later');
      const node = await a.create('/mon/later/lock-', '', EPH_SEQ);
      await eventually(() => updates[updates.length - 1].queues[0]?.participants[0]?.path === node, 10000, 'queue after creation');
      await a.remove(node);
      await a.remove('/mon/later');
      await eventually(() => (updates[updates.length - 1].queues[0]?.participants.length ?? 0) === 0, 10000, 'queue gone');
      await a.mkdirp('/mon/later');
      const again = await b.create('/mon/later/lock-', '', EPH_SEQ);
      await eventually(() => updates[updates.length - 1].queues[0]?.participants[0]?.path === again, 10000, 'queue back');
      assert.deepEqual(errors, []);
    } finally {
      monitor.dispose();
    }
  });

  test('a subtree monitor finds a queue that appears below root and follows it', async () => {
    await a.mkdirp('/mon/tree/app/config');
    const monitor = new LockMonitor(session, '/mon/tree', { serverWatches: false });
    const updates: LockAnalysis[] = [];
    monitor.onUpdate((u) => updates.push(u));
    try {
      monitor.start();
      await eventually(() => updates.length > 0, 10000, 'first analysis');
      assert.deepEqual(updates[updates.length - 1].queues, []);
      await a.mkdirp('/mon/tree/app/jobs');
      const first = await a.create('/mon/tree/app/jobs/lock-', '', EPH_SEQ);
      // jobs appears, then gets its first lock node: the monitor watches the folders it crawled, so it sees both.
      await eventually(() => updates[updates.length - 1].queues.some((q) => q.path === '/mon/tree/app/jobs'), 10000, 'new queue');
      const second = await b.create('/mon/tree/app/jobs/lock-', '', EPH_SEQ);
      await eventually(() => updates[updates.length - 1].queues[0]?.participants.length === 2, 10000, 'second participant');
      assert.deepEqual(updates[updates.length - 1].queues[0].participants.map((p) => p.path), [first, second]);
    } finally {
      monitor.dispose();
    }
  });

  for (const when of ['a queue', 'an empty folder'] as const) {
    test(`a node added while the watch on what the monitor just found (${when}) is on its way: shown, not missed`, async () => {
      const jobs = `/mon/late-${when === 'a queue' ? 'queue' : 'folder'}/app/jobs`;
      await a.mkdirp(jobs.replace(/\/jobs$/, ''));
      const monitor = new LockMonitor(session, jobs.replace(/\/app\/jobs$/, ''), { serverWatches: false });
      const updates: LockAnalysis[] = [];
      monitor.onUpdate((u) => updates.push(u));
      let joined: string | undefined;
      // A change between the monitor's read and its watch on what it just found.
      const gate = holdRequestsFrom(session.channel, (operation, path) => operation === 'addWatch' && path === jobs, async () => { joined = await b.create(`${jobs}/lock-`, '', EPH_SEQ); });
      try {
        monitor.start();
        await eventually(() => updates.length > 0, 10000, 'first analysis');
        // Found as a queue (it has a node when crawled) or as a folder (crawled before its first node).
        await a.mkdirp(jobs);
        const first = when === 'a queue' ? await a.create(`${jobs}/lock-`, '', EPH_SEQ) : undefined;
        const participants = () => updates[updates.length - 1].queues[0]?.participants.map((p) => p.path) ?? [];
        await eventually(() => joined !== undefined && participants().includes(joined), 10000, 'the node added meanwhile');
        assert.deepEqual(participants(), first ? [first, joined] : [joined]);
      } finally {
        gate.restore();
        monitor.dispose();
      }
    });
  }

  test('after a queue change the tables are read again soon, not only at the regular poll', async () => {
    await a.mkdirp('/mon/soon');
    const held = await a.create('/mon/soon/lock-', 'a', EPH_SEQ);
    // A regular poll far away: only the early read after the change can show the new waiter's watch.
    const monitor = new LockMonitor(session, '/mon/soon', { pollIntervalMs: 120_000, adminPort: 1 });
    const updates: LockAnalysis[] = [];
    monitor.onUpdate((u) => updates.push(u));
    const waiter = () => updates[updates.length - 1]?.queues[0]?.participants[1];
    try {
      monitor.start();
      await eventually(() => updates.length > 0, 10000, 'first analysis');
      // The waiter sets its watch before it joins, as recipes that watch first do; its node is newer than the tables.
      await dataWatch(b, held);
      await b.create('/mon/soon/lock-', 'b', EPH_SEQ);
      await eventually(() => waiter()?.watches.some((w) => w.path === held && w.source === 'server') ?? false, 8000, 'watch seen soon after the change');
      assert.ok(!updates[updates.length - 1].queues[0].anomalies.some((x) => x.kind === 'dead-owner'), 'the newcomer is alive');
    } finally {
      monitor.dispose();
    }
  });
});
