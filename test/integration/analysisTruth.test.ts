// Issue 10, "the analysis tells the truth", against a real ZooKeeper 3.8.0 and real kazoo 2.8.0 / Curator 5.4.0
// clients, through the analysis and `zooscope locks` as a user runs it: waiters under a chroot, a multi-threaded
// client queued twice (not a deadlock), Curator and kazoo nodes in one queue, a node this session may not read,
// and hold times that count from the hand-over rather than from the node's ctime.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as zookeeper from 'node-zookeeper-client';
import { analyzeLocks, AnalyzeOptions, LockAnalysis, LockMonitor, LockQueue } from '../../src/zk/analysis';
import { parseWchc } from '../../src/zk/servers/serverCommands';
import { ZkSession } from '../../src/zk/session/session';
import { fourLetterWord } from '../support/ports';
import { startCurator } from '../support/thirdParty/curator';
import { ThirdPartyClient } from '../support/thirdParty/driver';
import { sleep } from '../support/waiting';
import { startKazoo, SYSTEM_PYTHON } from '../support/thirdParty/kazoo';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { sharedCliBundle } from '../support/clients/cliBundle';

const root = path.resolve(__dirname, '..', '..', '..');
const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;
const sessionOf = (c: OtherClient) => c.sessionId;
const kazooName = (c: string) => `${c.repeat(32)}__lock__`;
const dataWatch = (c: OtherClient, p: string) => c.watch(p, 'exists');
const single = (a: LockAnalysis, p: string): LockQueue => {
  const q = a.queues.find((x) => x.path === p);
  assert.ok(q, `no queue ${p} in ${a.queues.map((x) => x.path).join(', ')}`);
  return q;
};
const everyAnomaly = (a: LockAnalysis) => [...a.anomalies, ...a.queues.flatMap((q) => q.anomalies)];

/** One kazoo session with several threads, each taking a lock with a Lock object of its own. */
class KazooThreads {
  readonly events: Record<string, string>[] = [];
  private constructor(private readonly proc: ChildProcess) {
    readline.createInterface({ input: proc.stdout! }).on('line', (l) => this.events.push(JSON.parse(l) as Record<string, string>));
  }

  static async start(connectString: string, id: string): Promise<KazooThreads> {
    const script = path.join(root, 'test', 'support', 'analysisClients', 'kazoo_threads.py');
    const k = new KazooThreads(spawn(SYSTEM_PYTHON, ['-u', script, connectString, id], { stdio: ['pipe', 'pipe', 'inherit'] }));
    await eventually(() => k.events.length > 0, 30000, `${id} ready`);
    return k;
  }

  get session(): string { return this.events[0].session; }

  /** Queues one more thread on `lockPath`; resolves with its node once it exists (and holds, if `holds`). */
  async acquire(lockPath: string, holds: boolean): Promise<string> {
    const before = this.events.length;
    this.proc.stdin!.write(`acquire ${lockPath}\n`);
    const node = () => this.events.slice(before).find((e) => e.event === 'queued')?.node;
    await eventually(() => !!node() && (!holds || this.events.some((e) => e.event === 'acquired' && e.node === node())), 30000, `${lockPath} queued`);
    return node()!;
  }

  stop(): void { this.proc.kill('SIGKILL'); }
}

describe('the analysis tells the truth (real server, real kazoo and Curator)', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let options: AnalyzeOptions;
  let cli: string;
  let admin: string[];
  const clients: OtherClient[] = [];
  const drivers: ThirdPartyClient[] = [];
  const other = async (connectString = zk.connectString) => {
    const c = await connectOtherClient(connectString, 20000);
    clients.push(c);
    return c;
  };

  function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [cli, ...args], { timeout: 60000 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
  }

  /** Waits until the server lists `count` data watches on paths starting with `prefix` (absolute). */
  async function serverWatches(prefix: string, count: number): Promise<void> {
    await eventually(async () => {
      const table = parseWchc(await fourLetterWord(zk.members[0].clientPort, 'wchc'));
      return [...table.values()].flat().filter((p) => p.startsWith(prefix)).length >= count;
    }, 30000, `${count} watches under ${prefix}`);
  }

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone({ adminServer: true })]);
    admin = ['--admin-port', String(zk.members[0].adminPort)];
    options = { adminPorts: { [zk.members[0].address]: zk.members[0].adminPort! } };
    session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 10000 });
    await session.open();
  });

  after(async () => {
    await Promise.all(drivers.map((d) => d.close()));
    for (const c of clients) c.close();
    session?.close();
    await zk?.stop();
  });

  test('chroot: kazoo waiters under /app are seen watching their predecessors, not "stuck"; watches outside the chroot are left out', async () => {
    await (await other()).mkdirp('/app/lock');
    const kazoo = await startKazoo(`${zk.connectString}/app`);
    drivers.push(kazoo);
    const ids = ['c1', 'c2', 'c3'];
    const nodes: string[] = [];
    for (const [i, id] of ids.entries()) {
      kazoo.acquire(id, 'mutex', '/lock');
      nodes.push((await kazoo.waitForEvent(id, i === 0 ? 'acquired' : 'waiting', 60000)).node!);
    }
    // A waiter of the same queue through a client without chroot, that also watches a node outside /app.
    const outsider = await other();
    await outsider.create('/outside', 'x');
    await dataWatch(outsider, '/outside');
    const outsiderNode = await outsider.create(`/app/lock/${kazooName('f')}`, 'outsider', EPH_SEQ);
    await dataWatch(outsider, `/app/lock/${nodes[2].split('/').pop()}`);
    await serverWatches('/app/lock/', 3);
    // Older than the grace a new waiter gets to set its watch: a missing watch would now count.
    await sleep(1100);

    const chrooted = new ZkSession({ connectString: `${zk.connectString}/app`, requestTimeoutMs: 10000 });
    await chrooted.open();
    try {
      const a = await analyzeLocks(chrooted, '/lock', options);
      const q = single(a, '/lock');
      const local = `/lock/${outsiderNode.split('/').pop()}`;
      assert.deepEqual(q.participants.map((p) => p.path), [...nodes, local]);
      assert.deepEqual(everyAnomaly(a).filter((x) => x.kind === 'stuck-waiter'), []);
      assert.deepEqual(q.participants.slice(1).map((p) => p.watches), [nodes[0], nodes[1], nodes[2]].map((w) => [{ path: w, source: 'server' }]));
      const outsiderInfo = a.sessions.find((s) => s.id === sessionOf(outsider));
      assert.deepEqual(outsiderInfo?.watches, [nodes[2]]);
      assert.deepEqual(outsiderInfo?.ephemerals, [local]);
    } finally {
      chrooted.close();
    }
  });

  test('one session, several threads (kazoo, A B A B on one lock): no deadlock, "waits behind itself" as information; --strict exits 0', async () => {
    const lock = '/threads/lock';
    const [a, b] = [await KazooThreads.start(zk.connectString, 'A'), await KazooThreads.start(zk.connectString, 'B')];
    try {
      const nodes = [await a.acquire(lock, true), await b.acquire(lock, false), await a.acquire(lock, false), await b.acquire(lock, false)];
      await serverWatches(`${lock}/`, 3);
      const analysis = await analyzeLocks(session, lock, options);
      const q = single(analysis, lock);
      assert.deepEqual(q.participants.map((p) => [p.path, p.session, p.role]),
        [[nodes[0], a.session, 'holder'], [nodes[1], b.session, 'waiter'], [nodes[2], a.session, 'waiter'], [nodes[3], b.session, 'waiter']]);
      assert.deepEqual(analysis.deadlocks, []);
      assert.deepEqual(everyAnomaly(analysis).filter((x) => x.severity === 'error'), []);
      const selfWaits = q.anomalies.filter((x) => x.kind === 'self-wait');
      assert.deepEqual(selfWaits.map((x) => [x.severity, x.sessions, x.paths]).sort(),
        [['info', [a.session], [nodes[0], nodes[2]]], ['info', [b.session], [nodes[1], nodes[3]]]].sort());

      const strict = await run(['locks', zk.connectString, lock, '--strict', ...admin]);
      assert.equal(strict.code, 0, strict.stdout + strict.stderr);
      assert.doesNotMatch(strict.stdout, /DEADLOCK|deadlock between/);
      assert.match(strict.stdout, /info: session waits behind its own node .*not a deadlock/);
    } finally {
      a.stop();
      b.stop();
    }
  });

  test('Curator and kazoo nodes in one queue: both hold at once, and the analysis says mutual exclusion is not guaranteed (error; --strict exits 3)', async () => {
    const lock = '/mixed/lock';
    const [curator, kazoo] = await Promise.all([startCurator(zk.connectString), startKazoo(zk.connectString)]);
    drivers.push(curator, kazoo);
    curator.acquire('m-curator', 'mutex', lock);
    const c = await curator.waitForEvent('m-curator', 'acquired', 60000);
    kazoo.acquire('m-kazoo', 'mutex', lock);
    // kazoo skips the Curator node: it holds too. This is the harm the anomaly names.
    const k = await kazoo.waitForEvent('m-kazoo', 'acquired', 60000);
    const analysis = await analyzeLocks(session, lock, options);
    const q = single(analysis, lock);
    assert.deepEqual(new Set(q.participants.map((p) => p.path)), new Set([c.node, k.node]));
    const mixed = q.anomalies.filter((x) => x.kind === 'mixed-recipes');
    assert.equal(mixed.length, 1, JSON.stringify(q.anomalies));
    assert.equal(mixed[0].severity, 'error');
    assert.equal(mixed[0].facts.libraries, 'curator, kazoo');
    assert.ok(mixed[0].paths.includes(lock));

    const strict = await run(['locks', zk.connectString, lock, '--strict', ...admin]);
    assert.equal(strict.code, 3, strict.stdout + strict.stderr);
    assert.match(strict.stdout, /! error: nodes of several libraries \(curator, kazoo\) in one queue: .*mutual exclusion is not guaranteed/);
    curator.release('m-curator');
    kazoo.release('m-kazoo');
  });

  test('a folder and a lock node this session may not read (noAuth): reported, the rest analysed', async () => {
    const owner = await other();
    owner.client.addAuthInfo('digest', Buffer.from('alice:secret'));
    const onlyAlice = [new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id('auth', ''))];
    const create = (p: string, data: string, mode: number, acl?: zookeeper.ACL[]) => new Promise<string>((resolve, reject) =>
      owner.client.create(p, Buffer.from(data), acl ?? [new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id('world', 'anyone'))], mode, (e, made) => (e ? reject(e) : resolve(made))));
    await create('/private', '', zookeeper.CreateMode.PERSISTENT, onlyAlice);
    await create('/private/lock', '', zookeeper.CreateMode.PERSISTENT, onlyAlice);
    await create(`/private/lock/${kazooName('a')}`, 'hidden', EPH_SEQ);
    await owner.mkdirp('/shared/lock');
    const hidden = await create(`/shared/lock/${kazooName('b')}`, 'secret data', EPH_SEQ, onlyAlice);
    const waiter = await other();
    const open = await waiter.create(`/shared/lock/${kazooName('c')}`, 'open', EPH_SEQ);
    await dataWatch(waiter, hidden);

    const { code, stdout, stderr } = await run(['locks', zk.connectString, '/', ...admin]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /QUEUE \/shared\/lock {2}\(kazoo-lock, 2 participants\)/);
    assert.match(stdout, /unreadable: \/private \(noAuth: children not listed, not crawled\)/);
    assert.ok(stdout.includes(`unreadable: ${hidden} (noAuth: data not read)`), stdout);
    assert.match(stdout, /warning: 2 paths not readable \(noAuth\)/);

    const json = await run(['locks', zk.connectString, '/', '--json', ...admin]);
    assert.equal(json.code, 0, json.stderr);
    const analysis = JSON.parse(json.stdout) as LockAnalysis;
    assert.deepEqual(analysis.unreadable, [
      { path: '/private', reason: 'noAuth', what: 'children' },
      { path: hidden, reason: 'noAuth', what: 'data' },
    ]);
    const q = single(analysis, '/shared/lock');
    // The unreadable node still takes part: exists gives its owner and ctime, only its data is unknown.
    assert.deepEqual(q.participants.map((p) => [p.path, p.role, p.session, p.label]),
      [[hidden, 'holder', sessionOf(owner), undefined], [open, 'waiter', sessionOf(waiter), 'open']]);
    assert.ok(analysis.anomalies.some((x) => x.kind === 'unreadable' && x.severity === 'warning'));
  });

  test('hold time: not from ctime after a hand-over (a lower bound, no held-too-long); from ctime when nothing left the queue', async () => {
    const [x, y, z] = [await other(), await other(), await other()];
    await x.mkdirp('/hold/lock');
    await x.mkdirp('/hold/steady');
    const first = await x.create(`/hold/lock/${kazooName('1')}`, 'x', EPH_SEQ);
    const second = await y.create(`/hold/lock/${kazooName('2')}`, 'y', EPH_SEQ);
    await dataWatch(y, first);
    const steady = await z.create(`/hold/steady/${kazooName('3')}`, 'z', EPH_SEQ);
    await sleep(1500);
    await x.remove(first);

    const a = await analyzeLocks(session, '/hold', { ...options, heldTooLongMs: 1000 });
    const handedOver = single(a, '/hold/lock').participants[0];
    assert.equal(handedOver.path, second);
    assert.equal(handedOver.role, 'holder');
    assert.deepEqual(single(a, '/hold/lock').anomalies.filter((n) => n.kind === 'held-too-long'), []);
    // Held only since the read, as far as this one read knows: a lower bound, never the 1.5 s since it queued.
    assert.deepEqual(handedOver.held, { since: a.takenAt, exact: false });
    const kept = single(a, '/hold/steady').participants[0];
    assert.equal(kept.path, steady);
    assert.deepEqual(kept.held, { since: kept.since, exact: true });
    const tooLong = single(a, '/hold/steady').anomalies.filter((n) => n.kind === 'held-too-long');
    assert.equal(tooLong.length, 1);
    assert.equal(tooLong[0].facts.atLeast, 0);
    assert.ok(Number(tooLong[0].facts.heldMs) >= 1500);

    const { code, stdout, stderr } = await run(['locks', zk.connectString, '/hold/lock', '--held-too-long', '1', ...admin]);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stdout, /held for/);
    const holderLine = stdout.split('\n').find((l) => l.startsWith('0 '));
    assert.ok(holderLine && /\s\?\s/.test(holderLine), stdout);
  });

  test('hold time in the live monitor: a take-over it sees is exact (from the hand-over); a holder it finds is a lower bound', async () => {
    const [w, x, y] = [await other(), await other(), await other()];
    await w.mkdirp('/hold/mon');
    // w leaves the queue first: x is already holding when the monitor comes, since an unknown moment.
    const gone = await w.create(`/hold/mon/${kazooName('0')}`, 'w', EPH_SEQ);
    const held = await x.create(`/hold/mon/${kazooName('1')}`, 'x', EPH_SEQ);
    const waiting = await y.create(`/hold/mon/${kazooName('2')}`, 'y', EPH_SEQ);
    await w.remove(gone);
    await dataWatch(y, held);
    const monitor = new LockMonitor(session, '/hold/mon', { ...options, pollIntervalMs: 500 });
    const updates: LockAnalysis[] = [];
    monitor.onUpdate((u) => updates.push(u));
    const holder = () => updates[updates.length - 1]?.queues[0]?.participants[0];
    try {
      monitor.start();
      await eventually(() => holder()?.path === held, 10000, 'first analysis');
      const firstSeen = updates.find((u) => u.queues[0]?.participants[0]?.path === held)!.takenAt;
      assert.deepEqual(holder()?.held, { since: firstSeen, exact: false });
      const releasedAt = Date.now();
      await x.remove(held);
      await eventually(() => holder()?.path === waiting, 10000, 'hand-over');
      const h = holder()!;
      assert.equal(h.held?.exact, true);
      assert.ok(h.held!.since >= releasedAt && h.held!.since <= updates[updates.length - 1].takenAt, JSON.stringify(h));
      assert.ok(h.since < releasedAt);
    } finally {
      monitor.dispose();
    }
  });
});
