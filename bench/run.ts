// Runs every benchmark against one fresh standalone ZooKeeper and prints a table (median, min–max, ratio to a
// baseline measured in the same run); writes bench/results/bench-<time>.json and bench/results/latest.json.
// Run through `npm run bench` (scripts/bench.sh), which compiles and packages first and passes --expose-gc.
// Environment: BENCH_RUNS (sort and webview runs, default 9, at least 5), BENCH_OPEN_RUNS (open-node runs, default
// 21, at least 5: one open's 1,000 Stat reads vary 2–3× from run to run on a 2-core machine, so its median needs
// many), BENCH_CHANGES (changes per case, default 20, at least 20), BENCH_WIDE (comma-separated child counts,
// default 20000,100000), BENCH_LOCK_RUNS (lock samples per case, default 11: one sample's ratio to Curator and
// kazoo ranges over 0.75–1.4× here, so a median of 5 moved by ±0.1 between invocations).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { changeBench, ChangeCase } from './changeBench';
import { connectOtherClient, CREATE_WINDOW, DEBOUNCE_MS, PAGE_SIZE, startServer, WideNode, WINDOW, createWideNode } from './fixtures';
import { memoryBench, openBench } from './openBench';
import { packageFigures } from './packageFigures';
import { analysisBench } from './analysisBench';
import { sortBench } from './sortBench';
import { webviewBench } from './webviewBench';
import { timelineBench } from './timelineBench';
import { searchBench } from './searchBench';
import { locksBench } from './locksBench';
import { metricsBench } from './metricsBench';
import { securedBench } from './securedBench';
import { sshBench } from './sshBench';
import { censusBench } from './censusBench';
import { logIndexBench } from './logIndexBench';
import { formatTable, hasGc, meetsGoal, ratio, Row } from './stats';

const repoRoot = path.resolve(__dirname, '..', '..');

function intFromEnv(name: string, fallback: number, min: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}`);
  return value;
}

async function main(): Promise<number> {
  const runs = intFromEnv('BENCH_RUNS', 9, 5);
  const openRuns = intFromEnv('BENCH_OPEN_RUNS', 21, 5);
  const changes = intFromEnv('BENCH_CHANGES', 20, 20);
  const sizes = (process.env.BENCH_WIDE ?? '20000,100000').split(',').map(Number);
  if (!hasGc()) console.warn('bench: run node with --expose-gc for the memory figures and stable timings');
  const started = Date.now();
  const load0 = os.loadavg();
  const phases: Record<string, number> = {};
  const phase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    console.log(`bench: ${name}…`);
    try {
      return await work();
    } finally {
      phases[name] = (Date.now() - t0) / 1000;
    }
  };

  const rows: Row[] = [];
  // Rows whose bench does not record the load per sample get the load when they were produced.
  const addRows = (list: Row[]) => {
    const load = os.loadavg()[0];
    for (const row of list) row.load ??= [load];
    rows.push(...list);
  };
  const notes: string[] = [];
  const { cluster, dataDir, fsType } = await phase('start ZooKeeper (data on disk)', () => startServer());
  const stopOnSignal = () => { void cluster.stop().finally(() => process.exit(130)); };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    const connectString = cluster.connectString;
    const writer = await connectOtherClient(connectString, 30000);
    const rawClient = await connectOtherClient(connectString, 30000);
    const raw = rawClient.client;
    try {
      const wide: WideNode[] = sizes.map((n) => ({ path: `/bench/w${n}`, children: n }));
      const live: WideNode = { path: '/bench/live', children: 100 };
      await phase(`create ${[...wide, live].map((n) => n.children).join(' + ')} children (≤ ${CREATE_WINDOW} in flight)`, async () => {
        for (const node of [...wide, live]) await createWideNode(writer, node);
      });

      const open = await phase(`open (${openRuns} runs per size)`, () => openBench(connectString, wide, openRuns));
      addRows(open.rows);
      const biggest = wide[wide.length - 1];
      addRows(await phase('memory (RSS, a process per measurement)', () => memoryBench(connectString, biggest, Math.max(5, Math.min(runs, 5)))));

      const cases: ChangeCase[] = [
        { node: live, debounceMs: DEBOUNCE_MS, goal: true },
        { node: live, debounceMs: 0, goal: false },
        ...wide.map((node) => ({ node, debounceMs: DEBOUNCE_MS, goal: false })),
      ];
      await phase(`live changes (${changes} per case)`, async () => {
        for (const c of cases) addRows(await changeBench(connectString, writer, raw, c, changes));
      });

      addRows(await phase('natural sort', () => sortBench(raw, wide, open.openMedian, runs)));
      // Own run count: each run crawls 100k nodes four times (ours and bare, by path and by content).
      addRows(await phase('search 100k', () => searchBench(connectString, writer, intFromEnv('BENCH_SEARCH_RUNS', 5, 5))));
      // Its own server (AdminServer on), so the tables can be read both ways.
      addRows(await phase('lock analysis', () => analysisBench(Math.max(5, Math.min(runs, 7)))));
      // Hand-off against Curator and kazoo driver processes; notifications per release against the naive recipe.
      addRows(await phase('locks', () => locksBench(connectString, cluster.members[0].clientPort, intFromEnv('BENCH_LOCK_RUNS', 11, 5))));
      // The recorder's CPU with lock metrics served and scraped, against without, at 1,000 hand-offs a second.
      addRows(await phase('lock metrics', () => metricsBench(connectString, intFromEnv('BENCH_METRICS_RUNS', 5, 5), intFromEnv('BENCH_METRICS_SECONDS', 10, 2))));
      // Its own server serving plain, TLS and TLS + SASL at once.
      addRows(await phase('secured', () => securedBench(Math.max(5, Math.min(runs, 7)))));
      // Its own server and sshd: the same work direct and through the SSH bastion.
      addRows(await phase('ssh', () => sshBench(Math.max(5, Math.min(runs, 7)))));
      // Its own server (1 GiB heap): a census of a million watches, each in a process of its own.
      const census = await phase('watch census', () => censusBench(intFromEnv('BENCH_CENSUS_RUNS', 5, 1), intFromEnv('BENCH_CENSUS_PATHS', 250_000, 1), intFromEnv('BENCH_CENSUS_SESSIONS', 4, 1)));
      addRows(census.rows);
      notes.push(...census.notes);
      // Its own server: a million transactions logged, then questions answered from the index against a re-read.
      const logIndex = await phase('log index', () => logIndexBench(intFromEnv('BENCH_INDEX_RUNS', 5, 3), intFromEnv('BENCH_INDEX_TXNS', 1_000_000, 10_000)));
      addRows(logIndex.rows);
      notes.push(...logIndex.notes);
    } finally {
      writer.close();
      rawClient.close();
    }
  } finally {
    await cluster.stop();
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }

  // A browser that dies under load must not cost the table of everything measured before it.
  const webview = await phase(`webview (${runs} runs per size)`, () => webviewBench(runs))
    .catch((error: unknown) => ({ rows: [] as Row[], notes: [`webview: failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); run node out/bench/webviewBench.js alone`] }));
  addRows(webview.rows);
  notes.push(...webview.notes);
  const timeline = await phase(`timeline (${runs} runs)`, () => timelineBench(runs))
    .catch((error: unknown) => ({ rows: [] as Row[], notes: [`timeline: failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); run node out/bench/timelineBench.js alone`] }));
  addRows(timeline.rows);
  notes.push(...timeline.notes);

  const pkg = packageFigures(repoRoot);
  addRows(pkg.rows);
  notes.push(...pkg.notes);

  const table = formatTable(rows);
  console.log('');
  console.log(table);
  for (const note of notes) console.log(`note: ${note}`);
  const missed = rows.filter((r) => meetsGoal(r) === false);

  const result = {
    date: new Date(started).toISOString(),
    durationSeconds: (Date.now() - started) / 1000,
    phasesSeconds: phases,
    machine: {
      node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, totalMemMiB: Math.round(os.totalmem() / 2 ** 20),
      loadAvgStart: load0, loadAvgEnd: os.loadavg(), gcExposed: hasGc(), zkDataDir: dataDir, zkDataFsType: fsType,
    },
    settings: { runs, openRuns, changes, pageSize: PAGE_SIZE, window: WINDOW, debounceMs: DEBOUNCE_MS, createWindow: CREATE_WINDOW, sizes },
    rows: rows.map((r) => ({ ...r, ratio: ratio(r), goalMet: meetsGoal(r) })),
    package: { vsix: pkg.vsix, bundle: pkg.bundle, activation: pkg.activation },
    notes,
    table,
  };
  const dir = path.join(repoRoot, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = result.date.replace(/[:.]/g, '-');
  const file = path.join(dir, `bench-${stamp}.json`);
  const json = JSON.stringify(result, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n';
  fs.writeFileSync(file, json);
  fs.writeFileSync(path.join(dir, 'latest.json'), json);
  console.log(`\nbench: ${path.relative(repoRoot, file)} (${result.durationSeconds.toFixed(0)} s; load average ${load0.map((l) => l.toFixed(1)).join(' ')} → ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  console.log(`bench: phases ${Object.entries(phases).map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join('; ')}`);
  if (missed.length) console.log(`bench: goal missed: ${missed.map((r) => `${r.bench} / ${r.case}`).join('; ')}`);
  return 0;
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error('bench: failed:', error);
  process.exit(1);
});
