// The lock analysis against a real ZooKeeper (AdminServer on): queues written with other clients' naming and
// REAL waiting watches (exists/getData/getChildren set by separate sessions), read back through the servers.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { analyzeLocks, AnalyzeOptions, LockAnalysis, LockQueue } from '../../src/zk/analysis';
import { ZkSession } from '../../src/zk/session/session';
import { fourLetterWord } from '../support/ports';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const uuid = (c: string) => `${c.repeat(8)}-${c.repeat(4)}-${c.repeat(4)}-${c.repeat(4)}-${c.repeat(12)}`;
const sessionOf = (c: OtherClient) => c.sessionId;
const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;

const dataWatch = (c: OtherClient, path: string) => c.watch(path, 'exists');
const childWatch = (c: OtherClient, path: string) => c.watch(path, 'getChildren');
const queue = (a: LockAnalysis, path: string): LockQueue => {
  const q = a.queues.find((x) => x.path === path);
  assert.ok(q, `no queue ${path} in ${a.queues.map((x) => x.path).join(', ')}`);
  return q;
};

describe('lock analysis on a real server', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let options: AnalyzeOptions;
  const clients: OtherClient[] = [];
  const client = async () => {
    const c = await connectOtherClient(zk.connectString, 20000);
    clients.push(c);
    return c;
  };

  before(async () => {
    zk = await startStandalone({ adminServer: true });
    session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 10000 });
    await session.open();
    // A deadline the AdminServer cannot miss: with the default (3 s a command) a loaded machine's late first answer
    // is replaced by the words, as designed, and the test that checks it was read via admin would fail.
    options = { adminPorts: { [zk.members[0].address]: zk.members[0].adminPort! }, serverTimeoutMs: 120000 };
  });

  after(async () => {
    session?.close();
    for (const c of clients) c.close();
    await zk?.stop();
  });

  test('Curator-named mutex: queue order by number, owners, client addresses from the server, edges seen', async () => {
    const [a, b, c] = [await client(), await client(), await client()];
    await a.mkdirp('/cm/lock');
    // Prefixes chosen so the raw name order is the reverse of the queue order.
    const pa = await a.create(`/cm/lock/_c_${uuid('f')}-lock-`, '10.0.0.1', EPH_SEQ);
    const pb = await b.create(`/cm/lock/_c_${uuid('8')}-lock-`, '10.0.0.2', EPH_SEQ);
    const pc = await c.create(`/cm/lock/_c_${uuid('0')}-lock-`, '10.0.0.3', EPH_SEQ);
    await dataWatch(b, pa);
    await dataWatch(c, pb);
    const analysis = await analyzeLocks(session, '/cm/lock', options);
    const q = queue(analysis, '/cm/lock');
    assert.equal(q.recipe, 'curator-mutex');
    assert.deepEqual(q.participants.map((p) => p.path), [pa, pb, pc]);
    assert.deepEqual(q.participants.map((p) => p.role), ['holder', 'waiter', 'waiter']);
    assert.deepEqual(q.participants.map((p) => p.session), [a, b, c].map(sessionOf));
    assert.deepEqual(q.participants.map((p) => p.label), ['10.0.0.1', '10.0.0.2', '10.0.0.3']);
    assert.deepEqual(q.participants[2].waitsFor, [pb]);
    assert.deepEqual(q.participants[1].watches, [{ path: pa, source: 'server' }]);
    assert.deepEqual(q.participants[2].watches, [{ path: pb, source: 'server' }]);
    const cons = await fourLetterWord(zk.members[0].clientPort, 'cons');
    for (const p of q.participants) assert.ok(cons.includes(`/${p.clientAddress}[`) && cons.includes(`sid=${p.session},`), `${p.clientAddress} ${p.session} in ${cons}`);
    assert.equal(analysis.servers[0].via, 'admin');
    assert.deepEqual(q.anomalies, []);
    assert.ok(analysis.sessions.find((s) => s.id === sessionOf(a))?.ephemerals.includes(pa));
    assert.equal(analysis.sessions.find((s) => s.id === session.sessionId)?.ours, true);
  });

  test('kazoo-named read/write lock: a reader waits for the nearest writer; an unwatched waiter is inferred and stuck', async () => {
    const [w, r, w2] = [await client(), await client(), await client()];
    await w.mkdirp('/krw');
    const pw = await w.create(`/krw/${'b'.repeat(32)}__lock__`, 'writer', EPH_SEQ);
    const pr = await r.create(`/krw/${'a'.repeat(32)}__rlock__`, 'reader', EPH_SEQ);
    const pw2 = await w2.create(`/krw/${'c'.repeat(32)}__lock__`, 'writer2', EPH_SEQ);
    await dataWatch(r, pw);
    // w2 sets no watch at all: a stuck waiter (after the grace period for a fresh node).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const q = queue(await analyzeLocks(session, '/krw', options), '/krw');
    assert.equal(q.recipe, 'kazoo-rwlock');
    assert.deepEqual(q.participants.map((p) => [p.path, p.kind, p.role]), [[pw, 'write', 'holder'], [pr, 'read', 'waiter'], [pw2, 'write', 'waiter']]);
    assert.deepEqual(q.participants[1].watches, [{ path: pw, source: 'server' }]);
    assert.deepEqual(q.participants[2].watches, [{ path: pr, source: 'inferred' }]);
    const stuck = q.anomalies.filter((x) => x.kind === 'stuck-waiter');
    assert.deepEqual(stuck.map((x) => [x.sessions, x.facts.reason]), [[[sessionOf(w2)], 'watchesNothing']]);
  });

  test('anomalies from the server: herd, watching a vanished node, persistent node, held too long, duplicate GUID', async () => {
    const holder = await client();
    await holder.mkdirp('/anom');
    const guid = 'f00d';
    const ph = await holder.create(`/anom/${guid}-lock-`, 'h', EPH_SEQ);
    const dup = await holder.create(`/anom/${guid}-lock-`, 'h-again', EPH_SEQ);
    const persistent = await holder.create('/anom/lock-', 'p', zookeeper.CreateMode.PERSISTENT_SEQUENTIAL);
    const herd = [await client(), await client(), await client()];
    for (const h of herd) {
      await h.create('/anom/lock-', 'w', EPH_SEQ);
      await dataWatch(h, ph);
    }
    const lost = await client();
    const gone = await lost.create('/anom/lock-', 'gone', EPH_SEQ);
    const pl = await lost.create('/anom/lock-', 'l', EPH_SEQ);
    await dataWatch(lost, gone);
    await lost.remove(gone); // the watch fires and is gone; watch it again while it is missing (an exists watch)
    await dataWatch(lost, gone);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const q = queue(await analyzeLocks(session, '/anom', { ...options, heldTooLongMs: 500 }), '/anom');
    const of = (kind: string) => q.anomalies.filter((x) => x.kind === kind);
    assert.equal(of('herd').length, 1);
    assert.equal(of('herd')[0].facts.watchers, 3);
    assert.deepEqual([...of('herd')[0].sessions].sort(), herd.map(sessionOf).sort());
    // The duplicate (a create retried by the holder's session) waits behind its own twin and watches nothing.
    assert.deepEqual(of('stuck-waiter').map((x) => [x.paths, x.facts.reason]).sort(), [[[dup], 'watchesNothing'], [[pl, gone], 'watchesMissingNode']].sort());
    assert.deepEqual(of('persistent-lock-node').map((x) => x.paths), [[persistent]]);
    // `gone` left the queue after ph was created: when ph began to hold is unknown (held since at least this read),
    // so held-too-long does not fire on ph's ctime (see analysisTruth.test.ts for the known cases).
    assert.deepEqual(of('held-too-long'), []);
    assert.equal(q.participants[0].held?.exact, false);
    // The duplicate waits behind its own session's node: information, not a deadlock.
    assert.deepEqual(of('self-wait').map((x) => [x.severity, x.paths]), [['info', [ph, dup]]]);
    assert.deepEqual(of('duplicate-guid').map((x) => [x.paths.sort(), x.facts.guid]), [[[ph, dup].sort(), guid]]);
  });

  test('a dead owner: the client vanished without closing; its session is still tracked, not connected', async () => {
    let proxy: TcpProxy | undefined;
    try {
      proxy = await startProxy(zk.members[0].clientPort);
      const ghost = await connectOtherClient(`127.0.0.1:${proxy.port}`, 30000);
      clients.push(ghost);
      await ghost.mkdirp('/dead');
      const p = await ghost.create('/dead/lock-', 'ghost', EPH_SEQ);
      await proxy.refuse(true);
      proxy.cutAll();
      const waiter = await client();
      const pw = await waiter.create('/dead/lock-', 'w', EPH_SEQ);
      await dataWatch(waiter, p);
      const analysis = await analyzeLocks(session, '/dead', options);
      const q = queue(analysis, '/dead');
      const dead = q.anomalies.filter((x) => x.kind === 'dead-owner');
      assert.deepEqual(dead.map((x) => [x.paths, x.facts.role, x.facts.inSessionTracker]), [[[p], 'holder', 1]]);
      assert.equal(q.participants[0].clientAddress, undefined);
      assert.equal(analysis.sessions.find((s) => s.id === sessionOf(ghost))?.alive, false);
      assert.equal(q.participants[1].path, pw);
    } finally {
      await proxy?.close();
    }
  });

  test('a fixed leader node (Kafka /controller): the owner leads, exists-watchers are contenders', async () => {
    const [leader, x, y] = [await client(), await client(), await client()];
    await leader.mkdirp('/kafka');
    await leader.create('/kafka/controller', '{"brokerid":1}', zookeeper.CreateMode.EPHEMERAL);
    await dataWatch(x, '/kafka/controller');
    await dataWatch(y, '/kafka/controller');
    for (const root of ['/kafka/controller', '/kafka']) {
      const q = queue(await analyzeLocks(session, root, options), '/kafka/controller');
      // Its bytes are Kafka's controller registration: the election is named by system (src/zk/analysis/systemElections.ts).
      assert.equal(q.recipe, 'kafka-controller');
      assert.deepEqual(q.participants.map((p) => [p.session, p.role]), [[sessionOf(leader), 'leader'], ...[x, y].map(sessionOf).sort().map((s) => [s, 'waiter'])]);
      assert.equal(q.participants[0].label, '{"brokerid":1}');
    }
  });

  test('a Curator-shaped semaphore: leases hold, the internal-lock holder waits with a (invisible) children watch', async () => {
    const [h1, h2, next, queued] = [await client(), await client(), await client(), await client()];
    await h1.mkdirp('/sem/leases');
    await h1.mkdirp('/sem/locks');
    const l1 = await h1.create(`/sem/leases/_c_${uuid('1')}-lease-`, 'h1', EPH_SEQ);
    const l2 = await h2.create(`/sem/leases/_c_${uuid('2')}-lease-`, 'h2', EPH_SEQ);
    const lockNext = await next.create(`/sem/locks/_c_${uuid('3')}-lock-`, 'n', EPH_SEQ);
    const leaseNext = await next.create(`/sem/leases/_c_${uuid('4')}-lease-`, 'n', EPH_SEQ);
    await childWatch(next, '/sem/leases');
    const lockQueued = await queued.create(`/sem/locks/_c_${uuid('5')}-lock-`, 'q', EPH_SEQ);
    await dataWatch(queued, lockNext);
    for (const root of ['/sem', '/sem/leases']) {
      const analysis = await analyzeLocks(session, root, options);
      const q = queue(analysis, '/sem');
      assert.equal(q.recipe, 'curator-semaphore');
      assert.equal(q.leases, 2);
      assert.deepEqual(q.participants.map((p) => [p.path, p.role]), [[l1, 'holder'], [l2, 'holder'], [leaseNext, 'waiter'], [lockQueued, 'waiter']]);
      assert.deepEqual(q.participants[2].watches, [{ path: '/sem/leases', source: 'inferred' }]);
      assert.deepEqual(q.participants[3].watches, [{ path: lockNext, source: 'server' }]);
      assert.ok(analysis.servers[0].childWatches! >= 1);
      assert.ok(analysis.anomalies.some((x) => x.kind === 'child-watches-invisible'));
      assert.deepEqual(q.anomalies, []);
    }
  });

  test('a deadlock between two sessions across two locks', async () => {
    const [a, b] = [await client(), await client()];
    await a.mkdirp('/dl/one');
    await a.mkdirp('/dl/two');
    const a1 = await a.create('/dl/one/lock-', 'A', EPH_SEQ);
    const b2 = await b.create('/dl/two/lock-', 'B', EPH_SEQ);
    await a.create('/dl/two/lock-', 'A', EPH_SEQ);
    await dataWatch(a, b2);
    await b.create('/dl/one/lock-', 'B', EPH_SEQ);
    await dataWatch(b, a1);
    const analysis = await analyzeLocks(session, '/dl', options);
    const [sa, sb] = [sessionOf(a), sessionOf(b)];
    const first = sa < sb ? sa : sb;
    assert.equal(analysis.deadlocks.length, 1);
    const cycle = analysis.deadlocks[0];
    assert.equal(cycle.sessions[0], first);
    assert.deepEqual([...cycle.sessions].sort(), [sa, sb].sort());
    assert.deepEqual(cycle.locks, first === sa ? ['/dl/two', '/dl/one'] : ['/dl/one', '/dl/two']);
    assert.ok(cycle.clients?.every((c) => c && /^127\.0\.0\.1:\d+$/.test(c)));
    assert.ok(analysis.anomalies.some((x) => x.kind === 'deadlock'));
  });

  test('a subtree crawl finds every queue below a path, and stops at maxQueues', async () => {
    const c = await client();
    for (const name of ['p', 'q', 'r']) {
      await c.mkdirp(`/crawl/app/${name}/locks`);
      await c.create(`/crawl/app/${name}/locks/lock-`, '', EPH_SEQ);
    }
    await c.mkdirp('/crawl/app/config/a/b');
    const all = await analyzeLocks(session, '/crawl', options);
    assert.deepEqual(all.queues.map((q) => q.path).sort(), ['/crawl/app/p/locks', '/crawl/app/q/locks', '/crawl/app/r/locks']);
    assert.equal(all.truncated, undefined);
    const bounded = await analyzeLocks(session, '/crawl', { ...options, maxQueues: 2 });
    assert.equal(bounded.queues.length, 2);
    assert.equal(bounded.truncated, true);
  });

  test('a folder holding lock nodes and folders of other queues: the folders are no participants, their queues are shown', async () => {
    // As in the demo after Acquire Lock on /zooscope-demo/locks: two lock nodes beside two queue folders.
    const [a, b] = [await client(), await client()];
    await a.mkdirp('/mixed/locks/curator-mutex');
    await a.mkdirp('/mixed/locks/kazoo-lock');
    const curatorHolder = await a.create(`/mixed/locks/curator-mutex/_c_${uuid('a')}-lock-`, '', EPH_SEQ);
    const kazooHolder = await b.create(`/mixed/locks/kazoo-lock/${'b'.repeat(32)}__lock__`, '', EPH_SEQ);
    const first = await a.create('/mixed/locks/f00d-lock-', '', EPH_SEQ);
    const second = await b.create('/mixed/locks/beef-lock-', '', EPH_SEQ);
    const analysis = await analyzeLocks(session, '/mixed/locks', options);
    assert.deepEqual(analysis.queues.map((q) => q.path).sort(), ['/mixed/locks', '/mixed/locks/curator-mutex', '/mixed/locks/kazoo-lock']);
    const own = queue(analysis, '/mixed/locks');
    assert.deepEqual(own.participants.map((p) => p.path), [first, second]);
    assert.ok(!own.anomalies.some((x) => x.kind === 'persistent-lock-node'), JSON.stringify(own.anomalies));
    assert.equal(queue(analysis, '/mixed/locks/curator-mutex').participants[0].path, curatorHolder);
    assert.equal(queue(analysis, '/mixed/locks/kazoo-lock').participants[0].path, kazooHolder);
  });

  test('without server tables: edges inferred, servers empty', async () => {
    const analysis = await analyzeLocks(session, '/cm/lock', { serverWatches: false });
    const q = queue(analysis, '/cm/lock');
    assert.deepEqual(q.participants[1].watches.map((w) => w.source), ['inferred']);
    assert.deepEqual(analysis.servers, []);
  });
});
