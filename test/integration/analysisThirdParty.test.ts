// The analysis of queues held and waited on by REAL third-party clients: Curator 5.4.0, ZooKeeper's own
// WriteLock/LeaderElectionSupport recipes, kazoo 2.8.0; a deadlock between two kazoo sessions across two locks; and a
// 3-server ensemble with the waiters on different members.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { analyzeLocks, AnalyzeOptions, LockAnalysis, LockQueue } from '../../src/zk/analysis';
import { ZkSession } from '../../src/zk/session/session';
import { startCurator } from '../support/thirdParty/curator';
import { DriverEvent, ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo, SYSTEM_PYTHON } from '../support/thirdParty/kazoo';
import { startProxy } from '../support/fakes/tcpProxy';
import { eventually } from '../support/clients/zkClient';
import { startEnsemble, startStandalone, ZkCluster } from '../support/servers/zkServer';

interface Joined { id: string; node: string; session: string }

/** Acquires in order: the first `held` must get it, the others must be seen waiting (their node exists). */
async function contend(driver: ThirdPartyClient, kind: string, lockPath: string, ids: string[], extra = '', held = 1): Promise<Joined[]> {
  const joined: Joined[] = [];
  for (const [i, id] of ids.entries()) {
    driver.acquire(id, kind, lockPath, extra);
    const e: DriverEvent = await driver.waitFor((x) => x.id === id && (x.event === (i < held ? 'acquired' : 'waiting')), 60000, `${id} ${i < held ? 'acquired' : 'waiting'}`);
    joined.push({ id, node: e.node!, session: e.session! });
  }
  return joined;
}

/** Analyses until `ready` accepts it (a client sets its watch a moment after its node appears). */
async function analyseUntil(session: ZkSession, root: string, options: AnalyzeOptions, ready: (a: LockAnalysis) => boolean): Promise<LockAnalysis> {
  let last: LockAnalysis | undefined;
  try {
    await eventually(async () => ready(last = await analyzeLocks(session, root, options)), 60000, `analysis of ${root}`);
  } catch (error) {
    throw new Error(`${(error as Error).message}: ${JSON.stringify(last, null, 1)}`);
  }
  return last!;
}

const allSeen = (q: LockQueue | undefined) => !!q && q.participants.filter((p) => p.role === 'waiter').every((p) => p.waitsFor.every((w) => p.watches.some((x) => x.path === w && x.source === 'server')));
const single = (a: LockAnalysis) => a.queues[0];

describe('analysis of real third-party clients (standalone server)', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let curator: ThirdPartyClient;
  let kazoo: ThirdPartyClient;
  let options: AnalyzeOptions;

  before(async () => {
    // Sessions that outlive a starved machine (tickTime 6 s allows up to 120 s): an expired one would fail the
    // analysis, and the clients' nodes would go with theirs.
    zk = await startStandalone({ adminServer: true, tickTime: 6000 });
    session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 10000, sessionTimeoutMs: 120000 });
    await session.open();
    options = { adminPorts: { [zk.members[0].address]: zk.members[0].adminPort! } };
    [curator, kazoo] = await Promise.all([startCurator(zk.connectString), startKazoo(zk.connectString, 60000)]);
  });

  after(async () => {
    await Promise.all([curator?.close(), kazoo?.close()]);
    session?.close();
    await zk?.stop();
  });

  test('Curator InterProcessMutex: order, owners, labels, each waiter seen watching its predecessor', async () => {
    const [a, b, c] = await contend(curator, 'mutex', '/tp/curator/mutex', ['cm-a', 'cm-b', 'cm-c']);
    const q = single(await analyseUntil(session, '/tp/curator/mutex', options, (x) => allSeen(single(x))));
    assert.equal(q.recipe, 'curator-mutex');
    assert.deepEqual(q.participants.map((p) => [p.path, p.role, p.session, p.label]),
      [[a.node, 'holder', a.session, 'cm-a'], [b.node, 'waiter', b.session, 'cm-b'], [c.node, 'waiter', c.session, 'cm-c']]);
    assert.deepEqual(q.participants.map((p) => p.waitsFor), [[], [a.node], [b.node]]);
    assert.ok(q.participants.every((p) => /^127\.0\.0\.1:\d+$/.test(p.clientAddress ?? '')));
    assert.deepEqual(q.anomalies, []);
  });

  test('Curator InterProcessReadWriteLock: readers share, a writer waits for its predecessor, a later reader for the FIRST writer', async () => {
    const lock = '/tp/curator/rw';
    const [r1, r2] = await contend(curator, 'read', lock, ['rw-r1', 'rw-r2'], '', 2);
    const [w3, w4] = await contend(curator, 'write', lock, ['rw-w3', 'rw-w4'], '', 0);
    const [r5] = await contend(curator, 'read', lock, ['rw-r5'], '', 0);
    const q = single(await analyseUntil(session, lock, options, (x) => allSeen(single(x))));
    assert.equal(q.recipe, 'curator-rwlock');
    assert.deepEqual(q.participants.map((p) => [p.path, p.kind, p.role]),
      [[r1.node, 'read', 'holder'], [r2.node, 'read', 'holder'], [w3.node, 'write', 'waiter'], [w4.node, 'write', 'waiter'], [r5.node, 'read', 'waiter']]);
    assert.deepEqual(q.participants.slice(2).map((p) => p.waitsFor), [[r2.node], [w3.node], [w3.node]]);
  });

  test('Curator InterProcessSemaphoreV2 (2 leases): holders, the next in line (children watch, inferred), the queued (seen)', async () => {
    const sem = '/tp/curator/sem';
    const holders = await contend(curator, 'semaphore', sem, ['s1', 's2'], '2', 2);
    const [next] = await contend(curator, 'semaphore', sem, ['s3'], '2', 0);
    // s4 queues on the internal lock and has no lease node yet: the driver cannot see it waiting; the analysis can.
    curator.acquire('s4', 'semaphore', sem, '2');
    const a = await analyseUntil(session, sem, options, (x) => single(x)?.participants.length === 4 && allSeen({ ...single(x), participants: single(x).participants.slice(3) }));
    const queued = { session: single(a).participants[3].session };
    assert.notEqual(queued.session, next.session);
    assert.ok(![...holders, next].some((h) => h.session === queued.session));
    const q = single(a);
    assert.equal(q.recipe, 'curator-semaphore');
    assert.equal(q.leases, 2);
    assert.deepEqual(q.participants.map((p) => [p.session, p.role]), [...holders.map((h) => [h.session, 'holder']), [next.session, 'waiter'], [queued.session, 'waiter']]);
    assert.deepEqual(q.participants.slice(0, 2).map((p) => p.label), ['s1', 's2']);
    assert.deepEqual(q.participants[2].watches, [{ path: `${sem}/leases`, source: 'inferred' }]);
    assert.ok(a.anomalies.some((x) => x.kind === 'child-watches-invisible'));
    assert.deepEqual(q.anomalies, []);
  });

  test('Curator LeaderLatch and LeaderSelector: elections with one leader', async () => {
    const latch = await contend(curator, 'leader-latch', '/tp/curator/latch', ['l1', 'l2', 'l3']);
    const ql = single(await analyseUntil(session, '/tp/curator/latch', options, (x) => allSeen(single(x))));
    assert.equal(ql.recipe, 'curator-leader-latch');
    assert.deepEqual(ql.participants.map((p) => [p.session, p.role, p.kind]), latch.map((l, i) => [l.session, i === 0 ? 'leader' : 'waiter', 'candidate']));
    const selected = await contend(curator, 'leader-selector', '/tp/curator/leader', ['ls1', 'ls2']);
    const qs = single(await analyseUntil(session, '/tp/curator/leader', options, (x) => allSeen(single(x))));
    assert.equal(qs.recipe, 'curator-leader-selector');
    assert.deepEqual(qs.participants.map((p) => [p.session, p.role]), [[selected[0].session, 'leader'], [selected[1].session, 'waiter']]);
  });

  test('ZooKeeper recipes: WriteLock (x-<session>-, data 0x1234) and LeaderElectionSupport (n_)', async () => {
    const locks = await contend(curator, 'zk-write-lock', '/tp/zk/writelock', ['zw1', 'zw2', 'zw3']);
    const qw = single(await analyseUntil(session, '/tp/zk/writelock', options, (x) => allSeen(single(x))));
    assert.equal(qw.recipe, 'zk-write-lock');
    assert.deepEqual(qw.participants.map((p) => [p.session, p.role]), locks.map((l, i) => [l.session, i === 0 ? 'holder' : 'waiter']));
    assert.ok(qw.participants.every((p) => p.label === '0x1234'), JSON.stringify(qw.participants.map((p) => p.label)));
    // The session id in the name is the owner's, in decimal.
    for (const p of qw.participants) assert.equal(`0x${BigInt(/^x-(-?\d+)-/.exec(p.name)![1]).toString(16)}`, p.session);
    const elected = await contend(curator, 'zk-leader-election', '/tp/zk/election', ['ze1', 'ze2']);
    const qe = single(await analyseUntil(session, '/tp/zk/election', options, (x) => allSeen(single(x))));
    assert.equal(qe.recipe, 'zk-leader-election');
    assert.deepEqual(qe.participants.map((p) => [p.session, p.role]), [[elected[0].session, 'leader'], [elected[1].session, 'waiter']]);
  });

  test('kazoo Lock, read/write lock, Election', async () => {
    const locks = await contend(kazoo, 'mutex', '/tp/kazoo/lock', ['k1', 'k2', 'k3']);
    const ql = single(await analyseUntil(session, '/tp/kazoo/lock', options, (x) => allSeen(single(x))));
    assert.equal(ql.recipe, 'kazoo-lock');
    assert.deepEqual(ql.participants.map((p) => [p.path, p.role, p.label]), locks.map((l, i) => [l.node, i === 0 ? 'holder' : 'waiter', l.id]));
    const [w1] = await contend(kazoo, 'write', '/tp/kazoo/rw', ['kw1']);
    const [r2, w3] = [...await contend(kazoo, 'read', '/tp/kazoo/rw', ['kr2'], '', 0), ...await contend(kazoo, 'write', '/tp/kazoo/rw', ['kw3'], '', 0)];
    const [r4] = await contend(kazoo, 'read', '/tp/kazoo/rw', ['kr4'], '', 0);
    const qrw = single(await analyseUntil(session, '/tp/kazoo/rw', options, (x) => allSeen(single(x))));
    assert.equal(qrw.recipe, 'kazoo-rwlock');
    assert.deepEqual(qrw.participants.map((p) => [p.path, p.kind]), [[w1.node, 'write'], [r2.node, 'read'], [w3.node, 'write'], [r4.node, 'read']]);
    assert.deepEqual(qrw.participants.map((p) => p.waitsFor), [[], [w1.node], [r2.node], [w3.node]]);
    const elected = await contend(kazoo, 'election', '/tp/kazoo/election', ['ke1', 'ke2']);
    const qe = single(await analyseUntil(session, '/tp/kazoo/election', options, (x) => allSeen(single(x))));
    assert.equal(qe.recipe, 'kazoo-election');
    assert.deepEqual(qe.participants.map((p) => [p.session, p.role]), [[elected[0].session, 'leader'], [elected[1].session, 'waiter']]);
  });

  test('kazoo Semaphore: leases from the parent\'s data, the lock holder waits for a lease, the rest on the lock', async () => {
    const sem = '/tp/kazoo/sem';
    const holders = await contend(kazoo, 'semaphore', sem, ['ks1', 'ks2'], '2', 2);
    // Neither has a lease node while it waits (the driver cannot see them waiting): ks3 holds the internal lock
    // and waits for a lease, ks4 queues on that lock.
    kazoo.acquire('ks3', 'semaphore', sem, '2');
    const a3 = await analyseUntil(session, sem, options, (x) => single(x)?.participants.length === 3);
    kazoo.acquire('ks4', 'semaphore', sem, '2');
    const a = await analyseUntil(session, sem, options, (x) => single(x)?.participants.length === 4 && single(x).participants[3].watches.some((w) => w.source === 'server'));
    const q = single(a);
    assert.equal(q.recipe, 'kazoo-semaphore');
    assert.equal(q.leases, 2);
    assert.deepEqual(q.participants.map((p) => [p.session, p.role]).slice(0, 2).sort(), holders.map((h) => [h.session, 'holder']).sort());
    assert.equal(q.participants[2].session, single(a3).participants[2].session);
    assert.deepEqual(q.participants.slice(2).map((p) => p.role), ['waiter', 'waiter']);
    assert.deepEqual(q.participants[3].waitsFor, [q.participants[2].path]);
    assert.ok(q.participants[2].path.startsWith(`${sem}-__lock__/`));
    assert.deepEqual(q.participants[2].watches, [{ path: sem, source: 'inferred' }]);
    assert.deepEqual(q.anomalies, []);
  });

  test('kazoo Semaphore leases whose uuid ends in ten digits (one lease in a hundred) are still its leases', async () => {
    const sem = '/tp/kazoo/sem-digits';
    const hex22 = () => randomBytes(11).toString('hex');
    const digits10 = () => String(randomInt(1e9, 1e10));
    const leases = [`${hex22()}${digits10()}`, `${hex22()}${digits10()}`];
    const holders = await contend(kazoo, 'semaphore', sem, ['kd1'], `2 lease=${leases[0]}`);
    holders.push(...await contend(kazoo, 'semaphore', sem, ['kd2'], `2 lease=${leases[1]}`));
    assert.deepEqual(holders.map((h) => h.node), leases.map((l) => `${sem}/${l}`));
    const q = single(await analyseUntil(session, sem, options, (x) => single(x)?.participants.length === 2));
    assert.equal(q.recipe, 'kazoo-semaphore');
    assert.deepEqual(q.participants.map((p) => [p.path, p.session, p.role]).sort(), holders.map((h) => [h.node, h.session, 'holder']).sort());
  });

  test('a deadlock between two kazoo clients across two locks, and the subtree analysis naming it', async () => {
    const script = path.join(__dirname, '..', '..', '..', 'test', 'support', 'analysisClients', 'kazoo_two_locks.py');
    const start = (first: string, second: string, id: string) => {
      const proc = spawn(SYSTEM_PYTHON, ['-u', script, zk.connectString, first, second, id], { stdio: ['pipe', 'pipe', 'inherit'] });
      const events: Record<string, string>[] = [];
      readline.createInterface({ input: proc.stdout }).on('line', (l) => events.push(JSON.parse(l) as Record<string, string>));
      return { proc, events };
    };
    const p1 = start('/tp/dead/A', '/tp/dead/B', 'p1');
    const p2 = start('/tp/dead/B', '/tp/dead/A', 'p2');
    try {
      await eventually(() => p1.events.length > 0 && p2.events.length > 0, 30000, 'both holding');
      p1.proc.stdin.write('go\n');
      p2.proc.stdin.write('go\n');
      const a = await analyseUntil(session, '/tp/dead', options, (x) => x.deadlocks.length > 0 && x.queues.every(allSeen));
      const sessions = [p1.events[0].session, p2.events[0].session].sort();
      assert.deepEqual(a.deadlocks.length, 1);
      assert.deepEqual([...a.deadlocks[0].sessions].sort(), sessions);
      assert.deepEqual([...a.deadlocks[0].locks].sort(), ['/tp/dead/A', '/tp/dead/B']);
      assert.ok(a.deadlocks[0].clients?.every((c) => c && /^127\.0\.0\.1:\d+$/.test(c)));
      // Each session waits where the other holds.
      const lockOf = (s: string) => a.deadlocks[0].locks[a.deadlocks[0].sessions.indexOf(s)];
      assert.equal(lockOf(p1.events[0].session), '/tp/dead/B');
      assert.equal(lockOf(p2.events[0].session), '/tp/dead/A');
    } finally {
      for (const p of [p1, p2]) p.proc.kill('SIGKILL');
    }
  });
});

describe('analysis of real clients on a 3-server ensemble', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let adminPorts: Record<string, number>;
  const drivers: ThirdPartyClient[] = [];
  before(async () => {
    zk = await startEnsemble(3, { adminServer: true });
    adminPorts = Object.fromEntries(zk.members.map((m) => [m.address, m.adminPort!]));
    // One driver per member, so each contender's session lives on that member.
    drivers.push(...await Promise.all(zk.members.map((m) => startCurator(m.address))));
    session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 10000 });
    await session.open();
  });
  after(async () => {
    session?.close();
    await Promise.all(drivers.map((d) => d.close()));
    await zk?.stop();
  });

  /** A Curator mutex with its holder on the first member and one waiter on each of the others. */
  async function contendAcrossMembers(lock: string, prefix: string): Promise<Joined[]> {
    const joined: Joined[] = [];
    for (const [i, d] of drivers.entries()) joined.push(...await contend(d, 'mutex', lock, [`${prefix}${i}`], '', i === 0 ? 1 : 0));
    return joined;
  }

  /** The queue and what the members say about it are right, whichever source each member was read from. */
  function assertSeenOnEachMember(a: LockAnalysis, joined: Joined[]): void {
    const q = single(a);
    assert.deepEqual(q.participants.map((p) => [p.path, p.session]), joined.map((j) => [j.node, j.session]));
    assert.deepEqual(joined.map((j) => a.sessions.find((s) => s.id === j.session)?.server), zk.members.map((m) => m.address));
    // Each waiter's watch is held by the member its session is connected to.
    for (const [i, j] of joined.entries()) {
      if (i === 0) continue;
      assert.ok(a.sessions.find((s) => s.id === j.session)?.watches.includes(joined[i - 1].node));
    }
    assert.deepEqual(q.anomalies, []);
  }

  test('a Curator holder and waiters on different members: every edge seen on the member that holds it', async () => {
    const joined = await contendAcrossMembers('/tp/ensemble/lock', 'e');
    const a = await analyseUntil(session, '/tp/ensemble/lock', { adminPorts }, (x) => allSeen(single(x)));
    assertSeenOnEachMember(a, joined);
    // An AdminServer that misses the deadline (a loaded machine) is replaced by the words, as designed: either
    // source is right, but every member must have been read by one of them.
    assert.deepEqual(a.servers.map((s) => s.server), zk.members.map((m) => m.address));
    for (const s of a.servers) assert.ok(s.via === 'admin' || s.via === 'fourLetterWords', JSON.stringify(s));
  });

  test('an AdminServer that answers late but within the deadline is used; one that never answers is replaced by the words', async () => {
    const lock = '/tp/ensemble/late';
    const joined = await contendAcrossMembers(lock, 'late');
    await analyseUntil(session, lock, { adminPorts }, (x) => allSeen(single(x)));
    const [lateMember, hungMember, watchedMember] = zk.members;
    // Late for certain: the first member's AdminServer gets nothing until the third member's has been asked its
    // last command (the second 'monitor'), i.e. until the other members' readings are over.
    let othersDone!: () => void;
    const othersDonePromise = new Promise<void>((resolve) => { othersDone = resolve; });
    let watchedMonitors = 0;
    let released!: () => void;
    const never = new Promise<void>((resolve) => { released = resolve; });
    const isHttp = (head: Buffer) => head.toString('latin1').startsWith('GET ');
    const late = await startProxy(lateMember.adminPort!, { holdRaw: (_, head) => (isHttp(head) ? othersDonePromise : undefined) });
    const watched = await startProxy(watchedMember.adminPort!, {
      holdRaw: (_, head) => {
        if (head.toString('latin1').startsWith('GET /commands/monitor ') && ++watchedMonitors === 2) othersDone();
        return undefined;
      },
    });
    const hung = await startProxy(hungMember.adminPort!, { holdRaw: (_, head) => (isHttp(head) ? never : undefined) });
    try {
      const proxied = (hungPort: number) => ({
        [lateMember.address]: late.port, [hungMember.address]: hungPort, [watchedMember.address]: watched.port,
      });
      // A deadline no machine misses here: the late answer must be waited for, not raced by the words.
      const waited = await analyzeLocks(session, lock, { adminPorts: proxied(hungMember.adminPort!), serverTimeoutMs: 120000 });
      assert.equal(watchedMonitors, 2, 'the third member was read through its AdminServer before the first answered');
      assertSeenOnEachMember(waited, joined);
      assert.deepEqual(waited.servers.map((s) => [s.server, s.via]), zk.members.map((m) => [m.address, 'admin']));
      // An AdminServer that never answers: the words after the deadline, and the same analysis.
      const fellBack = await analyzeLocks(session, lock, { adminPorts: proxied(hung.port), serverTimeoutMs: 5000 });
      assertSeenOnEachMember(fellBack, joined);
      assert.equal(fellBack.servers[1].server, hungMember.address);
      assert.equal(fellBack.servers[1].via, 'fourLetterWords');
      assert.ok(hung.connections >= 1, 'the hung AdminServer was asked');
    } finally {
      released();
      await Promise.all([late.close(), watched.close(), hung.close()]);
    }
  });
});
