// Lock analysis benchmarks against a real ZooKeeper of their own (AdminServer on, data on tmpfs when there is one):
//  - analysis time of queues of 100 / 1,000 / 10,000 participants (ephemeral sequential nodes, each waiter's
//    predecessor watched by another session), against a bare getChildren + getData of the same nodes (256 in
//    flight) in the same run; the server-table part (AdminServer, four-letter words) timed separately;
//  - the load a started, idle LockMonitor puts on ZooKeeper (mntr packets_received per second over ~10 s) against
//    no monitor and a disposed one.
// Run alone with `node out/bench/analysisBench.js` (after `npx tsc -p tsconfig.test.json`), or from bench/run.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { analyzeLocks, LockMonitor } from '../src/zk/analysis';
import { readServerTables } from '../src/zk/servers/serverTables';
import { parseMntr } from '../src/zk/servers/serverCommands';
import { ZkSession } from '../src/zk/session/session';
import { mapBounded } from '../src/zk/timeouts';
import { fourLetterWord } from '../test/support/ports';
import { connectOtherClient, OtherClient } from '../test/support/clients/zkClient';
import { startStandalone, ZkCluster } from '../test/support/servers/zkServer';
import { formatTable, now, Row, sleep, summarize } from './stats';

const CREATE_WINDOW = 512;
const READ_WINDOW = 256;

async function startBenchServer(): Promise<ZkCluster> {
  const shm = '/dev/shm';
  const baseDir = fs.mkdtempSync(path.join(fs.existsSync(shm) ? shm : os.tmpdir(), 'zooscope-lockbench-'));
  const cluster = await startStandalone({ baseDir, adminServer: true });
  const stop = cluster.stop.bind(cluster);
  cluster.stop = async () => {
    await stop();
    fs.rmSync(baseDir, { recursive: true, force: true });
  };
  return cluster;
}

/** `n` contenders under `dir`: ephemeral sequential nodes of `owner`, each one's predecessor watched by `watcher`. */
async function createQueue(owner: OtherClient, watcher: OtherClient, dir: string, n: number): Promise<void> {
  await owner.mkdirp(dir);
  const created = await mapBounded(Array.from({ length: n }, (_, i) => i), CREATE_WINDOW,
    (i) => owner.create(`${dir}/lock-`, `client-${i}`, zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL));
  created.sort();
  await mapBounded(created.slice(0, -1), CREATE_WINDOW, (p) => new Promise<void>((resolve, reject) =>
    watcher.client.exists(p, () => undefined, (e) => (e ? reject(e) : resolve()))));
}

/** The same reads done bare with node-zookeeper-client: getChildren, then getData of every child. */
async function bareRead(client: zookeeper.Client, dir: string): Promise<number> {
  const children = await new Promise<string[]>((resolve, reject) => client.getChildren(dir, (e, c) => (e ? reject(e) : resolve(c))));
  await mapBounded(children, READ_WINDOW, (name) => new Promise<void>((resolve, reject) =>
    client.getData(`${dir}/${name}`, (e) => (e ? reject(e) : resolve()))));
  return children.length;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const t0 = now();
  await work();
  return now() - t0;
}

async function packetsReceived(port: number): Promise<number> {
  return Number(parseMntr(await fourLetterWord(port, 'mntr')).packets_received);
}

/** Requests per second the server received over `seconds` (our own mntr probe excluded). */
async function rate(port: number, seconds: number): Promise<number> {
  const p0 = await packetsReceived(port);
  await sleep(seconds * 1000);
  const p1 = await packetsReceived(port);
  return (p1 - p0 - 1) / seconds;
}

export async function analysisBench(runs: number, sizes = [100, 1000, 10000], loadSeconds = 10): Promise<Row[]> {
  const cluster = await startBenchServer();
  const rows: Row[] = [];
  try {
    const member = cluster.members[0];
    const owner = await connectOtherClient(cluster.connectString, 30000);
    const watcher = await connectOtherClient(cluster.connectString, 30000);
    const bare = await connectOtherClient(cluster.connectString, 30000);
    const session = new ZkSession({ connectString: cluster.connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 60000 });
    await session.open();
    const admin = { adminPorts: { [member.address]: member.adminPort! } };
    try {
      for (const n of sizes) await createQueue(owner, watcher, `/bench/locks/q${n}`, n);
      for (const n of sizes) {
        const dir = `/bench/locks/q${n}`;
        const nodes: number[] = [];
        const full: number[] = [];
        const base: number[] = [];
        // One warm-up of each, then runs in a rotating order.
        await analyzeLocks(session, dir, { serverWatches: false });
        await bareRead(bare.client, dir);
        for (let r = 0; r < runs; r++) {
          const tasks = [
            async () => nodes.push(await timed(() => analyzeLocks(session, dir, { serverWatches: false }))),
            async () => full.push(await timed(() => analyzeLocks(session, dir, admin))),
            async () => base.push(await timed(() => bareRead(bare.client, dir))),
          ];
          for (let k = 0; k < tasks.length; k++) await tasks[(k + r) % tasks.length]();
        }
        const baseline = { label: 'bare getChildren + getData', summary: summarize(base) };
        rows.push({ bench: 'lock analysis', case: `${n} participants (nodes only)`, unit: 'ms', summary: summarize(nodes), baseline, samples: nodes });
        rows.push({ bench: 'lock analysis', case: `${n} participants + server tables (admin)`, unit: 'ms', summary: summarize(full), baseline, samples: full });
      }
      const total = sizes.reduce((a, b) => a + b, 0);
      for (const via of ['admin', 'fourLetterWords'] as const) {
        const samples: number[] = [];
        for (let r = 0; r < runs; r++) {
          samples.push(await timed(() => readServerTables({ host: '127.0.0.1', port: member.clientPort, adminPort: via === 'admin' ? member.adminPort : undefined })));
        }
        rows.push({ bench: 'server tables', case: `one member, ${total - sizes.length} data watches, via ${via}`, unit: 'ms', summary: summarize(samples), samples });
      }

      // Monitor load: ask with four-letter words (they count in packets_received; AdminServer requests do not).
      const words = { adminPort: 1 };
      const idle = await rate(member.clientPort, loadSeconds);
      const monitor = new LockMonitor(session, '/bench/locks/q100', words);
      let updates = 0;
      monitor.onUpdate(() => { updates++; });
      monitor.start();
      await sleep(500);
      const started = await rate(member.clientPort, loadSeconds);
      monitor.dispose();
      await sleep(500);
      const disposed = await rate(member.clientPort, loadSeconds);
      const note = `requests/s: none ${idle.toFixed(2)}, started ${started.toFixed(2)}, disposed ${disposed.toFixed(2)}; poll every 2 s with 5 words (mntr, cons, wchc, dump, mntr again); ${updates} updates`;
      // The table has no rate unit: the rows count requests in the whole window (unit column says B; read "requests").
      const one = (v: number) => summarize([Math.round(v * loadSeconds)]);
      rows.push({ bench: 'monitor load', case: `started, idle: requests in ${loadSeconds} s`, unit: 'B', summary: one(started), baseline: { label: 'no monitor', summary: one(idle) }, note });
      rows.push({ bench: 'monitor load', case: `disposed: requests in ${loadSeconds} s`, unit: 'B', summary: one(disposed), baseline: { label: 'no monitor', summary: one(idle) }, note });
      console.log(`bench: monitor load: ${note}`);
    } finally {
      session.close();
      owner.close();
      watcher.close();
      bare.close();
    }
  } finally {
    await cluster.stop();
  }
  return rows;
}

if (require.main === module) {
  const runs = Math.max(5, Number(process.env.BENCH_RUNS ?? 7));
  analysisBench(runs).then((rows) => {
    console.log(formatTable(rows));
    process.exit(0);
  }, (error: unknown) => {
    console.error('bench: failed:', error);
    process.exit(1);
  });
}
