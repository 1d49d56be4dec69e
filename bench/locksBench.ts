// Lock benchmarks against one real server, every figure with its baselines measured in the same run:
// - hand-off: time from a holder's release to the next holder's acquire, as (first release → last acquire) / (N-1)
//   over a queue of N contenders that each release at once when they get the lock (the first holder releases once
//   every contender's node exists, checked every 5 ms, the same in all three); ZooScope's recipe against
//   Curator's InterProcessMutex and kazoo's Lock (driver processes, each timing itself with its own clock).
//   Goal: no slower than the faster of the two.
// - notifications per release with 100 waiters: watch events really delivered to the waiting sessions (counted in
//   them) between a release and the next holder's acquire; ZooScope's recipe against the naive recipe (every
//   waiter watches the lock's children). Goal: exactly 1 against ~100.
// Run alone with `node out/bench/locksBench.js` (after `npx tsc -p tsconfig.test.json`), or from bench/run.ts.
import { performance } from 'node:perf_hooks';
import * as zookeeper from 'node-zookeeper-client';
import { LockHandle, LockManager } from '../src/zk/locks';
import * as ops from '../src/zk/protocol/operations';
import { ZkSession } from '../src/zk/session';
import { startCurator } from '../test/support/thirdParty/curator';
import { ThirdPartyClient } from '../test/support/thirdParty/driver';
import { startKazoo } from '../test/support/thirdParty/kazoo';
import { Row, sleep, summarize } from './stats';

const SIZES = [2, 10, 100];
const WAITERS = Number(process.env.BENCH_LOCK_WAITERS ?? 100);

function managers(connectString: string, n: number): Promise<LockManager[]> {
  return Promise.all(Array.from({ length: n }, async () => {
    const m = new LockManager({ connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 30000 });
    await m.open();
    return m;
  }));
}

/** Resolves once the attempt has its place in the queue (waiting or holding). */
function queued(h: LockHandle): Promise<void> {
  return new Promise((resolve) => {
    const check = () => { if (h.state === 'waiting' || h.state === 'held') resolve(); };
    h.on('change', check);
    check();
  });
}

/** Hand-offs per sample: small queues run several rounds per sample, so each sample averages ≥ 20 hand-offs. */
const roundsPerSample = (n: number) => Math.ceil(20 / (n - 1));

interface Round { totalMs: number; handoffs: number }

/** One ZooScope hand-off round: contender 0 holds, the others queue, then every holder releases at once. */
async function zooscopeRound(ms: LockManager[], path: string): Promise<Round> {
  const first = await ms[0].acquire(path);
  await first.whenHeld();
  const handles: LockHandle[] = [];
  for (const m of ms.slice(1)) handles.push(await m.acquire(path));
  // The drivers' protocol exactly: release once every contender's node exists, checking every 5 ms. (Releasing the
  // moment each one is waiting would spare ZooScope the slower first hand-off after a quiet pause.)
  const session = ms[0].lockSession!;
  while ((await session.getChildren(path)).children.length < ms.length) await sleep(5);
  let last = 0;
  const done = handles.map(async (h) => {
    await h.whenHeld();
    last = Math.max(last, performance.now());
    await h.release();
  });
  const releasedAt = performance.now();
  await first.release();
  await Promise.all(done);
  return { totalMs: last - releasedAt, handoffs: handles.length };
}

/** One sample of ZooScope: fresh sessions, a warm-up round, then k rounds. */
async function zooscopeSample(connectString: string, n: number, path: string): Promise<number> {
  const ms = await managers(connectString, n);
  try {
    await zooscopeRound(ms, path);
    const rounds: Round[] = [];
    for (let i = 0; i < roundsPerSample(n); i++) rounds.push(await zooscopeRound(ms, path));
    return perHandoff(rounds);
  } finally {
    for (const m of ms) m.close();
  }
}

const perHandoff = (rounds: Round[]) => rounds.reduce((t, r) => t + r.totalMs, 0) / rounds.reduce((t, r) => t + r.handoffs, 0);

/** One sample of a driver: its fresh sessions, a warm-up round (class loading, JIT) not counted, then k rounds. */
async function driverSample(driver: ThirdPartyClient, path: string, n: number): Promise<number> {
  const before = driver.events.length;
  const k = roundsPerSample(n);
  driver.send(`handoff ${path} ${n} rounds=${k + 1}`);
  await driver.waitFor((e) => e.event === 'handoff' && e.round === k && driver.events.indexOf(e) >= before, 600000, `${driver.library} handoff ${n}`);
  const rounds = driver.events.slice(before).filter((e) => e.event === 'handoff' && Number(e.round) > 0);
  return perHandoff(rounds.map((e) => ({ totalMs: Number(e.totalMs), handoffs: Number(e.handoffs) })));
}

export async function handoffBench(connectString: string, runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  const [curator, kazoo] = await Promise.all([startCurator(connectString, 30000), startKazoo(connectString, 30000)]);
  try {
    for (const n of SIZES) {
      console.log(`bench: lock hand-off, ${n} contenders…`);
      const ours: number[] = [];
      const cur: number[] = [];
      const kaz: number[] = [];
      // Interleaved, so a change of the machine's load hits all three alike.
      for (let run = 0; run < runs; run++) {
        ours.push(await zooscopeSample(connectString, n, `/bench/locks/zooscope-${n}`));
        cur.push(await driverSample(curator, `/bench/locks/curator-${n}`, n));
        kaz.push(await driverSample(kazoo, `/bench/locks/kazoo-${n}`, n));
      }
      const [o, c, k] = [summarize(ours), summarize(cur), summarize(kaz)];
      const faster = c.median <= k.median ? { label: 'Curator', summary: c } : { label: 'kazoo', summary: k };
      rows.push(
        { bench: 'lock hand-off', case: `${n} contenders: ZooScope`, unit: 'ms', summary: o, samples: ours, baseline: faster, goal: { op: '<=', value: Number(faster.summary.median.toFixed(3)) } },
        { bench: 'lock hand-off', case: `${n} contenders: Curator InterProcessMutex`, unit: 'ms', summary: c, samples: cur },
        { bench: 'lock hand-off', case: `${n} contenders: kazoo Lock`, unit: 'ms', summary: k, samples: kaz },
      );
    }
  } finally {
    await Promise.all([curator.close(), kazoo.close()]);
  }
  return rows;
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

/** Notifications delivered to `sessions` while `release` runs and `next` becomes the holder (plus 200 ms). */
async function countDuring(sessions: ZkSession[], release: () => Promise<void>, next: Promise<unknown>): Promise<{ count: number; handoffMs: number }> {
  let count = 0;
  const stops = sessions.map((s) => s.onNotification(() => { count++; }));
  const t0 = performance.now();
  await release();
  await next;
  const handoffMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 200)); // late notifications still count
  for (const stop of stops) stop();
  return { count, handoffMs };
}

export async function notificationBench(connectString: string, runs: number): Promise<Row[]> {
  const total = WAITERS + runs + 1; // every release still leaves ≥ 100 waiters
  console.log(`bench: lock notifications per release, ${WAITERS}+ waiters…`);
  const ms = await managers(connectString, total);
  const ours: number[] = [];
  try {
    const handles: LockHandle[] = [];
    for (const m of ms) {
      const h = await m.acquire('/bench/notify/zooscope');
      handles.push(h);
      await queued(h); // in order: handles[i + 1] waits for handles[i]
    }
    for (let i = 0; i < runs; i++) {
      const waiting = ms.slice(i + 1).map((m) => m.lockSession!);
      ours.push((await countDuring(waiting, () => handles[i].release(), handles[i + 1].whenHeld())).count);
    }
  } finally {
    for (const m of ms) m.close();
  }
  const sessions = await Promise.all(Array.from({ length: total }, async () => {
    const s = new ZkSession({ connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 30000 });
    await s.open();
    return s;
  }));
  const naive: number[] = [];
  const naiveHandoff: number[] = [];
  try {
    await sessions[0].libraryCall('mkdirp', '/bench/notify/naive', (cb) => sessions[0].client.mkdirp('/bench/notify/naive', cb));
    const contenders = sessions.map((s) => new NaiveContender(s, '/bench/notify/naive'));
    for (const c of contenders) await c.enqueue();
    await contenders[0].held;
    for (let i = 0; i < runs; i++) {
      const result = await countDuring(sessions.slice(i + 1), () => contenders[i].release(), contenders[i + 1].held);
      naive.push(result.count);
      naiveHandoff.push(result.handoffMs);
    }
  } finally {
    for (const s of sessions) s.close();
  }
  return [
    { bench: 'lock notifications', case: `per release, ${WAITERS}+ waiters: ZooScope`, unit: 'n', summary: summarize(ours), samples: ours, baseline: { label: 'naive recipe', summary: summarize(naive) }, goal: { op: '<=', value: 1 } },
    { bench: 'lock notifications', case: `per release, ${WAITERS}+ waiters: naive recipe (children watch)`, unit: 'n', summary: summarize(naive), samples: naive },
    { bench: 'lock hand-off', case: `${WAITERS}+ waiters: naive recipe (release → next holder)`, unit: 'ms', summary: summarize(naiveHandoff), samples: naiveHandoff },
  ];
}

export async function locksBench(connectString: string, runs: number): Promise<Row[]> {
  return [...await handoffBench(connectString, runs), ...await notificationBench(connectString, runs)];
}

if (require.main === module) {
  void (async () => {
    const { startStandalone } = await import('../test/support/zkServer');
    const { formatTable } = await import('./stats');
    const zk = await startStandalone({ adminServer: false });
    try {
      const rows = await locksBench(zk.connectString, Math.max(5, Number(process.env.BENCH_RUNS ?? 11)));
      console.log(formatTable(rows));
    } finally {
      await zk.stop();
    }
  })().catch((error: unknown) => { console.error(error); process.exitCode = 1; });
}
