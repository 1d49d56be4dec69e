// How a holder's node went, told from the leader's session tracker, with real clients: a kazoo holder killed (its
// session expires after its timeout) ends `sessionEnded`, with a "session lost" mark in the trace; a holder that
// releases and stays ends `released`; holders that release and close at once, close without deleting, or are frozen
// (SIGSTOP) for less than their timeout and then release are never `sessionEnded`. Each case waits for the
// recorder's own decision (the end no longer awaited), never for a time.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { LockMonitor } from '../../src/zk/analysis';
import { followMonitor, HistoryInterval, LockRecorder, writeTraceFromHistory } from '../../src/zk/history';
import { ZkSession } from '../../src/zk/session/session';
import type { ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo } from '../support/thirdParty/kazoo';
import { eventually, sleep } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/zkClient';
import { startEnsemble, startStandalone, ZkCluster } from '../support/zkServer';

const KAZOO_TIMEOUT_MS = 12000;
const kazooNode = (c: string) => `${c.repeat(32)}__lock__`;

describe('lock history: a session loss told apart from a release', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let monitor: LockMonitor;
  const recorder = new LockRecorder();
  const drivers: ThirdPartyClient[] = [];
  const others: OtherClient[] = [];
  const monitorErrors: string[] = [];

  before(async () => {
    zk = await startStandalone();
    const setup = await connectOtherClient(zk.connectString);
    for (const lock of ['killed', 'stays', 'closes', 'frozen', 'abandoned']) await setup.mkdirp(`/ends/${lock}`);
    setup.close();
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 20000 });
    await session.open();
    // The AdminServer's dump tells each session's expiry time; the four-letter one only a wall date to the second.
    monitor = new LockMonitor(session, '/ends', { pollIntervalMs: 250, adminPort: zk.members[0].adminPort });
    monitor.onError((error) => monitorErrors.push(error.message));
    followMonitor(session, monitor, recorder);
    monitor.start();
    await eventually(() => recorder.followingEvents.synced, 30000, 'the events followed');
  });

  after(async () => {
    monitor?.dispose();
    session?.close();
    for (const d of drivers) await d.close().catch(() => undefined);
    for (const o of others) o.close();
    await zk?.stop();
  });

  const holdOf = (node: string) => [...recorder.history.closed, ...recorder.history.open.values()]
    .find((i) => i.kind === 'hold' && `${i.lock}/${i.node}` === node);

  /** `node`'s hold once it has ended and the recorder has told how (no longer awaited). */
  async function decidedHold(node: string, what: string, timeoutMs = 60000): Promise<HistoryInterval> {
    await eventually(() => {
      const hold = holdOf(node);
      return !!hold && hold.end !== undefined && !recorder.awaitsEnd(hold);
    }, timeoutMs, what);
    return holdOf(node) as HistoryInterval;
  }

  async function kazooHolder(lock: string): Promise<{ driver: ThirdPartyClient; node: string; session: string }> {
    const driver = await startKazoo(zk.connectString, KAZOO_TIMEOUT_MS);
    drivers.push(driver);
    driver.acquire(lock, 'mutex', `/ends/${lock}`);
    const acquired = await driver.waitForEvent(lock, 'acquired', 60000);
    await eventually(() => holdOf(acquired.node as string)?.session === acquired.session, 30000, `${lock}'s hold recorded with its session`);
    return { driver, node: acquired.node as string, session: acquired.session as string };
  }

  async function nodeHolder(lock: string): Promise<{ client: OtherClient; node: string }> {
    const client = await connectOtherClient(zk.connectString, 12000);
    others.push(client);
    const node = await client.create(`/ends/${lock}/${kazooNode('a')}`, lock, zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    await eventually(() => holdOf(node)?.session === client.sessionId, 30000, `${lock}'s hold recorded with its session`);
    return { client, node };
  }

  test('a holder killed while holding: its session expires and the hold ends as a session loss', async () => {
    const { driver, node } = await kazooHolder('killed');
    await driver.kill();
    const hold = await decidedHold(node, 'the killed holder\'s end told', KAZOO_TIMEOUT_MS + 60000);
    assert.equal(hold.ended, 'sessionEnded');
    assert.equal(hold.endExact, true);
    let trace = '';
    await writeTraceFromHistory(recorder.history, (chunk) => { trace += chunk; });
    const { traceEvents } = JSON.parse(trace) as { traceEvents: { name: string; args?: { session?: string } }[] };
    const events = traceEvents;
    assert.ok(events.some((e) => e.name === 'session lost' && e.args?.session === hold.session), 'a "session lost" mark for the killed holder');
  });

  test('a holder that releases and stays connected: released', async () => {
    const { client, node } = await nodeHolder('stays');
    await client.remove(node);
    const hold = await decidedHold(node, 'the release told');
    assert.equal(hold.ended, 'released');
  });

  test('a holder that releases and closes its session at once: never a session loss', async () => {
    const { driver, node } = await kazooHolder('closes');
    driver.release('closes'); // kazoo's driver releases, then stops and closes its client
    await driver.waitForEvent('closes', 'released', 60000);
    const hold = await decidedHold(node, 'the release-and-close told');
    assert.ok(hold.ended === 'released' || hold.ended === 'unknown', `ended ${hold.ended}`);
  });

  test('a holder frozen for less than its timeout, then resumed and released: never a session loss', async () => {
    const { driver, node } = await kazooHolder('frozen');
    const pid = driver.pid as number;
    process.kill(pid, 'SIGSTOP');
    try {
      await sleep(KAZOO_TIMEOUT_MS / 2); // the workload: silent past its pings, well inside its timeout
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    driver.release('frozen');
    await driver.waitForEvent('frozen', 'released', 60000);
    const hold = await decidedHold(node, 'the frozen holder\'s release told');
    assert.notEqual(hold.ended, 'sessionEnded');
  });

  test('a holder that closes its session without deleting its node: never a wrong claim', async () => {
    const { client, node } = await nodeHolder('abandoned');
    client.close();
    const hold = await decidedHold(node, 'the closed session\'s end told');
    assert.ok(hold.ended === 'unknown', `ended ${hold.ended}`);
    assert.deepEqual(monitorErrors, []);
  });
});

// In an ensemble only the leader's tracker holds every session, and a follower may apply a delete before the leader:
// the killed holder is still told lost, and a release by a session that stays still told released.
describe('lock history in an ensemble: a session loss told apart from a release', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let monitor: LockMonitor;
  const recorder = new LockRecorder();
  const drivers: ThirdPartyClient[] = [];
  const others: OtherClient[] = [];

  before(async () => {
    zk = await startEnsemble(3);
    const setup = await connectOtherClient(zk.connectString);
    for (const lock of ['killed', 'stays']) await setup.mkdirp(`/ends/${lock}`);
    setup.close();
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 20000 });
    await session.open();
    const adminPorts = Object.fromEntries(zk.members.map((m) => [m.address, m.adminPort as number]));
    monitor = new LockMonitor(session, '/ends', { pollIntervalMs: 250, adminPorts });
    followMonitor(session, monitor, recorder);
    monitor.start();
    await eventually(() => recorder.followingEvents.synced, 30000, 'the events followed');
  });

  after(async () => {
    monitor?.dispose();
    session?.close();
    for (const d of drivers) await d.close().catch(() => undefined);
    for (const o of others) o.close();
    await zk?.stop();
  });

  const holdOf = (node: string) => [...recorder.history.closed, ...recorder.history.open.values()]
    .find((i) => i.kind === 'hold' && `${i.lock}/${i.node}` === node);
  async function decidedHold(node: string, what: string, timeoutMs = 60000): Promise<HistoryInterval> {
    await eventually(() => {
      const hold = holdOf(node);
      return !!hold && hold.end !== undefined && !recorder.awaitsEnd(hold);
    }, timeoutMs, what);
    return holdOf(node) as HistoryInterval;
  }

  test('a holder killed while holding: a session loss', async () => {
    const driver = await startKazoo(zk.connectString, KAZOO_TIMEOUT_MS);
    drivers.push(driver);
    driver.acquire('killed', 'mutex', '/ends/killed');
    const acquired = await driver.waitForEvent('killed', 'acquired', 60000);
    const node = acquired.node as string;
    await eventually(() => holdOf(node)?.session === acquired.session, 30000, 'the hold recorded with its session');
    await driver.kill();
    const hold = await decidedHold(node, 'the killed holder\'s end told', KAZOO_TIMEOUT_MS + 60000);
    assert.equal(hold.ended, 'sessionEnded');
  });

  test('a holder that releases and stays connected: released', async () => {
    const client = await connectOtherClient(zk.connectString, 12000);
    others.push(client);
    const node = await client.create(`/ends/stays/${kazooNode('b')}`, 'stays', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    await eventually(() => holdOf(node)?.session === client.sessionId, 30000, 'the hold recorded with its session');
    await client.remove(node);
    const hold = await decidedHold(node, 'the release told');
    assert.equal(hold.ended, 'released');
  });
});
