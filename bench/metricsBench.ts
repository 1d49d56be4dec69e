// What serving lock metrics costs the recorder (issue 36): at about 1,000 hand-offs a second the recorder's CPU (a
// process of its own, bench/metricsChild.ts: monitor, recursive watch, recorder) with the metrics attached, served
// and scraped every second, against the same recorder without them, on the same hand-offs. Each run measures both
// back to back (order alternating) and takes their ratio; the table shows the median ratio. Goal ≤ 1.10. On a loaded
// machine that ratio swings either way by more than the metrics cost, so a second row times the metrics' own code
// inside the recorder (each event noted, each scrape rendered) as a share of the recorder's CPU.
// The hand-offs: one client keeps each of QUEUES plain-lock queues two deep (a holder and a waiter) and, paced to the
// rate, creates the next waiter and deletes the holder (the waiter takes over: one hand-off, told to the recorder as
// a create and a delete). Run alone (a fresh disk-backed server of its own):
// `npx tsc -p tsconfig.test.json && node out/bench/metricsBench.js` (`BENCH_METRICS_RUNS`, default 5; `BENCH_METRICS_SECONDS`, default 10).
import { ChildProcess, spawn } from 'node:child_process';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as zookeeper from 'node-zookeeper-client';
import { connectOtherClient, OtherClient } from '../test/support/clients/zkClient';
import { now, Row, sleep, summarize } from './stats';

const RATE = 1000;
const QUEUES = 4;
const ROOT = '/metrics-bench';

interface Recorder {
  proc: ChildProcess;
  lines: string[];
  url?: string;
}

async function startRecorder(connectString: string, metrics: boolean): Promise<Recorder> {
  const proc = spawn(process.execPath, [path.join(__dirname, 'metricsChild.js'), connectString, ROOT, ...(metrics ? ['--metrics'] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  readline.createInterface({ input: proc.stdout! }).on('line', (line) => lines.push(line));
  const deadline = Date.now() + 60000;
  while (!lines.some((l) => l.includes('"ready"'))) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error('metricsBench: the recorder did not start');
    await sleep(20);
  }
  const ready = JSON.parse(lines.find((l) => l.includes('"ready"'))!) as { url?: string };
  return { proc, lines, url: ready.url };
}

async function stopRecorder(recorder: Recorder): Promise<{ cpuMs: number; metricsMs: number; intervals: number }> {
  recorder.proc.stdin!.write('stop\n');
  const deadline = Date.now() + 30000;
  while (!recorder.lines.some((l) => l.includes('"cpuMs"'))) {
    if (Date.now() > deadline) throw new Error('metricsBench: no CPU figure from the recorder');
    await sleep(20);
  }
  return JSON.parse(recorder.lines.find((l) => l.includes('"cpuMs"'))!) as { cpuMs: number; metricsMs: number; intervals: number };
}

const create = (client: zookeeper.Client, p: string) => new Promise<string>((resolve, reject) => client.create(p, null as unknown as Buffer, zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL, (e, made) => (e ? reject(e) : resolve(made))));
const remove = (client: zookeeper.Client, p: string) => new Promise<void>((resolve, reject) => client.remove(p, -1, (e) => (e ? reject(e) : resolve())));

/** `count` hand-offs over the queues, paced to RATE a second. */
async function handOffs(client: OtherClient, queues: string[][], count: number): Promise<number> {
  const start = now();
  for (let i = 0; i < count; i++) {
    const queue = queues[i % QUEUES];
    queue.push(await create(client.client, `${ROOT}/q${i % QUEUES}/lock-`));
    await remove(client.client, queue.shift()!);
    const ahead = (i + 1) * (1000 / RATE) - (now() - start);
    if (ahead >= 5) await sleep(ahead);
  }
  return count / ((now() - start) / 1000);
}

function scrapeEvery(url: string, ms: number): () => Promise<number> {
  let stopped = false;
  let scrapes = 0;
  const loop = (async () => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        http.get(url, { headers: { accept: 'application/openmetrics-text;version=1.0.0' } }, (response) => {
          response.resume();
          response.on('end', () => { scrapes++; resolve(); });
        }).on('error', () => resolve());
      });
      await sleep(ms);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return scrapes;
  };
}

/** One measurement: a fresh recorder (with or without metrics), `count` hand-offs, its CPU over them. */
async function measure(connectString: string, client: OtherClient, queues: string[][], metrics: boolean, count: number, rates: number[], shares: number[]): Promise<number> {
  const recorder = await startRecorder(connectString, metrics);
  try {
    recorder.proc.stdin!.write('start\n');
    const stopScraping = recorder.url ? scrapeEvery(recorder.url, 1000) : undefined;
    rates.push(await handOffs(client, queues, count));
    await sleep(500); // the last events reach the recorder
    const scrapes = await stopScraping?.();
    if (stopScraping && !scrapes) throw new Error('metricsBench: never scraped');
    const { cpuMs, metricsMs } = await stopRecorder(recorder);
    if (metrics) shares.push((100 * metricsMs) / cpuMs);
    return cpuMs;
  } finally {
    recorder.proc.kill();
  }
}

export async function metricsBench(connectString: string, runs: number, seconds: number): Promise<Row[]> {
  const client = await connectOtherClient(connectString, 30000);
  const count = RATE * seconds;
  const withMetrics: number[] = [];
  const without: number[] = [];
  const load: number[] = [];
  const rates: number[] = [];
  const shares: number[] = [];
  try {
    const queues: string[][] = [];
    for (let q = 0; q < QUEUES; q++) {
      await client.mkdirp(`${ROOT}/q${q}`);
      queues.push([await create(client.client, `${ROOT}/q${q}/lock-`)]);
    }
    for (let run = 0; run < runs; run++) {
      for (const metrics of run % 2 === 0 ? [false, true] : [true, false]) {
        (metrics ? withMetrics : without).push(await measure(connectString, client, queues, metrics, count, rates, shares));
      }
      load.push(os.loadavg()[0]);
    }
  } finally {
    client.close();
  }
  const perSecond = (cpuMs: number) => cpuMs / seconds;
  return [{
    bench: 'lock metrics', case: `recorder CPU per second at ${RATE} hand-offs/s, --metrics scraped every 1 s`, unit: 'ms',
    summary: summarize(withMetrics.map(perSecond)), baseline: { label: 'the same recorder without --metrics', summary: summarize(without.map(perSecond)) },
    ratios: withMetrics.map((w, i) => w / without[i]), goal: { op: '<=', value: 1.1, on: 'ratio' }, load,
    note: `${count} hand-offs a measurement over ${QUEUES} queues at ${summarize(rates).median.toFixed(0)}/s (median; ${summarize(rates).min.toFixed(0)}–${summarize(rates).max.toFixed(0)}); CPU ms (user + system) the recorder used per second`,
  }, {
    bench: 'lock metrics', case: 'time inside the metrics\' code (events noted, scrapes rendered), share of the recorder\'s CPU', unit: '%',
    summary: summarize(shares), goal: { op: '<=', value: 10 }, load,
    note: 'wall time measured around each call in the recorder process, so it includes any preemption: an upper bound',
  }];
}

if (require.main === module) {
  void (async () => {
    const { startServer } = await import('./fixtures');
    const { formatTable } = await import('./stats');
    const { cluster } = await startServer();
    try {
      const rows = await metricsBench(cluster.connectString, Math.max(5, Number(process.env.BENCH_METRICS_RUNS ?? 5)), Math.max(2, Number(process.env.BENCH_METRICS_SECONDS ?? 10)));
      console.log(formatTable(rows));
      console.log(JSON.stringify(rows.map((r) => ({ ratios: r.ratios, with: r.summary, without: r.baseline?.summary }))));
    } finally {
      await cluster.stop();
    }
  })().catch((error: unknown) => { console.error(error); process.exitCode = 1; });
}
