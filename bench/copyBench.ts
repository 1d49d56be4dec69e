// Bench: copying a 100,173-node subtree on one server (planCopy + executeCopy: both sides read, batched multi
// creates, 1000 ops a batch, 8 in flight) against bare batched multi creates of the same nodes (the same batches
// and window, nothing read first), paired per run, order alternating; each copy is deleted again between runs.
// Goal: ≥ 80 % of the bare throughput. Standalone: `node out/bench/copyBench.js` (BENCH_COPY_RUNS, default 5).
import * as os from 'node:os';
import { executeCopy, planCopy } from '../src/zk/compare';
import { multi, MultiOp } from '../src/zk/protocol/multi';
import * as writes from '../src/zk/protocol/writes';
import type { ZkSession } from '../src/zk/session/session';
import { mapBounded } from '../src/zk/timeouts';
import { connectOtherClient, openSession, startServer } from './fixtures';
import { createSearchTree, SEARCH_ROOT } from './searchBench';
import { formatTable, now, Row, summarize } from './stats';

const BATCH = 1000;
const IN_FLIGHT = 8;
const FANOUT = 316;

/** The same shape as createSearchTree's, under `root`: parents first. */
function shape(root: string): { path: string; data: Buffer | null }[] {
  const nodes: { path: string; data: Buffer | null }[] = [{ path: root, data: null }];
  for (let g = 0; g < FANOUT; g++) {
    nodes.push({ path: `${root}/group-${g}`, data: null });
    for (let i = 0; i < FANOUT; i++) {
      const n = g * FANOUT + i;
      nodes.push({ path: `${root}/group-${g}/item-${i}`, data: Buffer.from(n % 1000 === 7 ? `value ${n} needle` : `value ${n}`) });
    }
  }
  return nodes;
}

async function batched(session: ZkSession, ops: MultiOp[]): Promise<void> {
  const batches: MultiOp[][] = [];
  for (let i = 0; i < ops.length; i += BATCH) batches.push(ops.slice(i, i + BATCH));
  await mapBounded(batches, IN_FLIGHT, async (batch) => {
    const reply = await multi(session.channel, batch);
    if (!reply.ok) throw new Error(`multi refused at ${batch[0].path}`);
  });
}

const removal = (root: string): MultiOp[] => shape(root).reverse().map(({ path }) => ({ type: 'delete', path, version: -1 }));

async function main(): Promise<void> {
  const runs = Math.max(3, Number(process.env.BENCH_COPY_RUNS ?? 5));
  const { cluster } = await startServer();
  try {
    const writer = await connectOtherClient(cluster.connectString, 30000);
    const total = await createSearchTree(writer);
    const session = await openSession(cluster.connectString);
    const samples = { bare: [] as number[], ours: [] as number[], apply: [] as number[], load: [] as number[] };
    for (let run = 0; run <= runs; run++) {
      const load = os.loadavg()[0];
      const got: Record<string, number> = {};
      for (const who of run % 2 ? ['bare', 'ours'] : ['ours', 'bare']) {
        const root = `/bench/${who}-${run}`;
        const start = now();
        if (who === 'bare') {
          await batched(session, shape(root).map(({ path, data }) => ({ type: 'create', path, data, acl: writes.OPEN_ACL, flags: 0 })));
          got.bare = now() - start;
        } else {
          const plan = await planCopy({ session, root: SEARCH_ROOT }, session, root, { acls: false });
          const applyStart = now();
          const run = await executeCopy(session, plan, { readOnly: false }, { batchSize: BATCH, window: IN_FLIGHT });
          got.apply = now() - applyStart;
          got.ours = now() - start;
          if (!run.ok || run.report.created !== total) throw new Error(`copy: ${JSON.stringify(run.ok ? run.report.created : run.failure)}`);
        }
        await batched(session, removal(root));
      }
      if (run === 0) continue;
      samples.bare.push(got.bare);
      samples.ours.push(got.ours);
      samples.apply.push(got.apply);
      samples.load.push(load);
    }
    const share = (list: number[]) => list.map((ms, i) => (100 * samples.bare[i]) / ms);
    const rows: Row[] = [
      { bench: 'copy 100k', case: 'plan + apply: time', unit: 'ms', summary: summarize(samples.ours), samples: samples.ours, load: samples.load,
        baseline: { label: 'bare batched multi creates', summary: summarize(samples.bare) }, ratios: samples.ours.map((ms, i) => ms / samples.bare[i]), note: `${total} nodes, ${BATCH} ops a multi, ${IN_FLIGHT} in flight` },
      { bench: 'copy 100k', case: "plan + apply: throughput, % of bare multi creates'", unit: '%', summary: summarize(share(samples.ours)), samples: share(samples.ours), load: samples.load, goal: { op: '>=', value: 80 } },
      { bench: 'copy 100k', case: "apply alone: throughput, % of bare multi creates'", unit: '%', summary: summarize(share(samples.apply)), samples: share(samples.apply), load: samples.load, goal: { op: '>=', value: 80 } },
    ];
    console.log(formatTable(rows));
    session.close();
    writer.close();
  } finally {
    await cluster.stop();
  }
}

if (require.main === module) {
  main().then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
