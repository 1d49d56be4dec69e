// The demo's seed data and live lock clients against a real ZooKeeper.
//   npx tsc -p tsconfig.test.json && node --test out/test/integration/demoData.test.js
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { analyzeLocks } from '../../src/zk/analysis';
import { ZkSession } from '../../src/zk/session/session';
import { sessionIdHex } from '../../src/zk/stat';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { fourLetterWord } from '../support/ports';
import { waitFor } from '../support/waiting';
import { connectOtherClient, isClientError, OtherClient } from '../support/clients/zkClient';
import { seedDemoData, DEMO_DIGEST_PASSWORD, DEMO_DIGEST_USER } from '../../scripts/demo/seed';
import { decodeNode } from '../../src/zk/decoders';
import { DemoLockClients, DemoLockName, ParticipantInfo, startDemoLockClients } from '../../scripts/demo/lockClients';

const ROOT = '/zooscope-demo';
const demoScript = (name: string) => path.join(__dirname, '..', '..', 'scripts', 'demo', `${name}.js`);

let zk: ZkCluster;
let client: OtherClient;
let locks: DemoLockClients | undefined;
let cli: ChildProcess | undefined;

before(async () => {
  zk = await startStandalone({ adminServer: true });
  client = await connectOtherClient(zk.connectString);
});

after(async () => {
  cli?.kill('SIGKILL');
  await locks?.stop();
  client?.close();
  await zk?.stop();
});

const sessionKey = (hex: string) => BigInt(hex).toString(16);

/** Session ids the server has open connections for (`cons`). */
async function liveSessions(): Promise<Set<string>> {
  const cons = await fourLetterWord(zk.members[0].clientPort, 'cons');
  return new Set([...cons.matchAll(/sid=(0x[0-9a-f]+)/g)].map((m) => sessionKey(m[1])));
}

/** Data watches by path (`wchp`): path → watching session ids. */
async function watchesByPath(): Promise<Map<string, string[]>> {
  const text = await fourLetterWord(zk.members[0].clientPort, 'wchp');
  const result = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('/')) result.set(line.trim(), (current = []));
    else if (current && /^\s+0x[0-9a-f]+/.test(line)) current.push(sessionKey(line.trim()));
  }
  return result;
}

async function childCount(p: string): Promise<number> {
  return (await client.children(p)).length;
}

void test('seeding twice is idempotent', async (t) => {
  const first = await seedDemoData(zk.connectString);
  t.diagnostic(`first seed: ${first.created} nodes in ${first.totalMs} ms; 20,000 wide children in ${first.wide.ms} ms`);
  assert.equal(first.wide.created, 20000);
  assert.equal(first.natural.created, 1000);
  const counts = async () => ({
    root: await childCount(ROOT), wide: await childCount(`${ROOT}/wide`), natural: await childCount(`${ROOT}/natural`),
    jobs: await childCount(`${ROOT}/jobs`), config: await childCount(`${ROOT}/config`),
  });
  const afterFirst = await counts();

  // The second run through the CLI, as `npm run demo` will run it.
  const { stdout } = await promisify(execFile)(process.execPath, [demoScript('seed'), zk.connectString]);
  assert.match(stdout, /0 created, 0 updated/);
  assert.deepEqual(await counts(), afterFirst);

  // A changed value is put back by a re-run.
  await client.setData(`${ROOT}/config/feature-flags/dark-mode`, Buffer.from('tampered'));
  const third = await seedDemoData(zk.connectString);
  assert.equal(third.created, 0);
  assert.equal(third.updated, 1);
  assert.equal((await client.getData(`${ROOT}/config/feature-flags/dark-mode`)).data.toString(), 'on');
  assert.deepEqual(await counts(), afterFirst);
});

void test('the systems folder holds what Kafka, Patroni and ClickHouse write, and the tree reads it as theirs', async () => {
  const systems = `${ROOT}/systems`;
  assert.deepEqual((await client.children(systems)).sort(), ['clickhouse', 'kafka', 'patroni']);
  const leaves: string[] = [];
  const walk = async (p: string): Promise<void> => {
    const children = await client.children(p);
    if (children.length === 0) leaves.push(p);
    for (const child of children) await walk(`${p}/${child}`);
  };
  await walk(systems);
  assert.ok(leaves.length >= 15, `${leaves.length} leaves`);
  for (const leaf of leaves) {
    const decoded = decodeNode(leaf, (await client.getData(leaf)).data);
    const system = leaf.slice(systems.length + 1).split('/')[0];
    assert.equal(decoded?.system, system, `${leaf}: ${decoded?.system ?? 'no decoded'}`);
    assert.equal(decoded?.raw, undefined, `${leaf}: read raw (${decoded?.raw?.reason ?? ''})`);
  }
});

void test('the seeded tree has the promised shapes', async () => {
  const wide = await client.children(`${ROOT}/wide`);
  assert.equal(wide.length, 20000);
  assert.equal(new Set(wide).size, 20000);

  const natural = await client.children(`${ROOT}/natural`);
  assert.deepEqual(new Set(natural), new Set(Array.from({ length: 1000 }, (_, i) => `item-${i + 1}`)));

  const jobs = await client.children(`${ROOT}/jobs`);
  assert.equal(jobs.length, 5);
  for (const job of jobs) assert.match(job, /^job-\d{10}$/);

  const settings = (await client.getData(`${ROOT}/config/env/prod/services/api/settings.json`)).data.toString();
  assert.equal(JSON.parse(settings).service, 'api');
  assert.match((await client.getData(`${ROOT}/config/env/prod/services/api/logging.yaml`)).data.toString(), /^logging:\n/);
  assert.match((await client.getData(`${ROOT}/config/env/prod/services/billing/db.properties`)).data.toString(), /^db\.url=/m);
  assert.match((await client.getData(`${ROOT}/config/legacy/spring/beans.xml`)).data.toString(), /^<\?xml /);

  const png = (await client.getData(`${ROOT}/config/assets/logo.png`)).data;
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(png), TypeError);

  const big = await client.getData(`${ROOT}/big-value`);
  assert.equal(big.data.length, 65536);
  assert.equal(big.stat.dataLength, 65536);

  // Digest-protected: an unauthenticated session is refused, demo:demo reads it.
  await assert.rejects(client.getData(`${ROOT}/secured`), (e) => isClientError(e, 'NO_AUTH'));
  await assert.rejects(client.children(`${ROOT}/secured`), (e) => isClientError(e, 'NO_AUTH'));
  await assert.rejects(client.setData(`${ROOT}/read-only`, Buffer.from('x')), (e) => isClientError(e, 'NO_AUTH'));
  assert.match((await client.getData(`${ROOT}/read-only`)).data.toString(), /world may read/);
  const authed = await connectOtherClient(zk.connectString, 10000, { digest: `${DEMO_DIGEST_USER}:${DEMO_DIGEST_PASSWORD}` });
  try {
    assert.match((await authed.getData(`${ROOT}/secured`)).data.toString(), /demo:demo/);
    assert.deepEqual(await authed.children(`${ROOT}/secured`), ['credentials']);
  } finally {
    authed.close();
  }
});

const NAME_SHAPES: Record<DemoLockName, RegExp> = {
  curator: /^_c_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-lock-\d{10}$/,
  kazoo: /^[0-9a-f]{32}__lock__\d{10}$/,
};
/** Both libraries put the lowest sequence number (the last 10 digits) first; an independent reading of the order. */
const bySequence = (names: string[]) => [...names].sort((a, b) => Number(a.slice(-10)) - Number(b.slice(-10)));
const EXPECTED: Record<DemoLockName, number> = { curator: 4, kazoo: 3 };

/** The queue of `lock` in sequence order, with each node's owner and data. */
async function queue(lock: DemoLockName) {
  const lockPath = locks!.lockPaths[lock];
  const names = bySequence(await client.children(lockPath));
  return Promise.all(names.map(async (name) => {
    const { data, stat } = await client.getData(`${lockPath}/${name}`);
    return { name, path: `${lockPath}/${name}`, data: data.toString(), owner: sessionIdHex(stat.ephemeralOwner) };
  }));
}

void test('lock clients form herd-free Curator and kazoo queues with a live holder', async () => {
  locks = await startDemoLockClients(zk.connectString, { holdMs: { min: 600000, max: 600000 }, sessionTimeoutMs: 10000 });
  for (const lock of ['curator', 'kazoo'] as const) {
    const nodes = await waitFor(`${lock} queue of ${EXPECTED[lock]}`, async () => {
      const q = await queue(lock);
      return q.length === EXPECTED[lock] && q;
    });
    for (const node of nodes) {
      assert.match(node.name, NAME_SHAPES[lock]);
      assert.notEqual(BigInt(node.owner), 0n, `${node.name} is ephemeral`);
      if (lock === 'curator') assert.equal(node.data, '127.0.0.1');
      else assert.match(node.data, /^worker-\d$/);
    }
    assert.equal(new Set(nodes.map((n) => n.owner)).size, nodes.length, 'one session per participant');

    // The lowest node belongs to a live session, the one that says it holds the lock.
    const live = await liveSessions();
    assert.ok(live.has(sessionKey(nodes[0].owner)), `holder session ${nodes[0].owner} is not connected`);
    const holders: ParticipantInfo[] = await waitFor(`${lock} holder to say so`, async () => {
      const found = locks!.describe().filter((p) => p.lock === lock && p.state === 'holding');
      return found.length > 0 && found;
    });
    assert.equal(holders.length, 1);
    assert.equal(holders[0].node, nodes[0].name);
    assert.equal(holders[0].sessionId, nodes[0].owner);

    // Herd-free: each node is watched (data watch) by its successor's session, and by nobody else but its own
    // (ZooScope's recipe may watch its own node to learn of a loss at once).
    await waitFor(`${lock} waiters watching their predecessors`, async () => {
      const watches = await watchesByPath();
      return nodes.every((node, i) => {
        const watchers = watches.get(node.path) ?? [];
        const successor = i < nodes.length - 1 ? sessionKey(nodes[i + 1].owner) : undefined;
        const allowed = new Set([sessionKey(node.owner), ...(successor ? [successor] : [])]);
        return (!successor || watchers.includes(successor)) && watchers.every((w) => allowed.has(w));
      });
    });
  }

  // The lock-queue analysis reads them as a Curator mutex and a kazoo lock (via the AdminServer, as in the demo),
  // holder first, each waiter waiting for its predecessor, with no anomaly.
  const session = new ZkSession({ connectString: zk.connectString });
  await session.open();
  try {
    const member = zk.members[0];
    const analysis = await analyzeLocks(session, `${ROOT}/locks`, { adminPorts: { [member.address]: member.adminPort! } });
    for (const [lock, recipe] of [['curator', 'curator-mutex'], ['kazoo', 'kazoo-lock']] as const) {
      const q = analysis.queues.find((x) => x.path === locks!.lockPaths[lock]);
      assert.ok(q, `no ${lock} queue in ${analysis.queues.map((x) => x.path).join(', ')}`);
      assert.equal(q.recipe, recipe);
      const nodes = await queue(lock);
      assert.deepEqual(q.participants.map((p) => [p.name, p.role]), nodes.map((n, i) => [n.name, i === 0 ? 'holder' : 'waiter']));
      assert.deepEqual(q.participants.slice(1).map((p) => p.waitsFor), nodes.slice(0, -1).map((n) => [n.path]));
      assert.deepEqual(q.anomalies, []);
    }
  } finally {
    session.close();
  }

  const service = await client.getData(locks.servicePath);
  assert.equal(sessionIdHex(service.stat.ephemeralOwner), locks.serviceSessionId);
  assert.equal(JSON.parse(service.data.toString()).name, 'demo-service');
});

void test('when a holder releases, the next waiter acquires', async () => {
  assert.ok(locks);
  for (const lock of ['curator', 'kazoo'] as const) {
    const before = await queue(lock);
    const released = await locks.releaseHolder(lock, { rejoin: false });
    assert.equal(released, before[0].name);
    const after = await waitFor(`${lock} queue to shrink`, async () => {
      const q = await queue(lock);
      return q.length === before.length - 1 && q;
    });
    assert.deepEqual(after.map((n) => n.name), before.slice(1).map((n) => n.name));
    const next = await waitFor(`${lock} next holder`, async () =>
      locks!.describe().find((p) => p.lock === lock && p.state === 'holding'));
    assert.equal(next.node, before[1].name);
    assert.equal(next.sessionId, after[0].owner);
  }

  await locks.stop();
  locks = undefined;
  // stop() closes every session; the server drops their ephemeral nodes as it processes each closeSession.
  for (const lock of ['curator', 'kazoo']) {
    const path = `${ROOT}/locks/${lock === 'curator' ? 'curator-mutex' : 'kazoo-lock'}`;
    await waitFor(`${path} emptied after stop`, async () => (await client.children(path)).length === 0);
  }
  await waitFor('the service node gone after stop', async () => (await client.exists(`${ROOT}/services/api/instance-1`)) === undefined);
});

/** Starts the lock clients CLI on `root`; resolves once it has printed `line`. */
async function startLockClientsCli(root: string, line: string): Promise<ChildProcess> {
  cli = spawn(process.execPath, [demoScript('lockClients'), zk.connectString, '--root', root], { stdio: ['ignore', 'pipe', 'inherit'] });
  const proc = cli;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(line)) resolve();
      else if (output.includes('lock clients ready')) reject(new Error(`ready without printing "${line}": ${output}`));
    });
    proc.once('exit', (code, signal) => reject(new Error(`exited early (${code ?? signal}): ${output}`)));
  });
  return proc;
}

/** SIGTERMs the CLI; resolves to how it ended: its exit code, or the signal that ended it. */
async function terminate(proc: ChildProcess): Promise<number | string> {
  const exit = new Promise<number | string>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  proc.kill('SIGTERM');
  const ended = await exit;
  cli = undefined;
  return ended;
}

async function assertNoDemoNodes(root: string): Promise<void> {
  // Closed sessions take their ephemeral nodes along at once (no session timeout to wait for).
  assert.equal(await childCount(`${root}/locks/curator-mutex`), 0);
  assert.equal(await childCount(`${root}/locks/kazoo-lock`), 0);
  assert.equal(await client.exists(`${root}/services/api/instance-1`), undefined);
}

void test('the lock clients CLI stops cleanly on SIGTERM', async () => {
  const root = '/zooscope-cli';
  const proc = await startLockClientsCli(root, 'lock clients ready');
  assert.equal(await childCount(`${root}/locks/curator-mutex`), 4);
  assert.equal(await childCount(`${root}/locks/kazoo-lock`), 3);
  assert.equal(await terminate(proc), 0);
  await assertNoDemoNodes(root);
});

void test('the lock clients CLI stops cleanly on a SIGTERM sent while it starts', async () => {
  // Its first line comes before any session: a signal from then on must close what it starts, not kill it.
  const root = '/zooscope-cli-early';
  const proc = await startLockClientsCli(root, 'starting lock clients');
  assert.equal(await terminate(proc), 0);
  await assertNoDemoNodes(root);
});
