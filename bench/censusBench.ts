// The watch census of a million watches (issue 35), against a standalone ZooKeeper of its own (1 GiB heap: the
// server's watch tables for a million watches outgrow the tests' 256 MiB): SESSIONS sessions each data-watch the
// same PATHS nodes (SESSIONS × PATHS watches). Each census runs in a process of its own (`child`), so its peak RSS
// rise is its own: the tally of `takeCensus` as it reads `wchp` streamed. The time is set against the server's own
// time to answer: the raw `wchp` fetched and thrown away (the same bytes, nothing counted), back to back, order
// alternating, ratio per run. `wchc` (the same watches by session) is fetched raw once for its size.
//   npx tsc -p tsconfig.test.json && node out/bench/censusBench.js        (BENCH_CENSUS_RUNS, BENCH_CENSUS_PATHS, BENCH_CENSUS_SESSIONS)
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { takeCensus } from '../src/zk/census';
import { streamWordAnswer } from '../src/zk/servers/fourLetterWords';
import { mapBounded } from '../src/zk/timeouts';
import { connectOtherClient, OtherClient } from '../test/support/clients/zkClient';
import { startStandalone } from '../test/support/servers/zkServer';
import { collect, formatTable, now, Row, summarize } from './stats';

const MiB = 2 ** 20;
const WINDOW = 512;
const LISTING_MS = 600_000;

interface ChildResult { ms: number; rssStartMiB: number; peakRssMiB: number; heapAfterMiB: number; dataWatches: number; watchedPaths: number; topPath: string }

/** One census in this process: prints its figures as JSON. */
async function child(port: number): Promise<void> {
  collect();
  const rssStart = process.memoryUsage().rss;
  let peak = rssStart;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
  const t0 = now();
  const census = await takeCensus([{ host: '127.0.0.1', port }], { listingTimeoutMs: LISTING_MS, answerTimeoutMs: 60000 });
  const ms = now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  collect();
  const result: ChildResult = {
    ms, rssStartMiB: rssStart / MiB, peakRssMiB: peak / MiB, heapAfterMiB: process.memoryUsage().heapUsed / MiB,
    dataWatches: census!.totals.dataWatches, watchedPaths: census!.totals.watchedPaths, topPath: census!.paths[0]?.path ?? '',
  };
  console.log(JSON.stringify(result));
}

function runChild(port: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', __filename, 'child', String(port)], { maxBuffer: 1 << 20, timeout: LISTING_MS }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`census child failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult);
    });
  });
}

/** The server's own time to answer a word: every byte read and dropped. */
async function rawFetch(port: number, word: string): Promise<{ ms: number; bytes: number }> {
  let bytes = 0;
  const t0 = now();
  await streamWordAnswer('127.0.0.1', port, word, { timeoutMs: LISTING_MS }, (chunk) => { bytes += chunk.length; });
  return { ms: now() - t0, bytes };
}

async function setUp(connectString: string, paths: number, sessions: number): Promise<OtherClient[]> {
  const owner = await connectOtherClient(connectString, 60000);
  await owner.mkdirp('/census');
  const names = Array.from({ length: paths }, (_, i) => `/census/n${i}`);
  await mapBounded(names, WINDOW, (p) => owner.create(p, '', zookeeper.CreateMode.PERSISTENT).catch(() => undefined));
  const watchers: OtherClient[] = [owner];
  for (let s = 0; s < sessions; s++) {
    const watcher = s === 0 ? owner : await connectOtherClient(connectString, 60000);
    if (s > 0) watchers.push(watcher);
    await mapBounded(names, WINDOW, (p) => new Promise<void>((resolve, reject) =>
      watcher.client.exists(p, () => undefined, (e) => (e ? reject(e) : resolve()))));
  }
  return watchers;
}

export async function censusBench(runs: number, paths: number, sessions: number): Promise<{ rows: Row[]; notes: string[] }> {
  const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-censusbench-'));
  const cluster = await startStandalone({ baseDir, adminServer: false, maxHeap: '1g' });
  const port = cluster.members[0].clientPort;
  const watches = paths * sessions;
  const notes: string[] = [];
  try {
    const t0 = now();
    const clients = await setUp(cluster.connectString, paths, sessions);
    notes.push(`set up ${watches.toLocaleString('en-US')} watches (${sessions} sessions × ${paths.toLocaleString('en-US')} paths) in ${((now() - t0) / 1000).toFixed(0)} s`);
    const wchc = await rawFetch(port, 'wchc');
    const first = await rawFetch(port, 'wchp');
    notes.push(`raw answers: wchp ${(first.bytes / MiB).toFixed(1)} MiB, wchc ${(wchc.bytes / MiB).toFixed(1)} MiB`);
    const census: number[] = [];
    const raw: number[] = [];
    const ratios: number[] = [];
    const peaks: number[] = [];
    const perWatch: number[] = [];
    const heaps: number[] = [];
    for (let run = 0; run < runs; run++) {
      const order = run % 2 ? ['census', 'raw'] : ['raw', 'census'];
      let c: ChildResult | undefined;
      let r: { ms: number } | undefined;
      for (const which of order) {
        if (which === 'raw') r = await rawFetch(port, 'wchp');
        else c = await runChild(port);
      }
      if (c!.dataWatches !== watches) throw new Error(`the census counted ${c!.dataWatches} watches, ${watches} were set`);
      census.push(c!.ms);
      raw.push(r!.ms);
      ratios.push(c!.ms / r!.ms);
      const rise = c!.peakRssMiB - c!.rssStartMiB;
      peaks.push(c!.peakRssMiB);
      perWatch.push((rise * MiB) / watches);
      heaps.push(c!.heapAfterMiB);
    }
    for (const client of clients) client.close();
    const label = `${(watches / 1e6).toLocaleString('en-US')}M watches`;
    const rows: Row[] = [
      { bench: 'census', case: `${label}: time`, unit: 'ms', summary: summarize(census), baseline: { label: 'raw wchp fetch', summary: summarize(raw) }, ratios, samples: census },
      { bench: 'census', case: `${label}: peak RSS of the census process`, unit: 'MiB', summary: summarize(peaks), goal: { op: '<', value: 200 }, samples: peaks },
      { bench: 'census', case: `${label}: RSS rise per watch`, unit: 'B', summary: summarize(perWatch), samples: perWatch },
      { bench: 'census', case: `${label}: JS heap after (census kept)`, unit: 'MiB', summary: summarize(heaps), samples: heaps },
    ];
    return { rows, notes };
  } finally {
    await cluster.stop();
    fs.rmSync(baseDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  if (process.argv[2] === 'child') {
    child(Number(process.argv[3])).then(() => process.exit(0), (error: unknown) => { console.error(error); process.exit(1); });
  } else {
    const runs = Math.max(1, Number(process.env.BENCH_CENSUS_RUNS ?? 5));
    const paths = Number(process.env.BENCH_CENSUS_PATHS ?? 250_000);
    const sessions = Number(process.env.BENCH_CENSUS_SESSIONS ?? 4);
    censusBench(runs, paths, sessions).then(({ rows, notes }) => {
      console.log(formatTable(rows));
      for (const note of notes) console.log(note);
      process.exit(0);
    }, (error: unknown) => {
      console.error('bench: failed:', error);
      process.exit(1);
    });
  }
}
