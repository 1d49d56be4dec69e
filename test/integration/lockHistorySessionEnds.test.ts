// How a holder's node went, told from the leader's session tracker, with real clients: a kazoo holder killed (its
// session expires after its timeout) ends `sessionEnded`, with a "session lost" mark in the trace; a holder that
// releases and stays ends `released`; holders that release and close at once, close without deleting, or are frozen
// (SIGSTOP) for less than their timeout and then release are never `sessionEnded`. Each case waits for the
// recorder's own decision (the end no longer awaited), never for a time.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { writeTraceFromHistory } from '../../src/zk/history';
import { MonitorOptions, RecordedLocks } from '../support/clients/recordedLocks';
import type { ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo } from '../support/thirdParty/kazoo';
import { eventually, sleep } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startEnsemble, startStandalone, ZkCluster } from '../support/servers/zkServer';

const KAZOO_TIMEOUT_MS = 12000;
const SLOW_POLL_HOLDER_TIMEOUT_MS = 20000;
const kazooNode = (c: string) => `${c.repeat(32)}__lock__`;

/** Holders of the locks under /ends, each waited for until the recording has its hold with its session. */
function holders(zk: () => ZkCluster, recording: () => RecordedLocks) {
  const drivers: ThirdPartyClient[] = [];
  const others: OtherClient[] = [];
  return {
    /** A kazoo client (session timeout `timeoutMs`) holding `/ends/<lock>`. */
    async kazoo(lock: string, timeoutMs = KAZOO_TIMEOUT_MS): Promise<{ driver: ThirdPartyClient; node: string; session: string }> {
      const driver = await startKazoo(zk().connectString, timeoutMs);
      drivers.push(driver);
      driver.acquire(lock, 'mutex', `/ends/${lock}`);
      const acquired = await driver.waitForEvent(lock, 'acquired', 60000);
      await eventually(() => recording().holdOf(acquired.node as string)?.session === acquired.session, 30000, `${lock}'s hold recording with its session`);
      return { driver, node: acquired.node as string, session: acquired.session as string };
    },
    /** A plain client's node named as kazoo names its lock nodes, under `/ends/<lock>`. */
    async node(lock: string, letter: string): Promise<{ client: OtherClient; node: string }> {
      const client = await connectOtherClient(zk().connectString, 12000);
      others.push(client);
      const node = await client.create(`/ends/${lock}/${kazooNode(letter)}`, lock, zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
      await eventually(() => recording().holdOf(node)?.session === client.sessionId, 30000, `${lock}'s hold recording with its session`);
      return { client, node };
    },
    async close(): Promise<void> {
      for (const d of drivers) await d.close().catch(() => undefined);
      for (const o of others) o.close();
    },
  };
}

/** Folders /ends/<lock> for each lock, then a recording of /ends following the events (a poll every 250 ms by default). */
async function recordEnds(zk: ZkCluster, locks: string[], options: MonitorOptions): Promise<RecordedLocks> {
  const setup = await connectOtherClient(zk.connectString);
  for (const lock of locks) await setup.mkdirp(`/ends/${lock}`);
  setup.close();
  const recording = await RecordedLocks.start(zk.connectString, '/ends', { pollIntervalMs: 250, ...options });
  await recording.following();
  return recording;
}

describe('lock history: a session loss told apart from a release', () => {
  let zk: ZkCluster;
  let recording: RecordedLocks;
  const holder = holders(() => zk, () => recording);

  before(async () => {
    zk = await startStandalone();
    // The AdminServer's dump tells each session's expiry time; the four-letter one only a wall date to the second.
    recording = await recordEnds(zk, ['killed', 'stays', 'closes', 'frozen', 'abandoned'], { adminPort: zk.members[0].adminPort });
  });

  after(async () => {
    recording?.close();
    await holder.close();
    await zk?.stop();
  });

  test('a holder killed while holding: its session expires and the hold ends as a session loss', async () => {
    const { driver, node } = await holder.kazoo('killed');
    await driver.kill();
    const hold = await recording.decidedHold(node, 'the killed holder\'s end told', KAZOO_TIMEOUT_MS + 60000);
    assert.equal(hold.ended, 'sessionEnded');
    assert.equal(hold.endExact, true);
    let trace = '';
    await writeTraceFromHistory(recording.recorder.history, (chunk) => { trace += chunk; });
    const { traceEvents } = JSON.parse(trace) as { traceEvents: { name: string; args?: { session?: string } }[] };
    assert.ok(traceEvents.some((e) => e.name === 'session lost' && e.args?.session === hold.session), 'a "session lost" mark for the killed holder');
  });

  test('a holder that releases and stays connected: released', async () => {
    const { client, node } = await holder.node('stays', 'a');
    await client.remove(node);
    const hold = await recording.decidedHold(node, 'the release told');
    assert.equal(hold.ended, 'released');
  });

  test('a holder that releases and closes its session at once: never a session loss', async () => {
    const { driver, node } = await holder.kazoo('closes');
    driver.release('closes'); // kazoo's driver releases, then stops and closes its client
    await driver.waitForEvent('closes', 'released', 60000);
    const hold = await recording.decidedHold(node, 'the release-and-close told');
    assert.ok(hold.ended === 'released' || hold.ended === 'unknown', `ended ${hold.ended}`);
  });

  test('a holder frozen for less than its timeout, then resumed and released: never a session loss', async () => {
    const { driver, node } = await holder.kazoo('frozen');
    const pid = driver.pid as number;
    process.kill(pid, 'SIGSTOP');
    try {
      await sleep(KAZOO_TIMEOUT_MS / 2); // the workload: silent past its pings, well inside its timeout
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    driver.release('frozen');
    await driver.waitForEvent('frozen', 'released', 60000);
    const hold = await recording.decidedHold(node, 'the frozen holder\'s release told');
    assert.notEqual(hold.ended, 'sessionEnded');
  });

  test('a holder that closes its session without deleting its node: never a wrong claim', async () => {
    const { client, node } = await holder.node('abandoned', 'a');
    client.close();
    const hold = await recording.decidedHold(node, 'the closed session\'s end told');
    assert.ok(hold.ended === 'unknown', `ended ${hold.ended}`);
    assert.deepEqual(recording.monitorErrors, []);
  });
});

// In an ensemble only the leader's tracker holds every session, and a follower may apply a delete before the leader:
// the killed holder is still told lost, and a release by a session that stays still told released.
describe('lock history in an ensemble: a session loss told apart from a release', () => {
  let zk: ZkCluster;
  let recording: RecordedLocks;
  const holder = holders(() => zk, () => recording);

  before(async () => {
    zk = await startEnsemble(3);
    const adminPorts = Object.fromEntries(zk.members.map((m) => [m.address, m.adminPort as number]));
    recording = await recordEnds(zk, ['killed', 'stays'], { adminPorts });
  });

  after(async () => {
    recording?.close();
    await holder.close();
    await zk?.stop();
  });

  test('a holder killed while holding: a session loss', async () => {
    const { driver, node } = await holder.kazoo('killed');
    await driver.kill();
    const hold = await recording.decidedHold(node, 'the killed holder\'s end told', KAZOO_TIMEOUT_MS + 60000);
    assert.equal(hold.ended, 'sessionEnded');
  });

  test('a holder that releases and stays connected: released', async () => {
    const { client, node } = await holder.node('stays', 'b');
    await client.remove(node);
    const hold = await recording.decidedHold(node, 'the release told');
    assert.equal(hold.ended, 'released');
  });
});

// The regular poll may read the tracker before a killed holder's last ticks and next after its expiry: then no
// sighting proves the loss. A sighting of it connected nowhere makes the recorder ask the monitor for a reading in
// those last ticks. Here the regular poll is a minute apart, longer than the holder's whole timeout (20 s: however
// long after its last ping the holder is killed, a reading in its last ticks can prove the loss).
describe('lock history with a slow poll: the monitor reads the tracker in a lost holder\'s last ticks', () => {
  let zk: ZkCluster;
  let recording: RecordedLocks;
  const holder = holders(() => zk, () => recording);

  before(async () => {
    zk = await startStandalone();
    recording = await recordEnds(zk, ['killed', 'poke'], { pollIntervalMs: 60000, adminPort: zk.members[0].adminPort });
  });

  after(async () => {
    recording?.close();
    await holder.close();
    await zk?.stop();
  });

  test('a holder killed between two regular polls: its hold still ends as a session loss', async () => {
    const { driver, node, session } = await holder.kazoo('killed', SLOW_POLL_HOLDER_TIMEOUT_MS);
    let disconnectedSeen = false;
    const stop = recording.monitor.onTables(({ tables }) => {
      if (tables.every((t) => t.connections !== undefined && !t.connections.has(session))) disconnectedSeen = true;
    });
    await driver.kill();
    // A queue that changes makes the monitor read the tables soon: once with the holder connected nowhere.
    const poker = await connectOtherClient(zk.connectString);
    try {
      for (let i = 0; !disconnectedSeen; i++) {
        await poker.remove(await poker.create(`/ends/poke/${kazooNode('p')}`, 'poke', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL));
        await eventually(() => disconnectedSeen, 3000, 'a reading with the holder connected nowhere').catch(() => undefined);
        assert.ok(i < 20, 'no reading showed the killed holder connected nowhere');
      }
    } finally {
      stop();
      poker.close();
    }
    const hold = await recording.decidedHold(node, 'the killed holder\'s end told', SLOW_POLL_HOLDER_TIMEOUT_MS + 60000);
    assert.equal(hold.ended, 'sessionEnded');
  });
});
