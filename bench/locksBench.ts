// Lock benchmarks as a worker pool feels them, against one real (disk-backed) server, with the baselines measured
// in the same run:
// - taking locks in a loop: N contenders (2 / 10 / 100), each on a session of its own, each `k` times acquire →
//   append `enter`/`exit` lines to a shared log → release, with no pause (the drivers' `cycles` command with
//   hold=0, ZooScope doing exactly the same in this process). Acquisitions per second = N·k / (first command →
//   last contender done), session opening included for all three. Under contention every acquisition is a
//   hand-off, so ms per hand-off = 1000 / that rate. The log proves mutual exclusion held (else the bench fails).
//   Curator's InterProcessMutex and kazoo's Lock in their driver processes (test/support/thirdParty); per run the
//   ratio to the better of the two IN THAT RUN; goal: the median of those ratios ≥ 1 (rate) / ≤ 1 (hand-off).
// - notifications per release, counted BY THE SERVER (mntr's triggered-watcher sums): during every loop sample
//   above (all three libraries), and with 100+ waiters queued at once (ZooScope against the naive recipe, where
//   every waiter watches the lock's children). Goal: 1.
// Run alone with `node out/bench/locksBench.js` (after `npx tsc -p tsconfig.test.json`), or from bench/run.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { LockHandle, LockManager } from '../src/zk/locks';
import * as ops from '../src/zk/protocol/operations';
import { ZkSession } from '../src/zk/session/session';
import { startCurator } from '../test/support/thirdParty/curator';
import { checkExclusion, ThirdPartyClient } from '../test/support/thirdParty/driver';
import { startKazoo } from '../test/support/thirdParty/kazoo';
import { watchersTriggered } from './serverCounters';
import { Row, summarize } from './stats';

/** Contender counts (`BENCH_LOCK_SIZES=2,10` to run some of them alone). */
const SIZES = (process.env.BENCH_LOCK_SIZES ?? '2,10,100').split(',').map(Number);
const WAITERS = Number(process.env.BENCH_LOCK_WAITERS ?? 100);
/** Acquisitions per contender per sample: about 600 acquisitions a sample, so opening sessions weighs little. */
const cyclesPer = (n: number) => Math.max(6, Math.round(600 / n));

type Library = 'ZooScope' | 'Curator' | 'kazoo';

interface LoopSample { perSecond: number; notificationsPerRelease: number }

function newManager(connectString: string): LockManager {
  return new LockManager({ connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 30000 });
}

/** One ZooScope contender: a session of its own, k × (acquire, log enter/exit, release), as the drivers' `cycles`. */
async function zooscopeCycles(connectString: string, lockPath: string, k: number, log: string, name: string): Promise<void> {
  const m = newManager(connectString);
  try {
    await m.open();
    for (let i = 0; i < k; i++) {
      const h = await m.acquire(lockPath);
      await h.whenHeld();
      fs.appendFileSync(log, `enter mutex ${name} ${i}\n`);
      fs.appendFileSync(log, `exit mutex ${name} ${i}\n`);
      await h.release();
    }
  } finally {
    m.close();
  }
}

/** Runs N contenders of one library in a loop; returns when all are done, with the end time (ms, wall clock). */
async function runLoop(library: Library, drivers: Record<'Curator' | 'kazoo', ThirdPartyClient>, connectString: string, lockPath: string, n: number, k: number, log: string): Promise<number> {
  const ids = Array.from({ length: n }, (_, i) => `c${i}`);
  if (library === 'ZooScope') {
    await Promise.all(ids.map((id) => zooscopeCycles(connectString, lockPath, k, log, id)));
    return Date.now();
  }
  const driver = drivers[library];
  const before = driver.events.length;
  for (const id of ids) driver.send(`cycles ${lockPath} ${k} ${log} id=${id} kind=mutex hold=0`);
  const since = () => driver.events.slice(before);
  const failure = () => since().find((e) => e.event === 'error' || e.event === 'failed');
  const finished = () => since().filter((e) => e.event === 'cycles-done' && e.path === lockPath);
  await driver.waitFor(() => failure() !== undefined || finished().length >= n, 600000, `${library} cycles ×${n}`);
  const failed = failure();
  if (failed) throw new Error(`${library} cycles: ${JSON.stringify(failed)}`);
  const end = Math.max(...finished().map((e) => e.t));
  return end;
}

async function loopSample(library: Library, drivers: Record<'Curator' | 'kazoo', ThirdPartyClient>, connectString: string, clientPort: number, n: number, run: number, dir: string): Promise<LoopSample> {
  const k = cyclesPer(n);
  const lockPath = `/bench/loop/${library.toLowerCase()}-${n}-${run}`;
  const log = path.join(dir, `${library}-${n}-${run}.log`);
  const triggered0 = await watchersTriggered(clientPort);
  const start = Date.now();
  const end = await runLoop(library, drivers, connectString, lockPath, n, k, log);
  const triggered = await watchersTriggered(clientPort) - triggered0;
  const { problems, sections } = checkExclusion(fs.readFileSync(log, 'utf8'));
  if (problems.length) throw new Error(`${library} loop ×${n}: mutual exclusion broken: ${problems.slice(0, 3).join('; ')}`);
  if (sections !== n * k) throw new Error(`${library} loop ×${n}: ${sections} sections logged, expected ${n * k}`);
  // Every acquisition but the very first follows a release (the last release wakes nobody).
  return { perSecond: (n * k) / ((end - start) / 1000), notificationsPerRelease: triggered / (n * k - 1) };
}

export async function loopBench(connectString: string, clientPort: number, runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-lockloop-'));
  const [curator, kazoo] = await Promise.all([startCurator(connectString, 30000), startKazoo(connectString, 30000)]);
  const drivers = { Curator: curator, kazoo };
  const libraries: Library[] = ['ZooScope', 'Curator', 'kazoo'];
  try {
    for (const n of SIZES) {
      console.log(`bench: locks in a loop, ${n} contenders…`);
      for (const library of libraries) await loopSample(library, drivers, connectString, clientPort, n, -1, dir); // warm-up
      const samples: Record<Library, LoopSample[]> = { ZooScope: [], Curator: [], kazoo: [] };
      const load: number[] = [];
      for (let run = 0; run < runs; run++) {
        load.push(os.loadavg()[0]);
        // Interleaved, the order rotating per run, so a change of the machine's load hits all three alike.
        for (let i = 0; i < libraries.length; i++) {
          const library = libraries[(i + run) % libraries.length];
          samples[library].push(await loopSample(library, drivers, connectString, clientPort, n, run, dir));
        }
      }
      const rate = (l: Library) => samples[l].map((s) => s.perSecond);
      const handoff = (l: Library) => samples[l].map((s) => 1000 / s.perSecond);
      const best = samples.ZooScope.map((_, run) => Math.max(samples.Curator[run].perSecond, samples.kazoo[run].perSecond));
      const label = `${n} contenders`;
      rows.push(
        { bench: 'locks in a loop', case: `${label}: ZooScope acquisitions/s`, unit: '/s', summary: summarize(rate('ZooScope')), samples: rate('ZooScope'), load,
          baseline: { label: 'better of Curator/kazoo per run', summary: summarize(best) },
          ratios: samples.ZooScope.map((s, run) => s.perSecond / best[run]), goal: { op: '>=', value: 1, on: 'ratio' } },
        { bench: 'locks in a loop', case: `${label}: ZooScope ms per hand-off`, unit: 'ms', summary: summarize(handoff('ZooScope')), samples: handoff('ZooScope'), load,
          baseline: { label: 'faster of Curator/kazoo per run', summary: summarize(best.map((b) => 1000 / b)) },
          ratios: samples.ZooScope.map((s, run) => best[run] / s.perSecond), goal: { op: '<=', value: 1, on: 'ratio' } },
        { bench: 'locks in a loop', case: `${label}: Curator InterProcessMutex acquisitions/s`, unit: '/s', summary: summarize(rate('Curator')), samples: rate('Curator'), load },
        { bench: 'locks in a loop', case: `${label}: kazoo Lock acquisitions/s`, unit: '/s', summary: summarize(rate('kazoo')), samples: rate('kazoo'), load },
      );
      for (const library of libraries) {
        const counts = samples[library].map((s) => s.notificationsPerRelease);
        rows.push({ bench: 'lock notifications', case: `${label}, in the loop: ${library}, per release (server-counted)`, unit: 'n', summary: summarize(counts), samples: counts, load,
          goal: library === 'ZooScope' ? { op: '<=', value: 1 } : undefined });
      }
    }
  } finally {
    await Promise.all([curator.close(), kazoo.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** Resolves once the attempt has its place in the queue (waiting or holding). */
function queued(h: LockHandle): Promise<void> {
  return new Promise((resolve) => {
    const check = () => { if (h.state === 'waiting' || h.state === 'held') resolve(); };
    h.on('change', check);
    check();
  });
}

/** The naive recipe: every waiter lists the children with a watch and re-lists on every change. */
class NaiveContender {
  node = '';
  held: Promise<void>;
  private resolveHeld!: () => void;
  constructor(private readonly session: ZkSession, private readonly path: string) {
    this.held = new Promise((resolve) => { this.resolveHeld = resolve; });
    // Errors after the bench closed the sessions are of no interest.
    session.onNotification((n) => { if (n.path === path) this.check().catch(() => undefined); });
  }

  async enqueue(): Promise<void> {
    const created = await this.session.libraryCall<string>('create', this.path,
      (cb) => this.session.client.create(`${this.path}/lock-`, Buffer.alloc(0), zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL, cb));
    this.node = created.slice(created.lastIndexOf('/') + 1);
    await this.check();
  }

  async check(): Promise<void> {
    const { children } = await this.session.request(ops.getChildren2(this.session.channel, this.path, true), 'getChildren', this.path);
    if ([...children].sort()[0] === this.node) this.resolveHeld();
  }

  release(): Promise<void> {
    const path = `${this.path}/${this.node}`;
    return this.session.libraryCall('remove', path, (cb) => this.session.client.remove(path, -1, cb));
  }
}

/**
 * Watchers the server triggers while `release` runs and `next` becomes the holder. The naive waiters re-list after
 * the holder holds: wait until the server's count stops moving (checked every 50 ms, twice in a row).
 */
async function serverCountDuring(clientPort: number, release: () => Promise<void>, next: Promise<unknown>): Promise<number> {
  const before = await watchersTriggered(clientPort);
  await release();
  await next;
  let last = await watchersTriggered(clientPort);
  for (let still = 0; still < 2;) {
    await new Promise((r) => setTimeout(r, 50));
    const now = await watchersTriggered(clientPort);
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return last - before;
}

export async function waitersBench(connectString: string, clientPort: number, runs: number): Promise<Row[]> {
  const total = WAITERS + runs + 1; // every release still leaves ≥ 100 waiters
  console.log(`bench: lock notifications per release, ${WAITERS}+ waiters…`);
  const load: number[] = [os.loadavg()[0]];
  const ms = Array.from({ length: total }, () => newManager(connectString));
  const ours: number[] = [];
  try {
    await Promise.all(ms.map((m) => m.open()));
    const handles: LockHandle[] = [];
    for (const m of ms) {
      const h = await m.acquire('/bench/notify/zooscope');
      handles.push(h);
      await queued(h); // in order: handles[i + 1] waits for handles[i]
    }
    for (let i = 0; i < runs; i++) ours.push(await serverCountDuring(clientPort, () => handles[i].release(), handles[i + 1].whenHeld()));
  } finally {
    for (const m of ms) m.close();
  }
  const sessions = await Promise.all(Array.from({ length: total }, async () => {
    const s = new ZkSession({ connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 30000 });
    await s.open();
    return s;
  }));
  const naive: number[] = [];
  try {
    await sessions[0].libraryCall('mkdirp', '/bench/notify/naive', (cb) => sessions[0].client.mkdirp('/bench/notify/naive', cb));
    const contenders = sessions.map((s) => new NaiveContender(s, '/bench/notify/naive'));
    for (const c of contenders) await c.enqueue();
    await contenders[0].held;
    for (let i = 0; i < runs; i++) naive.push(await serverCountDuring(clientPort, () => contenders[i].release(), contenders[i + 1].held));
  } finally {
    for (const s of sessions) s.close();
  }
  load.push(os.loadavg()[0]);
  return [
    { bench: 'lock notifications', case: `${WAITERS}+ waiters queued: ZooScope, per release (server-counted)`, unit: 'n', summary: summarize(ours), samples: ours, load,
      baseline: { label: 'naive recipe', summary: summarize(naive) }, ratios: ours.map((o, i) => o / naive[i]), goal: { op: '<=', value: 1 } },
    { bench: 'lock notifications', case: `${WAITERS}+ waiters queued: naive recipe (children watch), per release`, unit: 'n', summary: summarize(naive), samples: naive, load },
  ];
}

export async function locksBench(connectString: string, clientPort: number, runs: number): Promise<Row[]> {
  return [...await loopBench(connectString, clientPort, runs), ...await waitersBench(connectString, clientPort, runs)];
}

if (require.main === module) {
  void (async () => {
    const { startServer } = await import('./fixtures');
    const { formatTable } = await import('./stats');
    const { cluster } = await startServer();
    try {
      const rows = await locksBench(cluster.connectString, cluster.members[0].clientPort, Math.max(5, Number(process.env.BENCH_LOCK_RUNS ?? 11)));
      console.log(formatTable(rows));
    } finally {
      await cluster.stop();
    }
  })().catch((error: unknown) => { console.error(error); process.exitCode = 1; });
}
