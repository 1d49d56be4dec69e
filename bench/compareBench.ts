// Bench: comparing two 100,173-node subtrees on two servers (compareSubtrees: data, ACLs, re-check), against two
// bare node-zookeeper-client crawls run at the same time on the same subtrees (getChildren per node, getData of
// nodes with data; 256 in flight each), paired per run, order alternating. Goal: ≥ 80 % of the bare throughput.
// Also the same comparison with ACLs ignored. Standalone: `node out/bench/compareBench.js` (BENCH_COMPARE_RUNS,
// default 5) starts its own two disk-backed servers.
import * as os from 'node:os';
import * as zookeeper from 'node-zookeeper-client';
import { compareSubtrees } from '../src/zk/compare';
import { connectOtherClient, openSession, startServer, WINDOW } from './fixtures';
import { createSearchTree, rawCrawl, SEARCH_ROOT } from './searchBench';
import { formatTable, now, Row, summarize } from './stats';

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = now();
  const value = await work();
  return { ms: now() - start, value };
}

async function main(): Promise<void> {
  const runs = Math.max(3, Number(process.env.BENCH_COMPARE_RUNS ?? 5));
  const servers = await Promise.all([startServer(), startServer()]);
  const [a, b] = servers.map((s) => s.cluster.connectString);
  try {
    const writers = await Promise.all([connectOtherClient(a, 30000), connectOtherClient(b, 30000)]);
    const [total] = await Promise.all(writers.map((w) => createSearchTree(w)));
    const [left, right] = await Promise.all([openSession(a), openSession(b)]);
    const needle = Buffer.from('needle');
    const bare = () => Promise.all(writers.map((w) => rawCrawl(w.client as zookeeper.Client, SEARCH_ROOT, WINDOW, needle)));
    const ours = (ignoreAcls: boolean) => compareSubtrees({ session: left, root: SEARCH_ROOT }, { session: right, root: SEARCH_ROOT }, { ignoreAcls, window: WINDOW });
    const samples = { bare: [] as number[], ours: [] as number[], noAcl: [] as number[], load: [] as number[] };
    for (let run = 0; run <= runs; run++) {
      const load = os.loadavg()[0];
      const order = run % 2 ? ['bare', 'ours', 'noAcl'] as const : ['ours', 'noAcl', 'bare'] as const;
      const got: Record<string, number> = {};
      for (const who of order) {
        if (who === 'bare') {
          const r = await timed(bare);
          if (r.value.some((x) => x.visited !== total)) throw new Error('bare crawl did not see every node');
          got[who] = r.ms;
        } else {
          const r = await timed(() => ours(who === 'noAcl'));
          if (!r.value.equal || r.value.nodes.left !== total || r.value.nodes.right !== total) throw new Error(`compare: ${JSON.stringify(r.value.nodes)} equal=${r.value.equal}`);
          got[who] = r.ms;
        }
      }
      if (run === 0) continue; // warm-up
      samples.bare.push(got.bare);
      samples.ours.push(got.ours);
      samples.noAcl.push(got.noAcl);
      samples.load.push(load);
    }
    const share = (list: number[]) => list.map((ms, i) => (100 * samples.bare[i]) / ms);
    const rows: Row[] = [
      { bench: 'compare 2×100k', case: 'compareSubtrees (data + ACL): time', unit: 'ms', summary: summarize(samples.ours), samples: samples.ours, load: samples.load,
        baseline: { label: 'two bare crawls at once', summary: summarize(samples.bare) }, ratios: samples.ours.map((ms, i) => ms / samples.bare[i]), note: `${total} nodes a side` },
      { bench: 'compare 2×100k', case: "throughput, % of two bare crawls' (per run)", unit: '%', summary: summarize(share(samples.ours)), samples: share(samples.ours), load: samples.load, goal: { op: '>=', value: 80 } },
      { bench: 'compare 2×100k', case: "ACLs ignored: throughput, % of two bare crawls'", unit: '%', summary: summarize(share(samples.noAcl)), samples: share(samples.noAcl), load: samples.load, goal: { op: '>=', value: 80 } },
    ];
    console.log(formatTable(rows));
    left.close();
    right.close();
    writers.forEach((w) => w.close());
  } finally {
    await Promise.all(servers.map((s) => s.cluster.stop()));
  }
}

if (require.main === module) {
  main().then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
