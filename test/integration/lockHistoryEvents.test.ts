// The recorder follows every create and delete the server tells, not the state after a debounce: two clients take
// a kazoo-style lock in turns with no hold time at all (create, create behind it, release, release), each step as
// soon as the server answered the last. Every hold is recorded once, in the order taken, with the wait before it,
// none invented, none overlapping, every time exact; a session is either the node's own or not claimed.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import type { HistoryInterval } from '../../src/zk/history';
import { RecordedLocks } from '../support/clients/recordedLocks';
import { eventually } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;
const CYCLES = 25;
const kazooNode = (c: string) => `${c.repeat(32)}__lock__`;

describe('lock history from the events the server tells', () => {
  let zk: ZkCluster;
  let recording: RecordedLocks;
  let a: OtherClient;
  let b: OtherClient;

  before(async () => {
    zk = await startStandalone();
    a = await connectOtherClient(zk.connectString, 20000);
    b = await connectOtherClient(zk.connectString, 20000);
    await a.mkdirp('/fast/lock');
    recording = await RecordedLocks.start(zk.connectString, '/fast', { serverWatches: false });
    // From here every create and delete is followed.
    await recording.following();
  });

  after(async () => {
    recording?.close();
    a?.close();
    b?.close();
    await zk?.stop();
  });

  test('holds taken and released faster than the monitor reads are all recorded, in order, exact, none invented', async () => {
    const taken: { node: string; session: string }[] = [];
    const waited: string[] = [];
    for (let i = 0; i < CYCLES; i++) {
      const first = await a.create(`/fast/lock/${kazooNode('a')}`, `a${i}`, EPH_SEQ);
      const second = await b.create(`/fast/lock/${kazooNode('b')}`, `b${i}`, EPH_SEQ);
      await a.remove(first);
      await b.remove(second);
      taken.push({ node: path.basename(first), session: a.sessionId }, { node: path.basename(second), session: b.sessionId });
      waited.push(path.basename(second));
    }
    const { recorder, monitorErrors } = recording;
    const intervals = () => recording.intervalsOf('/fast/lock');
    const closedHolds = () => intervals().filter((i) => i.kind === 'hold' && i.end !== undefined);
    await eventually(() => closedHolds().length >= taken.length && recorder.history.open.size === 0, 60000,
      `every hold closed (closed ${closedHolds().length} of ${taken.length}; open ${recorder.history.open.size}; errors ${JSON.stringify(monitorErrors)})`);

    const holds = intervals().filter((i) => i.kind === 'hold').sort(byStartThenId);
    assert.deepEqual(holds.map((h) => h.node), taken.map((t) => t.node), 'the same holds, once each, in the order taken');
    for (let k = 1; k < holds.length; k++) {
      assert.ok((holds[k - 1].end ?? Infinity) <= holds[k].start, `${holds[k - 1].node} and ${holds[k].node} overlap`);
    }
    assert.ok(holds.every((h) => h.startExact && h.endExact), 'every hold time exact (told as it happened)');
    holds.forEach((h, k) => assert.ok(h.session === undefined || h.session === taken[k].session, `${h.node}: session ${h.session}, not its owner's`));
    const waits = intervals().filter((i) => i.kind === 'wait').sort(byStartThenId);
    assert.deepEqual(waits.map((w) => `${w.node} ${w.ended}`), waited.map((node) => `${node} acquired`), 'each second client waited, then acquired');
    // The hand-over: each wait ends where the hold before it ended, and its own hold begins there.
    for (const wait of waits) {
      const own = holds.find((h) => h.node === wait.node);
      assert.equal(own?.start, wait.end, `${wait.node}: its hold begins where its wait ends`);
    }
    assert.deepEqual(recorder.history.gaps, []);
  });
});

const byStartThenId = (x: HistoryInterval, y: HistoryInterval) => x.start - y.start || x.id - y.id;
