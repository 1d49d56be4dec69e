// Bench: questions answered from the log index (src/zk/serverLogs/logIndex.ts) once the logs have been read. A real
// standalone server logs TXNS transactions (default 1,000,000): 10,000 nodes under /app created and then changed
// over and over, and 40 lock queues under /locks whose members (Curator-named, ephemeral) queue and leave; each
// queue's share is 1/40 of the lock traffic, as on a cluster with many locks. The copied logs' times are then
// re-stamped evenly over 24 hours (checksums recomputed), so that "an hour" is 1/24 of the logs, as on a server that
// ran a day; the server wrote everything else. Measured, on the same files:
// - the index's build (one whole read), and its memory per transaction: the heap and the array buffers after it,
//   less before, with collections forced (the bench runs itself again with --expose-gc when started without it);
// - a node's history, and a lock's history for one hour (the queue's history cut at the hour's end, its figures over
//   the hour), median of BENCH_INDEX_RUNS (default 5), each against the same question answered by reading every log
//   again (the baseline, back to back, order alternating). Goals: each query < 1 s, < 100 B per transaction.
// Standalone: `npx tsc -p tsconfig.test.json && node out/bench/logIndexBench.js` (BENCH_INDEX_TXNS, BENCH_INDEX_RUNS).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lockFigures } from '../src/zk/history/figures';
import { lockHistoryFromIndex, lockHistoryFromLogs, type LogLockHistory } from '../src/zk/history/fromServerLogs';
import * as writes from '../src/zk/protocol/writes';
import { adler32 } from '../src/zk/serverLogs/adler32';
import { LogIndex } from '../src/zk/serverLogs/logIndex';
import { logSource, readLogSet, type LogSetItem, type LogSource } from '../src/zk/serverLogs/logSet';
import { nodeHistory, nodeHistoryFromIndex } from '../src/zk/serverLogs/nodeHistory';
import { startingSnapshot } from '../src/zk/serverLogs/startingSnapshot';
import { mapBounded } from '../src/zk/timeouts';
import { openSession, startServer } from './fixtures';
import { collect, formatTable, hasGc, now, type Row, summarize } from './stats';

const LOCKS = 40;
const NODES = 10_000;
const DAY = 24 * 3600_000;
const T0 = Date.UTC(2026, 10, 27);
const member = (queue: number, n: number) => `/locks/q${queue}/_c_0f0e0d0c-0b0a-0908-0706-050403020100-lock-${String(n).padStart(10, '0')}`;

/** The workload's writes, in the order they are sent (one session: the server applies them in that order). */
function* plan(txns: number): Generator<() => writes.CreateRequestFields | { setData: string } | { remove: string }> {
  const lockTxns = Math.floor(txns * 0.3);
  const perQueue = Math.floor(lockTxns / LOCKS / 2);
  let sets = txns - NODES - 2 * perQueue * LOCKS;
  let lockStep = 0;
  for (let i = 0; i < NODES; i++) yield () => ({ path: `/app/d${i % 100}/n${Math.floor(i / 100)}`, data: Buffer.from(`made ${i}`), acl: writes.OPEN_ACL, flags: 0 });
  // Interleaved: for each queue step (a member joins, the one two ahead leaves), a few setData.
  const steps = perQueue * LOCKS;
  const setsPerStep = sets / steps;
  let owed = 0;
  for (let step = 0; step < steps + 2 * LOCKS; step++) {
    const queue = step % LOCKS;
    const n = Math.floor(step / LOCKS);
    if (n < perQueue) yield () => ({ path: member(queue, n), data: Buffer.alloc(0), acl: writes.OPEN_ACL, flags: 1 });
    if (n >= 2 && n - 2 < perQueue) yield () => ({ remove: member(queue, n - 2) });
    for (owed += setsPerStep; owed >= 1 && sets > 0; owed--, sets--) {
      const i = lockStep++ % NODES;
      yield () => ({ setData: `/app/d${i % 100}/n${Math.floor(i / 100)}` });
    }
  }
}

/** Writes the workload with 256 requests in flight; returns the server's data folder once it is stopped. */
async function generate(txns: number): Promise<{ logs: string; stop: () => Promise<void> }> {
  const { cluster } = await startServer();
  const session = await openSession(cluster.connectString);
  const mkdir = (p: string) => writes.create(session.channel, { path: p, data: Buffer.alloc(0), acl: writes.OPEN_ACL, flags: 0 });
  await mkdir('/app');
  await mkdir('/locks');
  for (let d = 0; d < 100; d++) await mkdir(`/app/d${d}`);
  for (let q = 0; q < LOCKS; q++) await mkdir(`/locks/q${q}`);
  const ops = [...plan(txns)];
  await mapBounded(ops, 256, async (op) => {
    const write = op();
    if ('setData' in write) await writes.setData(session.channel, write.setData, Buffer.from(`changed at ${Date.now()}`), -1);
    else if ('remove' in write) await writes.deleteNode(session.channel, write.remove, -1);
    else await writes.create(session.channel, write);
  });
  session.close();
  await cluster.members[0].stop();
  return { logs: path.join(cluster.members[0].dir, 'data', 'version-2'), stop: () => cluster.stop() };
}

/** Copies the folder's logs and snapshots, each entry's time re-stamped evenly over a day, its checksum recomputed. */
function restampedCopy(from: string, into: string, txns: number): void {
  for (const name of fs.readdirSync(from)) {
    const bytes = fs.readFileSync(path.join(from, name));
    if (name.startsWith('log.')) {
      for (let at = 16; at + 12 <= bytes.length;) {
        const length = bytes.readInt32BE(at + 8);
        if (length <= 0) break;
        const payload = bytes.subarray(at + 12, at + 12 + length);
        const counter = Number(payload.readBigUInt64BE(12) & 0xffffffffn);
        payload.writeBigInt64BE(BigInt(T0 + Math.floor((counter * DAY) / txns)), 20);
        bytes.writeUInt32BE(0, at);
        bytes.writeUInt32BE(adler32(payload), at + 4);
        at += 12 + length + 1;
      }
    }
    fs.writeFileSync(path.join(into, name), bytes);
  }
}

async function drain<T>(items: AsyncIterable<T>): Promise<number> {
  let count = 0;
  for await (const item of items) if (item) count++;
  return count;
}

async function* until(items: AsyncIterable<LogSetItem>, time: number): AsyncGenerator<LogSetItem> {
  for await (const item of items) {
    if (item.kind === 'txn' && item.txn.time > time) return;
    yield item;
  }
}

/** The heap and the array buffers' bytes, after collections and a pause for buffers freed behind them. */
async function settledMemory(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

export async function logIndexBench(runs: number, txns: number): Promise<{ rows: Row[]; notes: string[] }> {
  if (!hasGc()) {
    // Heap figures need forced collections: the same bench in a process started with --expose-gc.
    const child = spawnSync(process.execPath, ['--expose-gc', __filename, '--rows'], { env: { ...process.env, BENCH_INDEX_RUNS: String(runs), BENCH_INDEX_TXNS: String(txns) }, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
    if (child.status !== 0) throw new Error(`logIndexBench: exit ${child.status}`);
    return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { rows: Row[]; notes: string[] };
  }
  const notes: string[] = [];
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-indexbench-'));
  const t0 = now();
  const server = await generate(txns);
  try {
    restampedCopy(server.logs, copy, txns);
  } finally {
    await server.stop();
  }
  notes.push(`log index: ${txns.toLocaleString('en-US')} transactions written by the server in ${((now() - t0) / 1000).toFixed(0)} s`);
  const sources: LogSource[] = [logSource(copy)];
  try {
    const build: number[] = [];
    const bytes: number[] = [];
    let index: LogIndex | undefined;
    for (let run = 0; run < Math.min(runs, 3); run++) {
      // The one before is dropped first; array buffers are freed after the collection that finds them dead.
      index = undefined;
      const before = await settledMemory();
      const start = now();
      index = await LogIndex.build(sources);
      build.push(now() - start);
      bytes.push(((await settledMemory()) - before) / index.count);
    }
    if (!index) throw new Error('no index');
    notes.push(`log index: ${index.count.toLocaleString('en-US')} transactions indexed, ${(index.arrayBytes / index.count).toFixed(1)} B of arrays each, ${sources[0].files.length} files`);
    const node = '/app/d42/n17';
    const hourFrom = T0 + 12 * 3600_000;
    const hourTo = hourFrom + 3600_000;
    const lock = '/locks/q7';
    const lockStart = await startingSnapshot(sources, lock);
    if ('problem' in lockStart) throw new Error(lockStart.problem);
    const lockHour = async (built: Promise<LogLockHistory>) => {
      const history = await built;
      return lockFigures(history.history, { from: hourFrom, to: hourTo }, hourTo);
    };
    const samples = { node: [] as number[], nodeFull: [] as number[], lock: [] as number[], lockFull: [] as number[], load: [] as number[] };
    const timed = async (work: () => Promise<unknown>) => {
      const start = now();
      await work();
      return now() - start;
    };
    let nodeEntries = 0;
    let lockFigureRows = 0;
    for (let run = 0; run < runs; run++) {
      const ours = async () => {
        samples.node.push(await timed(async () => { nodeEntries = await drain(nodeHistoryFromIndex(index!, node)); }));
        samples.lock.push(await timed(async () => { lockFigureRows = (await lockHour(lockHistoryFromIndex(index!, lock, lockStart, { to: { time: hourTo } }))).length; }));
      };
      const full = async () => {
        samples.nodeFull.push(await timed(() => drain(nodeHistory(readLogSet(sources), node))));
        samples.lockFull.push(await timed(() => lockHour(lockHistoryFromLogs(until(readLogSet(sources), hourTo), lock, lockStart))));
      };
      samples.load.push(os.loadavg()[0]);
      if (run % 2) { await full(); await ours(); } else { await ours(); await full(); }
    }
    notes.push(`log index: ${node} has ${nodeEntries} history entries; ${lock}'s hour ${new Date(hourFrom).toISOString()}–${new Date(hourTo).toISOString()} gave ${lockFigureRows} figure rows`);
    const ratios = (ours: number[], base: number[]) => ours.map((ms, i) => ms / base[i]);
    const rows: Row[] = [
      { bench: 'log index', case: `build: one whole read of ${index.count.toLocaleString('en-US')} transactions`, unit: 'ms', summary: summarize(build), samples: build },
      { bench: 'log index', case: 'memory per transaction (heap + array buffers, after − before)', unit: 'B', summary: summarize(bytes), samples: bytes, goal: { op: '<', value: 100 } },
      { bench: 'log index', case: `a node's history (${node})`, unit: 'ms', summary: summarize(samples.node), samples: samples.node, load: samples.load, goal: { op: '<', value: 1000 },
        baseline: { label: 'every log read again', summary: summarize(samples.nodeFull) }, ratios: ratios(samples.node, samples.nodeFull) },
      { bench: 'log index', case: `a lock's history for an hour (${lock}, figures over the hour)`, unit: 'ms', summary: summarize(samples.lock), samples: samples.lock, load: samples.load, goal: { op: '<', value: 1000 },
        baseline: { label: 'every log read again', summary: summarize(samples.lockFull) }, ratios: ratios(samples.lock, samples.lockFull) },
    ];
    return { rows, notes };
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const runs = Math.max(3, Number(process.env.BENCH_INDEX_RUNS ?? 5));
  const txns = Math.max(10_000, Number(process.env.BENCH_INDEX_TXNS ?? 1_000_000));
  const rowsOnly = process.argv.includes('--rows');
  if (!hasGc() && !rowsOnly) {
    const again = spawnSync(process.execPath, ['--expose-gc', __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exit(again.status ?? 1);
  }
  logIndexBench(runs, txns).then((result) => {
    if (rowsOnly) console.log(JSON.stringify(result));
    else {
      console.log(formatTable(result.rows));
      for (const note of result.notes) console.log(note);
    }
    process.exit(0);
  }, (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
