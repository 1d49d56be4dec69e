// Semaphores and a fixed leader node recorded from the server's events, against the clients' own logs: Curator
// (InterProcessSemaphoreV2) and kazoo (Semaphore) contenders of two leases each take and return a lease in loops
// with no hold time at all, three at a time, logging their own acquire; a third client creates and deletes one
// ephemeral leader node in a loop. The history holds every logged hold once, in the server's order, invents none, and
// never more holders at once than the semaphore's leases. Order and counts are compared, never times; the order is the
// server's (a Curator lease's sequence number), never the order the clients logged (two leases taken a few ms apart
// are logged in whichever order the scheduler ran the clients). A kazoo lease has no sequence number: its leases are
// compared as a set.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { RecordedLocks } from '../support/clients/recordedLocks';
import { startCurator } from '../support/thirdParty/curator';
import type { DriverEvent, ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo } from '../support/thirdParty/kazoo';
import { leaseLoop, mostAtOnce } from '../support/thirdParty/semaphoreWorkload';
import { eventually } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const LEASES = 2;
const WORKERS = 3;
const CYCLES = 6;
const LEADER_CYCLES = 25;
const LEADER = '/sem/app/leader';

describe('lock history of semaphores and a fixed leader node, from the events, against the clients\' logs', () => {
  let zk: ZkCluster;
  let recording: RecordedLocks;
  let leaderClient: OtherClient;
  const drivers: ThirdPartyClient[] = [];

  before(async () => {
    zk = await startStandalone();
    const setup = await connectOtherClient(zk.connectString);
    // Curator's leases and locks folders made up front (as persistent folders): the semaphore is there to find
    // before its first lease, and the server's container sweep cannot take them between leases.
    await setup.mkdirp('/sem/curator/leases');
    await setup.mkdirp('/sem/curator/locks');
    await setup.mkdirp('/sem/app');
    setup.close();
    leaderClient = await connectOtherClient(zk.connectString, 20000);
    await leaderClient.create(LEADER, 'f-first', zookeeper.CreateMode.EPHEMERAL);
  });

  after(async () => {
    recording?.close();
    leaderClient?.close();
    for (const d of drivers) await d.close().catch(() => undefined);
    await zk?.stop();
  });

  const holdsOf = (lock: string) => recording.holdsOf(lock);
  const diagnosis = () => recording.diagnosis();

  test('every logged lease and leadership is recorded once, in the server\'s order; none invented; never more holders than leases', async () => {
    const [kazoo, curator] = await Promise.all([startKazoo(zk.connectString), startCurator(zk.connectString)]);
    drivers.push(kazoo, curator);
    // A kazoo semaphore is told by its leases: one is held while the monitor first looks.
    kazoo.acquire('kz-first', 'semaphore', '/sem/kazoo', String(LEASES));
    await kazoo.waitForEvent('kz-first', 'acquired', 60000);

    recording = await RecordedLocks.start(zk.connectString, '/sem', { serverWatches: false });
    const { recorder } = recording;
    await eventually(() => recorder.followingEvents.synced && holdsOf('/sem/kazoo').length === 1 && holdsOf(LEADER).length === 1, 60000,
      `the recorder following the events, the first lease and leadership found (${diagnosis()})`);
    kazoo.release('kz-first');
    await kazoo.waitForEvent('kz-first', 'released', 60000);

    // The leader node: created and deleted again at once, each step as soon as the server answered the last.
    const leaderSessions: string[] = [leaderClient.sessionId];
    const leaderLoop = (async () => {
      await leaderClient.remove(LEADER);
      for (let i = 0; i < LEADER_CYCLES; i++) {
        await leaderClient.create(LEADER, `f${String(i).padStart(3, '0')}`, zookeeper.CreateMode.EPHEMERAL);
        leaderSessions.push(leaderClient.sessionId);
        await leaderClient.remove(LEADER);
      }
    })();
    await Promise.all([
      ...Array.from({ length: WORKERS }, (_, w) => leaseLoop(kazoo, '/sem/kazoo', `kz${w}`, CYCLES, LEASES)),
      ...Array.from({ length: WORKERS }, (_, w) => leaseLoop(curator, '/sem/curator', `cu${w}`, CYCLES, LEASES)),
      leaderLoop,
    ]);

    // Each driver's own acquires (Curator logs the lease's name only).
    const logged = (lock: string) => (lock === '/sem/kazoo' ? kazoo : curator).events.filter((e) => e.event === 'acquired');
    const nameOf = (e: DriverEvent) => path.basename(e.node ?? '?');
    const closedHolds = (lock: string) => holdsOf(lock).filter((h) => h.end !== undefined).length;
    await eventually(() => closedHolds('/sem/kazoo') >= logged('/sem/kazoo').length && closedHolds('/sem/curator') >= logged('/sem/curator').length
      && closedHolds(LEADER) >= LEADER_CYCLES + 1 && recorder.history.open.size === 0, 60000,
    `every hold closed (kazoo ${closedHolds('/sem/kazoo')} of ${logged('/sem/kazoo').length}, curator ${closedHolds('/sem/curator')} of ${logged('/sem/curator').length}, leader ${closedHolds(LEADER)} of ${LEADER_CYCLES + 1}; ${diagnosis()})`);

    for (const lock of ['/sem/kazoo', '/sem/curator']) {
      const expected = logged(lock);
      assert.equal(expected.length, (lock === '/sem/kazoo' ? 1 : 0) + WORKERS * CYCLES);
      const recorded = holdsOf(lock);
      if (lock === '/sem/curator') {
        // Curator makes its leases one at a time under its internal lock: their sequence numbers are the order taken.
        const bySequence = expected.map(nameOf).sort((x, y) => Number(x.slice(-10)) - Number(y.slice(-10)));
        assert.deepEqual(recorded.map((h) => h.node), bySequence, `${lock}: the same leases, once each, in the server's order (${diagnosis()})`);
      } else {
        assert.deepEqual(recorded.map((h) => h.node).sort(), expected.map(nameOf).sort(), `${lock}: the same leases, once each (${diagnosis()})`);
      }
      for (const h of recorded) {
        const session = expected.find((e) => nameOf(e) === h.node)?.session;
        assert.ok(h.session === undefined || h.session === session, `${lock}: ${h.node} has session ${h.session}, not ${session}`);
      }
      assert.ok(mostAtOnce(recorded) <= LEASES, `${lock}: ${mostAtOnce(recorded)} holders at once`);
    }
    const leaderHolds = holdsOf(LEADER);
    assert.equal(leaderHolds.length, LEADER_CYCLES + 1, 'every leadership once, none invented');
    assert.ok(leaderHolds.every((h) => h.session === undefined || h.session === leaderClient.sessionId), 'only the leader client\'s session');
    // The label (the node's data, read when its create was told) says which leadership it was, where the read found it.
    const labels = leaderHolds.map((h) => h.label).filter((l): l is string => l !== undefined && l !== 'f-first');
    assert.deepEqual(labels, [...labels].sort(), 'leaderships in the order made');
    assert.ok(leaderHolds.slice(1).every((h) => h.startExact && h.endExact), 'each leadership from its create to its delete, as told');
    assert.equal(leaderSessions.length, LEADER_CYCLES + 1);
    assert.deepEqual(recorder.history.gaps, []);
  });
});
