// Bench: reading a server's transaction logs. A real standalone server logs TXNS single writes (creates, then a
// setData of each: 2 × TXNS/2 transactions of the shapes a busy cluster logs); then, on the same files, paired and
// alternating:
// - `zooscope log <dir> --json` as a user runs it (node start included, output discarded) against ZooKeeper's own
//   TxnLogToolkit over every log file (JVM starts included, output discarded). Goal: at least 5× as fast.
// - memory while streaming: the reader's peak RSS over the first half of the files against all of them (a child
//   process each, bench/serverLogChild.ts): it must not grow with the log's length.
// Standalone: `node out/bench/serverLogBench.js` (BENCH_LOG_TXNS, default 200000; BENCH_LOG_RUNS, default 5).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { firstZxidOfName } from '../src/zk/serverLogs/logSet';
import * as writes from '../src/zk/protocol/writes';
import { mapBounded } from '../src/zk/timeouts';
import { openSession, startServer } from './fixtures';
import { formatTable, now, Row, summarize } from './stats';

const ROOT = path.join(__dirname, '..', '..');
const JARS = ['zookeeper.jar', 'zookeeper-jute.jar', 'commons-cli.jar', 'slf4j-api.jar', 'slf4j-simple.jar'].map((j) => `/usr/share/java/${j}`).join(':');

function timed(program: string, args: string[]): number {
  const start = now();
  const run = spawnSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${program} ${args.join(' ')}: exit ${run.status}: ${run.stderr?.toString().slice(0, 400)}`);
  return now() - start;
}

function peakRssMiB(files: string[]): number {
  const run = spawnSync(process.execPath, [path.join(__dirname, 'serverLogChild.js'), ...files], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`serverLogChild: ${run.stderr}`);
  return Number(run.stdout.trim()) / 1024;
}

async function main(): Promise<void> {
  const txns = Math.max(1000, Number(process.env.BENCH_LOG_TXNS ?? 200_000));
  const runs = Math.max(3, Number(process.env.BENCH_LOG_RUNS ?? 5));
  const { cluster } = await startServer();
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-logbench-'));
  try {
    const session = await openSession(cluster.connectString);
    await writes.create(session.channel, { path: '/logbench', data: Buffer.alloc(0), acl: writes.OPEN_ACL, flags: 0 });
    const half = Math.floor(txns / 2);
    const indexes = Array.from({ length: half }, (_, i) => i);
    await mapBounded(indexes, 256, (i) => writes.create(session.channel, { path: `/logbench/node-${i}`, data: Buffer.from(`created ${i}`), acl: writes.OPEN_ACL, flags: 0 }));
    await mapBounded(indexes, 256, (i) => writes.setData(session.channel, `/logbench/node-${i}`, Buffer.from(`changed ${i} once`), -1));
    session.close();
    await cluster.members[0].stop();
    const version2 = path.join(cluster.members[0].dir, 'data', 'version-2');
    const logs = fs.readdirSync(version2).filter((n) => firstZxidOfName(n) !== undefined)
      .sort((a, b) => (firstZxidOfName(a)! < firstZxidOfName(b)! ? -1 : 1));
    for (const log of logs) fs.copyFileSync(path.join(version2, log), path.join(copy, log));
    const files = logs.map((log) => path.join(copy, log));
    const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);

    const ours = () => timed(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'log', copy, '--json']);
    const theirs = () => files.reduce((sum, file) => sum + timed('java', ['-Xmx512m', '-cp', JARS, 'org.apache.zookeeper.server.persistence.TxnLogToolkit', file]), 0);
    ours();
    theirs();
    const samples = { ours: [] as number[], theirs: [] as number[], load: [] as number[] };
    for (let run = 0; run < runs; run++) {
      samples.load.push(os.loadavg()[0]);
      if (run % 2) {
        samples.theirs.push(theirs());
        samples.ours.push(ours());
      } else {
        samples.ours.push(ours());
        samples.theirs.push(theirs());
      }
    }
    const firstHalf = files.slice(0, Math.max(1, Math.floor(files.length / 2)));
    const rss = { half: [] as number[], all: [] as number[] };
    for (let run = 0; run < 3; run++) {
      rss.half.push(peakRssMiB(firstHalf));
      rss.all.push(peakRssMiB(files));
    }
    const speedups = samples.theirs.map((t, i) => t / samples.ours[i]);
    const rows: Row[] = [
      { bench: 'server logs', case: `zooscope log --json: ${txns} transactions, ${files.length} files, ${(bytes / 1048576).toFixed(0)} MiB on disk`, unit: 'ms', summary: summarize(samples.ours), samples: samples.ours, load: samples.load,
        baseline: { label: 'TxnLogToolkit, every file', summary: summarize(samples.theirs) }, ratios: samples.ours.map((ms, i) => ms / samples.theirs[i]), goal: { op: '<=', value: 0.2, on: 'ratio' } },
      { bench: 'server logs', case: 'speed-up over TxnLogToolkit (×)', unit: 'n', summary: summarize(speedups), samples: speedups, load: samples.load, goal: { op: '>=', value: 5 } },
      { bench: 'server logs', case: `peak RSS reading all ${files.length} files, vs the first ${firstHalf.length}`, unit: 'MiB', summary: summarize(rss.all), samples: rss.all,
        baseline: { label: 'first files only', summary: summarize(rss.half) }, ratios: rss.all.map((m, i) => m / rss.half[i]), goal: { op: '<=', value: 1.1, on: 'ratio' } },
    ];
    console.log(formatTable(rows));
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
    await cluster.stop();
  }
}

if (require.main === module) {
  main().then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
