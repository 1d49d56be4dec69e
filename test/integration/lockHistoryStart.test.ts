// Issue 33: the recorder at start-up (and after a reconnect) took a waiter for a holder. Real kazoo contenders queue
// on one lock; the recorder's session is held at the client so that the queue moves (1) between the monitor's last
// read and the watch being set, untold, and (2) after the watch is set but before the full read after it answers,
// told. Every logged hold is recorded once, in the server's order (the sequence numbers), none invented, none
// overlapping, and no node that held has a wait that ended any other way than by acquiring.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { HistoryInterval } from '../../src/zk/history';
import { AddWatchMode } from '../../src/zk/protocol/opcodes';
import { RecordedLocks } from '../support/clients/recordedLocks';
import { holdRequestsFrom } from '../support/fakes/requestGate';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import type { ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo } from '../support/thirdParty/kazoo';
import { eventually } from '../support/waiting';
import { connectOtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

/** The recorder's own watch: the persistent recursive one on the monitored path (the monitor's are not recursive). */
const treeWatchOn = (root: string) => (operation: string, watched?: string, body?: Buffer) =>
  operation === 'addWatch' && watched === root && body?.readInt32BE(body.length - 4) === AddWatchMode.persistentRecursive;

const sequenceOf = (node: string) => Number(node.slice(-10));

describe('lock history when the queue moves before the full read after the watch', () => {
  let zk: ZkCluster;
  let kazoo: ThirdPartyClient;
  let proxy: TcpProxy | undefined;
  const recordings: RecordedLocks[] = [];

  before(async () => {
    zk = await startStandalone();
    const setup = await connectOtherClient(zk.connectString);
    await setup.mkdirp('/start/kazoo');
    await setup.mkdirp('/restart/kazoo');
    setup.close();
    kazoo = await startKazoo(zk.connectString);
  });

  after(async () => {
    for (const r of recordings) r.close();
    await kazoo?.close().catch(() => undefined);
    await proxy?.close();
    await zk?.stop();
  });

  /** Contenders of one lock, each a kazoo session of its own. */
  const contenders = (lock: string) => ({
    take: async (id: string) => { kazoo.acquire(id, 'mutex', lock); await kazoo.waitForEvent(id, 'acquired', 60000); },
    join: async (id: string) => { kazoo.acquire(id, 'mutex', lock); await kazoo.waitForEvent(id, 'waiting', 60000); },
    handOver: async (from: string, to: string) => {
      kazoo.release(from);
      await kazoo.waitForEvent(from, 'released', 60000);
      await kazoo.waitForEvent(to, 'acquired', 60000);
    },
    release: async (id: string) => { kazoo.release(id); await kazoo.waitForEvent(id, 'released', 60000); },
  });

  /** Waits until every logged hold of `lock` is closed in the history, then checks them against the logs. */
  async function checkHolds(recording: RecordedLocks, lock: string): Promise<void> {
    const logged = kazoo.events.filter((e) => e.event === 'acquired' && path.dirname(e.node ?? '') === lock);
    const closed = () => recording.holdsOf(lock).filter((h) => h.end !== undefined).length;
    await eventually(() => closed() >= logged.length && ![...recording.recorder.history.open.values()].some((i) => i.lock === lock), 60000,
      `every hold of ${lock} closed (${closed()} of ${logged.length}; ${recording.diagnosis()})`);
    const intervals = recording.intervalsOf(lock);
    const show = (list: HistoryInterval[]) => list.map((i) => `${i.kind} ${i.node.slice(-3)} ${i.start}${i.startExact ? '' : '~'}..${i.end}${i.endExact ? '' : '~'} ${i.ended}`).join('; ');
    // The server's order is the sequence numbers: the order the clients logged their acquires is not compared.
    const taken = logged.map((e) => path.basename(e.node ?? '?')).sort((x, y) => sequenceOf(x) - sequenceOf(y));
    const holds = recording.holdsOf(lock);
    assert.deepEqual(holds.map((h) => h.node), taken, `${lock}: every logged hold once, in the server's order, none invented (${show(intervals)})`);
    for (let k = 1; k < holds.length; k++) {
      assert.ok((holds[k - 1].end ?? Infinity) <= holds[k].start, `${lock}: ${holds[k - 1].node} and ${holds[k].node} overlap (${show(intervals)})`);
    }
    for (const hold of holds) {
      const session = logged.find((e) => path.basename(e.node ?? '') === hold.node)?.session;
      assert.ok(hold.session === undefined || hold.session === session, `${lock}: ${hold.node} has session ${hold.session}, not ${session}`);
    }
    const waitsNotAcquired = intervals.filter((i) => i.kind === 'wait' && i.ended !== 'acquired' && taken.includes(i.node));
    assert.deepEqual(waitsNotAcquired, [], `${lock}: no wait of a node that held ended otherwise (${show(intervals)})`);
  }

  test('waiters queued before the recording starts: none taken for a holder, no hold lost, none doubled', async () => {
    const lock = '/start/kazoo';
    const queue = contenders(lock);
    await queue.take('s0');
    await queue.join('s1');
    await queue.join('s2');
    const recording = await RecordedLocks.start(zk.connectString, '/start', { serverWatches: false });
    recordings.push(recording);
    const { recorder, session } = recording;
    const isTreeWatch = treeWatchOn('/start');
    // Before the watch is set, untold: s0 hands over to s1, s3 queues behind s2.
    holdRequestsFrom(session.channel, isTreeWatch, async () => {
      await queue.handOver('s0', 's1');
      await queue.join('s3');
    });
    // After it is set, before any read after it answers (the monitor's and the recorder's full read), told.
    holdRequestsFrom(session.channel, isTreeWatch, async () => {
      await eventually(() => recorder.followingEvents.following, 60000, 'the watch set');
      await queue.handOver('s1', 's2');
      await queue.join('s4');
      await queue.handOver('s2', 's3');
      await queue.handOver('s3', 's4');
      await queue.release('s4');
    }, { after: true });
    await recording.following(120000);
    await checkHolds(recording, lock);
    assert.deepEqual(recorder.history.gaps, []);
  });

  test('after a reconnect: what moved while away and what is told before the full read', async () => {
    const lock = '/restart/kazoo';
    const queue = contenders(lock);
    proxy = await startProxy(zk.members[0].clientPort);
    const recording = await RecordedLocks.start(`127.0.0.1:${proxy.port}`, '/restart', { serverWatches: false });
    recordings.push(recording);
    const { recorder, session } = recording;
    await recording.following(60000);
    await queue.take('r0');
    await queue.join('r1');
    await queue.join('r2');
    const waiting = () => [...recorder.history.open.values()].filter((i) => i.lock === lock).map((i) => i.kind).sort().join();
    await eventually(() => waiting() === 'hold,wait,wait', 60000, `the queue recorded (${recording.diagnosis()})`);

    await proxy.refuse(true);
    proxy.cutAll();
    await eventually(() => recorder.history.gaps.length === 1, 60000, 'the gap seen');
    // While away, untold: r0 hands over to r1, r3 queues.
    await queue.handOver('r0', 'r1');
    await queue.join('r3');
    // Back: the watch is set again; what follows it waits until more is told.
    const gate = holdRequestsFrom(session.channel, treeWatchOn('/restart'), async () => {
      await Promise.resolve(); // the recursive watch's own send is listed once this gate has passed it on
      const sent = gate.wire.filter((w) => w === 'send addWatch').length;
      // Answered in the order sent: the last answer is the recursive watch's.
      await eventually(() => gate.wire.filter((w) => w === 'answer addWatch').length >= sent, 60000, 'the watches set again');
      await queue.handOver('r1', 'r2');
      await queue.join('r4');
      await queue.handOver('r2', 'r3');
      await queue.handOver('r3', 'r4');
      await queue.release('r4');
    }, { after: true });
    await proxy.refuse(false);
    await recording.following(120000);
    await checkHolds(recording, lock);
    assert.equal(recorder.history.gaps.length, 1);
  });
});
