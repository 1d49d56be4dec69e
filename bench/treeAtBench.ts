// Bench: the tree at a moment from a big snapshot and its logs (issue 34), beside ZooKeeper's own SnapshotFormatter.
// A real standalone server is given NODES nodes (default 1,000,000: 1,000 folders of 1,000, small text data, batched
// multi creates), restarted (a server writes a snapshot of what it loaded when it starts), and then changes some of
// them (CHANGES setData and deletes after the snapshot), so the moment needs the snapshot AND the logs. On copies
// of its files, paired and alternating, each in a process of its own (wall time and peak RSS by /usr/bin/time):
// - `zooscope log <dir> --tree-at 0x<last zxid> --export <file>` as a user runs it: the newest snapshot read, the
//   logs after it replayed, every node written to an export file (node start included);
// - `SnapshotFormatter <snapshot>` (the JVM's start included, output discarded): it reads the snapshot into a
//   DataTree and prints it, replaying nothing; so it does less than we do. Its heap is capped at 2 GiB.
// Standalone: `npx tsc -p tsconfig.test.json && node out/bench/treeAtBench.js` (BENCH_TREE_NODES, BENCH_TREE_RUNS).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { multi, type MultiOp } from '../src/zk/protocol/multi';
import * as writes from '../src/zk/protocol/writes';
import { logSource, readLogSetBatches } from '../src/zk/serverLogs/logSet';
import { snapshotsOf } from '../src/zk/serverLogs/startingSnapshot';
import { hex } from '../src/zk/stat';
import { mapBounded } from '../src/zk/timeouts';
import { startStandalone } from '../test/support/servers/zkServer';
import { openSession } from './fixtures';
import { formatTable, type Row, summarize } from './stats';

const ROOT = path.join(__dirname, '..', '..');
const JARS = ['zookeeper.jar', 'zookeeper-jute.jar', 'commons-cli.jar', 'slf4j-api.jar', 'slf4j-simple.jar'].map((j) => `/usr/share/java/${j}`).join(':');
const FOLDER = 1000;
const BATCH = 1000;

interface Measured { ms: number; peakMiB: number }

/** Wall time and peak RSS of one program run, output discarded, from GNU time. */
function measured(program: string, args: string[]): Measured {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', program, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const last = run.stderr.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0) throw new Error(`${program} ${args.join(' ')}: exit ${run.status}: ${run.stderr.slice(-600)}`);
  const [seconds, kib] = last.split(' ').map(Number);
  return { ms: seconds * 1000, peakMiB: kib / 1024 };
}

async function createAll(session: Awaited<ReturnType<typeof openSession>>, nodes: number): Promise<void> {
  const ops: MultiOp[] = [{ type: 'create', path: '/tree', data: Buffer.alloc(0), acl: writes.OPEN_ACL, flags: 0 }];
  for (let f = 0; f * FOLDER < nodes; f++) {
    ops.push({ type: 'create', path: `/tree/f${f}`, data: Buffer.alloc(0), acl: writes.OPEN_ACL, flags: 0 });
    for (let i = 0; i < FOLDER && f * FOLDER + i < nodes; i++) {
      ops.push({ type: 'create', path: `/tree/f${f}/n${i}`, data: Buffer.from(`value ${f * FOLDER + i}`), acl: writes.OPEN_ACL, flags: 0 });
    }
  }
  // In order, one batch at a time after the first (a folder before its nodes), 4 in flight.
  const batches: MultiOp[][] = [];
  for (let i = 0; i < ops.length; i += BATCH) batches.push(ops.slice(i, i + BATCH));
  const sent = async (batch: MultiOp[]) => {
    const reply = await multi(session.channel, batch);
    if (!reply.ok) throw new Error(`multi refused at ${batch[0].path}`);
  };
  await sent(batches[0]);
  await mapBounded(batches.slice(1), 4, sent);
}

/** The server's files after NODES creates, a restart (its snapshot of them) and CHANGES changes; copied to `into`. */
export async function generate(nodes: number, changes: number, into: string): Promise<void> {
  const baseDir = fs.mkdtempSync(path.join(process.env.BENCH_ZK_DIR ?? os.tmpdir(), 'zooscope-treebench-'));
  const cluster = await startStandalone({ baseDir, adminServer: false, maxHeap: '2g' });
  try {
    let session = await openSession(cluster.connectString);
    await createAll(session, nodes);
    session.close();
    await cluster.members[0].restart();
    session = await openSession(cluster.connectString);
    const folders = Math.ceil(nodes / FOLDER);
    const picks = Array.from({ length: changes }, (_, k) => (k * 7919) % nodes);
    await mapBounded(picks, 256, async (n, k) => {
      const node = `/tree/f${Math.floor(n / FOLDER) % folders}/n${n % FOLDER}`;
      if (k % 10 === 9) await writes.deleteNode(session.channel, node, -1).catch(() => undefined);
      else await writes.setData(session.channel, node, Buffer.from(`changed ${k}`), -1).catch(() => undefined);
    });
    session.close();
    await cluster.members[0].stop();
    const version2 = path.join(cluster.members[0].dir, 'data', 'version-2');
    for (const name of fs.readdirSync(version2)) fs.copyFileSync(path.join(version2, name), path.join(into, name));
  } finally {
    await cluster.stop();
    fs.rmSync(baseDir, { recursive: true, force: true });
  }
}

async function lastZxid(dir: string): Promise<bigint> {
  let last = 0n;
  for await (const batch of readLogSetBatches([logSource(dir)])) {
    for (const item of batch) if (item.kind === 'txn') last = item.txn.zxid;
  }
  return last;
}

export async function treeAtBench(runs: number, nodes: number): Promise<{ rows: Row[]; notes: string[] }> {
  const changes = Math.max(1000, Math.floor(nodes / 10));
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-treeat-'));
  const exportFile = path.join(os.tmpdir(), `zooscope-treeat-${process.pid}.json`);
  try {
    const started = Date.now();
    await generate(nodes, changes, copy);
    const target = await lastZxid(copy);
    // The snapshot the moment starts from (the newest before it), for SnapshotFormatter too.
    const snapshot = snapshotsOf([logSource(copy)]).filter((s) => s.zxid <= target).sort((a, b) => (a.zxid < b.zxid ? -1 : 1)).map((s) => path.basename(s.file)).at(-1);
    if (!snapshot) throw new Error('the server wrote no snapshot');
    const notes = [
      `tree at: ${nodes.toLocaleString('en-US')} nodes created, the server restarted (${snapshot}, ${(fs.statSync(path.join(copy, snapshot)).size / 1048576).toFixed(0)} MiB), then ${changes.toLocaleString('en-US')} changes logged after it; moment ${hex(target)}; written in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    ];
    const ours = () => measured(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'log', copy, '--tree-at', hex(target), '--export', exportFile]);
    const theirs = () => measured('java', ['-Xmx2g', '-cp', JARS, 'org.apache.zookeeper.server.SnapshotFormatter', path.join(copy, snapshot)]);
    const clean = () => fs.rmSync(exportFile, { force: true });
    ours();
    clean();
    theirs();
    const samples = { ours: [] as Measured[], theirs: [] as Measured[], load: [] as number[] };
    for (let run = 0; run < runs; run++) {
      samples.load.push(os.loadavg()[0]);
      if (run % 2) { samples.theirs.push(theirs()); samples.ours.push(ours()); } else { samples.ours.push(ours()); samples.theirs.push(theirs()); }
      clean();
    }
    const ms = (list: Measured[]) => list.map((m) => m.ms);
    const mib = (list: Measured[]) => list.map((m) => m.peakMiB);
    const ratios = (a: number[], b: number[]) => a.map((value, i) => value / b[i]);
    const rows: Row[] = [
      { bench: 'tree at a moment', case: `zooscope log --tree-at --export (${nodes.toLocaleString('en-US')}-node snapshot + ${changes.toLocaleString('en-US')} logged changes): time`, unit: 'ms',
        summary: summarize(ms(samples.ours)), samples: ms(samples.ours), load: samples.load,
        baseline: { label: 'SnapshotFormatter of the snapshot alone', summary: summarize(ms(samples.theirs)) }, ratios: ratios(ms(samples.ours), ms(samples.theirs)), note: 'export written each run' },
      { bench: 'tree at a moment', case: 'the same: peak RSS', unit: 'MiB', summary: summarize(mib(samples.ours)), samples: mib(samples.ours),
        baseline: { label: 'SnapshotFormatter (-Xmx2g)', summary: summarize(mib(samples.theirs)) }, ratios: ratios(mib(samples.ours), mib(samples.theirs)) },
    ];
    return { rows, notes };
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
    fs.rmSync(exportFile, { force: true });
  }
}

if (require.main === module) {
  const runs = Math.max(3, Number(process.env.BENCH_TREE_RUNS ?? 5));
  const nodes = Math.max(10_000, Number(process.env.BENCH_TREE_NODES ?? 1_000_000));
  treeAtBench(runs, nodes).then((result) => {
    console.log(formatTable(result.rows));
    for (const note of result.notes) console.log(note);
    process.exit(0);
  }, (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
