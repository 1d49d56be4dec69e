// `zooscope log --locks` for semaphores and fixed leader nodes, after the fact, against the clients' own logs: a
// Curator InterProcessSemaphoreV2 and a kazoo Semaphore of two leases, three contenders each taking and returning a
// lease in loops (the Curator one from its first use: its folders made as it goes), a kazoo contender killed while
// holding (its session expires); a fixed leader node made by one session and deleted, made again by another that
// closes its session, and by a third whose session expires; a lease and a leadership held across a snapshot. Then
// the server's data directory alone tells every logged hold once, on its semaphore or node, none invented, never
// more than two leases at once, each leadership in order with how it ended; the index answers the same. Holds are
// compared as sets (Curator's by their sequence, the server's order), never by the moments the clients logged.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import type { HistoryInterval } from '../../src/zk/history';
import { lockHistoryFromIndex, lockHistoryFromLogs, lockHistoryStart } from '../../src/zk/history/fromServerLogs';
import { LogIndex } from '../../src/zk/serverLogs/logIndex';
import { logSource, readLogSet } from '../../src/zk/serverLogs/logSet';
import { connectOtherClient, type OtherClient } from '../support/clients/zkClient';
import { zooscopeLog } from '../support/clients/zooscopeLog';
import { startProxy } from '../support/fakes/tcpProxy';
import { startStandalone, type ZkCluster } from '../support/servers/zkServer';
import { startCurator } from '../support/thirdParty/curator';
import type { DriverEvent, ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo } from '../support/thirdParty/kazoo';
import { leaseLoop, mostAtOnce } from '../support/thirdParty/semaphoreWorkload';
import { eventually } from '../support/waiting';

const LEASES = 2;
const WORKERS = 3;
const CYCLES = 4;
const CURATOR = '/rec/curator';
const KAZOO = '/rec/kazoo';
const LEADER = '/rec/leader';

interface LocksJson { intervals: HistoryInterval[]; figures: { lock: string; acquisitions: number; sessionLosses: number }[] }

async function locksOf(dir: string, root: string): Promise<LocksJson> {
  const { code, lines, errors } = await zooscopeLog([dir, '--locks', root, '--json']);
  assert.deepEqual(errors, []);
  assert.equal(code, 0);
  return JSON.parse(lines.join('')) as LocksJson;
}

const holdsIn = (result: LocksJson, lock: string) => result.intervals.filter((i) => i.kind === 'hold' && i.lock === lock);
const shownHold = (h: HistoryInterval) => `${h.lock} ${h.node} ${h.session} ${h.start}${h.startExact ? '' : '~'}-${h.end} ${h.ended}`;

describe('lock history of semaphores and fixed leader nodes from the server\'s logs, against the clients\' logs', () => {
  let zk: ZkCluster;
  let temp: string;
  const drivers: ThirdPartyClient[] = [];
  const others: OtherClient[] = [];
  let curator: ThirdPartyClient;
  let kazoo: ThirdPartyClient;
  let doomed: ThirdPartyClient;
  /** The leader node's owners in the order they made it, and how each went. */
  const leaders: { session: string; ended: string }[] = [];
  /** What was held across a snapshot: the leadership's session and the two leases. */
  const acrossSnapshot: { leader?: string; leases: string[]; fromZxid: bigint; toZxid: bigint } = { leases: [], fromZxid: 0n, toZxid: 0n };

  before(async () => {
    // snapCount 40: several log files and snapshots, as a server that has run a while has.
    zk = await startStandalone({ systemProperties: { 'zookeeper.snapCount': '40' } });
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-logrecipes-'));
    const setup = await connectOtherClient(zk.connectString);
    others.push(setup);
    await setup.mkdirp('/rec/filler');
    [curator, kazoo, doomed] = await Promise.all([startCurator(zk.connectString), startKazoo(zk.connectString), startKazoo(zk.connectString, 4000)]);
    drivers.push(curator, kazoo, doomed);

    // Held across a snapshot: a leadership and a lease of each semaphore, while enough writes pass for the server
    // to take a snapshot and start a new log.
    const first = await connectOtherClient(zk.connectString);
    others.push(first);
    await first.create(LEADER, 'first', zookeeper.CreateMode.EPHEMERAL);
    acrossSnapshot.leader = first.sessionId;
    curator.acquire('cu-held', 'semaphore', CURATOR, String(LEASES));
    kazoo.acquire('kz-held', 'semaphore', KAZOO, String(LEASES));
    for (const [driver, id] of [[curator, 'cu-held'], [kazoo, 'kz-held']] as const) acrossSnapshot.leases.push(path.basename((await driver.waitForEvent(id, 'acquired', 60000)).node ?? '?'));
    // Marks around the writes: a snapshot between them was taken while all three were held.
    const mark = async (name: string) => BigInt(`0x${(await setup.getData(await setup.create(`/rec/filler/${name}`))).stat.czxid.toString('hex')}`);
    acrossSnapshot.fromZxid = await mark('from');
    for (let i = 0; i < 120; i++) await setup.setData('/rec/filler', `write ${i}`);
    acrossSnapshot.toZxid = await mark('to');
    curator.release('cu-held');
    kazoo.release('kz-held');
    await Promise.all([curator.waitForEvent('cu-held', 'released', 60000), kazoo.waitForEvent('kz-held', 'released', 60000)]);
    await first.remove(LEADER);
    leaders.push({ session: first.sessionId, ended: 'released' });

    // A kazoo contender killed while it holds a lease: its session expires with it.
    doomed.acquire('doomed', 'semaphore', KAZOO, String(LEASES));
    await doomed.waitForEvent('doomed', 'acquired', 60000);
    await doomed.kill();
    await Promise.all([
      ...Array.from({ length: WORKERS }, (_, w) => leaseLoop(kazoo, KAZOO, `kz${w}`, CYCLES, LEASES)),
      ...Array.from({ length: WORKERS }, (_, w) => leaseLoop(curator, CURATOR, `cu${w}`, CYCLES, LEASES)),
      (async () => {
        // Made again by another session, which closes its session (the node goes with it: a release).
        const second = await connectOtherClient(zk.connectString);
        await second.create(LEADER, 'second', zookeeper.CreateMode.EPHEMERAL);
        leaders.push({ session: second.sessionId, ended: 'released' });
        second.close();
        await eventually(async () => (await setup.exists(LEADER)) === undefined, 30000, 'the second leader\'s node gone with its session');
        // And by a third, whose session the server expires: it goes silent (a proxy swallows its pings).
        let silent = false;
        const proxy = await startProxy(zk.members[0].clientPort, { rewriteClientFrame: () => (silent ? null : undefined) });
        const third = await connectOtherClient(`127.0.0.1:${proxy.port}`, 4000);
        await third.create(LEADER, 'third', zookeeper.CreateMode.EPHEMERAL);
        leaders.push({ session: third.sessionId, ended: 'sessionEnded' });
        silent = true;
        await eventually(async () => (await setup.exists(LEADER)) === undefined, 60000, 'the third leader\'s session expired');
        third.close();
        await proxy.close();
      })(),
    ]);
  });

  after(async () => {
    for (const other of others) other.close();
    for (const d of drivers) await d.close().catch(() => undefined);
    await zk?.stop();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  });

  const dataDir = () => path.join(zk.members[0].dir, 'data');
  const acquired = (driver: ThirdPartyClient) => driver.events.filter((e) => e.event === 'acquired');
  const leaseOf = (e: DriverEvent) => path.basename(e.node ?? '?');

  test('zooscope log --locks <semaphore>: every logged lease once, on its semaphore and session, none invented, never more than its leases at once', async (t) => {
    for (const [lock, logged] of [[CURATOR, acquired(curator)], [KAZOO, [...acquired(kazoo), ...acquired(doomed)]]] as const) {
      assert.equal(logged.length, 1 + WORKERS * CYCLES + (lock === KAZOO ? 1 : 0));
      const result = await locksOf(dataDir(), lock);
      const holds = holdsIn(result, lock);
      assert.deepEqual(result.intervals.filter((i) => i.lock !== lock), [], `${lock}: nothing on another queue`);
      // Curator makes its leases one at a time under its internal lock: their sequence numbers are the order taken.
      const order = (names: string[]) => (lock === CURATOR ? names.sort((x, y) => Number(x.slice(-10)) - Number(y.slice(-10))) : names.sort());
      assert.deepEqual(order(holds.map((h) => h.node)), order(logged.map(leaseOf)), `${lock}: the same leases, once each`);
      for (const h of holds) assert.equal(h.session, logged.find((e) => leaseOf(e) === h.node)?.session, `${lock}: ${h.node}'s session`);
      assert.ok(mostAtOnce(holds) <= LEASES, `${lock}: ${mostAtOnce(holds)} leases held at once`);
      const lags = holds.map((h) => logged.find((e) => leaseOf(e) === h.node)!.t - h.start).sort((x, y) => x - y);
      t.diagnostic(`${lock}: logged acquire − hold start from the log, median ${lags[lags.length >> 1]} ms, max ${lags[lags.length - 1]} ms`);
      assert.ok(result.intervals.every((i) => i.startExact && i.endExact === true), `${lock}: every time exact, nothing left open`);
      const doomedLease = leaseOf(acquired(doomed)[0]);
      assert.deepEqual(holds.filter((h) => h.ended !== 'released').map((h) => `${h.node} ${h.ended}`), lock === KAZOO ? [`${doomedLease} sessionEnded`] : []);
      assert.equal(result.figures.find((f) => f.lock === lock)?.acquisitions, logged.length);
    }
  });

  test('zooscope log --locks <fixed node>: each leadership in order, with its owner and how it ended', async () => {
    const result = await locksOf(dataDir(), LEADER);
    assert.deepEqual(result.intervals.map((i) => `${i.kind} ${i.lock} ${i.session} ${i.ended}`), leaders.map((l) => `hold ${LEADER} ${l.session} ${l.ended}`));
    assert.deepEqual(result.intervals.map((i) => i.label), ['first', 'second', 'third']);
    assert.ok(result.intervals.every((i) => i.startExact && i.endExact === true));
    assert.equal(result.figures.find((f) => f.lock === LEADER)?.sessionLosses, 1);
  });

  test('the whole tree at once, read or indexed, and from a later snapshot: the same holds on the same queues', async () => {
    const whole = await locksOf(dataDir(), '/rec');
    const locks = new Set(whole.intervals.map((i) => i.lock));
    assert.deepEqual([...locks].sort(), [CURATOR, KAZOO, LEADER].sort(), 'no queue invented (a semaphore\'s own lock folder is none)');
    const sources = [logSource(path.join(dataDir(), 'version-2'))];
    const start = await lockHistoryStart(sources, '/rec');
    assert.ok(!('problem' in start));
    const fromIndex = await lockHistoryFromIndex(await LogIndex.build(sources), '/rec', start);
    const fromRead = await lockHistoryFromLogs(readLogSet(sources), '/rec', start);
    const sorted = (intervals: Iterable<HistoryInterval>) => [...intervals].filter((i) => i.kind === 'hold').map(shownHold).sort();
    assert.deepEqual(sorted(fromIndex.history.intervals()), sorted(whole.intervals));
    assert.deepEqual(sorted(fromRead.history.intervals()), sorted(whole.intervals));

    // The logs from a snapshot taken while a leadership and two leases were held: those are found there (bounds),
    // and end as the log tells; every other hold after it is as from the whole logs.
    const versions = path.join(dataDir(), 'version-2');
    const names = fs.readdirSync(versions);
    const zxidOf = (name: string) => BigInt(`0x${name.split('.')[1]}`);
    const leaderHold = holdsIn(whole, LEADER)[0];
    const snapshot = names.filter((n) => n.startsWith('snapshot.')).map(zxidOf).sort((a, b) => (a < b ? -1 : 1))
      .find((zxid) => zxid > acrossSnapshot.fromZxid && zxid < acrossSnapshot.toZxid && names.some((n) => n.startsWith('log.') && zxidOf(n) > zxid));
    assert.ok(snapshot !== undefined, `a snapshot between the marks with a log after it: ${names.join()}`);
    const logs = names.filter((n) => n.startsWith('log.')).map(zxidOf).sort((a, b) => (a < b ? -1 : 1));
    const firstLog = logs.filter((zxid) => zxid <= snapshot + 1n).pop()!;
    const copy = path.join(temp, 'from-snapshot');
    fs.mkdirSync(copy);
    for (const name of names) {
      const keep = name === `snapshot.${snapshot.toString(16)}` || (name.startsWith('log.') && zxidOf(name) >= firstLog);
      if (keep) fs.copyFileSync(path.join(versions, name), path.join(copy, name));
    }
    const later = await locksOf(copy, '/rec');
    const laterHolds = later.intervals.filter((i) => i.kind === 'hold');
    const found = laterHolds.filter((h) => !h.startExact).map((h) => `${h.lock} ${h.node} ${h.session} ${h.end} ${h.ended}`).sort();
    const held = whole.intervals.filter((h) => h.kind === 'hold' && (acrossSnapshot.leases.includes(h.node) || h === leaderHold));
    assert.equal(held.length, 3, 'the leadership and the two leases held across the snapshot');
    assert.equal(leaderHold.session, acrossSnapshot.leader);
    assert.deepEqual(found, held.map((h) => `${h.lock} ${h.node} ${h.session} ${h.end} ${h.ended}`).sort(), 'what the snapshot held, to the end the log tells');
    assert.deepEqual(laterHolds.filter((h) => h.startExact).map(shownHold).sort(), sorted(whole.intervals).filter((line) => !held.some((h) => line === shownHold(h))));
  });
});
