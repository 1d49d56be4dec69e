// Bench: searching a 100,000-node subtree by path and by content with searchTree (pipelined crawl, 256 in flight),
// in nodes per second, against node-zookeeper-client crawling the same subtree bare with the same window in the
// same run (getChildren per node, plus getData of nodes with data for the content case). Also the process's
// peak rss and heap during each search. Goal: ≥ 80 % of the bare client's throughput.
// Standalone: `node out/bench/searchBench.js` starts its own server (BENCH_SEARCH_RUNS, default 5).
import * as zookeeper from 'node-zookeeper-client';
import { joinPath } from '../src/zk/paths';
import { searchTree } from '../src/zk/search/search';
import { mapBounded } from '../src/zk/timeouts';
import { connectOtherClient, CREATE_WINDOW, openSession, OtherClient, startServer, WINDOW } from './fixtures';
import { collect, formatTable, now, Row, summarize } from './stats';

export const SEARCH_ROOT = '/bench/search';
const FANOUT = 316; // 1 + 316 + 316 × 316 = 100,173 nodes
const MiB = 2 ** 20;

/** The subtree: 316 groups of 316 leaves; every leaf has a little data, one in 1000 contains "needle". */
export async function createSearchTree(client: OtherClient): Promise<number> {
  await client.mkdirp(SEARCH_ROOT);
  const groups = Array.from({ length: FANOUT }, (_, g) => `${SEARCH_ROOT}/group-${g}`);
  await mapBounded(groups, CREATE_WINDOW, (p) => client.create(p));
  const leaves = groups.flatMap((g, gi) => Array.from({ length: FANOUT }, (_, i) => ({ path: `${g}/item-${i}`, n: gi * FANOUT + i })));
  await mapBounded(leaves, CREATE_WINDOW, ({ path, n }) => client.create(path, n % 1000 === 7 ? `value ${n} needle` : `value ${n}`));
  return 1 + groups.length + leaves.length;
}

/** node-zookeeper-client alone: the same stack-of-child-lists crawl with `window` requests in flight. */
export function rawCrawl(client: zookeeper.Client, root: string, window: number, needle?: Buffer): Promise<{ visited: number; matched: number }> {
  return new Promise((resolve, reject) => {
    const pending: { parent: string; names: string[]; next: number }[] = [];
    let rootSent = false;
    let inFlight = 0;
    let visited = 0;
    let matched = 0;
    const next = (): string | undefined => {
      if (!rootSent) { rootSent = true; return root; }
      while (pending.length) {
        const top = pending[pending.length - 1];
        if (top.next < top.names.length) return joinPath(top.parent, top.names[top.next++]);
        pending.pop();
      }
      return undefined;
    };
    const settle = () => {
      inFlight--;
      pump();
    };
    const visit = (path: string) => {
      inFlight++;
      client.getChildren(path, (error, children, stat) => {
        if (error) return reject(error);
        visited++;
        if (children.length) pending.push({ parent: path, names: children, next: 0 });
        if (!needle || stat.dataLength === 0) return settle();
        client.getData(path, (dataError, data) => {
          if (dataError) return reject(dataError);
          if (data && data.indexOf(needle) >= 0) matched++;
          settle();
        });
      });
    };
    const pump = () => {
      while (inFlight < window) {
        const path = next();
        if (path === undefined) break;
        visit(path);
      }
      if (inFlight === 0) resolve({ visited, matched });
    };
    pump();
  });
}

/** Runs `work` while sampling the process's memory every 10 ms; the peaks in MiB. */
async function withPeakMemory<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; rss: number; heap: number }> {
  collect();
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 10);
  const t0 = now();
  try {
    const result = await work();
    const ms = now() - t0;
    sample();
    return { result, ms, rss: rss / MiB, heap: heap / MiB };
  } finally {
    clearInterval(timer);
  }
}

interface Case { label: string; path?: string; content?: string; needle?: Buffer; expectMatches: number }

export async function searchBench(connectString: string, writer: OtherClient, runs: number): Promise<Row[]> {
  const total = await createSearchTree(writer);
  const raw = await connectOtherClient(connectString, 30000);
  const session = await openSession(connectString);
  const leaves = FANOUT * FANOUT;
  const cases: Case[] = [
    { label: 'by path (item-*7)', path: 'item-*7', expectMatches: Math.round(leaves / 10) },
    { label: 'by content ("needle")', content: 'needle', needle: Buffer.from('needle'), expectMatches: Math.ceil((leaves - 7) / 1000) },
  ];
  const rows: Row[] = [];
  try {
    for (const c of cases) {
      const ours: number[] = [];
      const bare: number[] = [];
      const share: number[] = [];
      const rss: number[] = [];
      const heap: number[] = [];
      const rawRss: number[] = [];
      for (let run = 0; run < runs + 1; run++) {
        // Alternate which goes first; run 0 warms both up and is not counted.
        const doOurs = async () => {
          let matches = 0;
          const m = await withPeakMemory(() => searchTree(session, { root: SEARCH_ROOT, path: c.path, content: c.content, maxResults: 1e9 }, () => { matches++; }, { window: WINDOW }));
          if (!m.result.ok || m.result.summary.visited !== total || matches < c.expectMatches * 0.9) {
            throw new Error(`search bench ${c.label}: visited ${m.result.ok ? m.result.summary.visited : '-'} of ${total}, ${matches} matches`);
          }
          return m;
        };
        const doRaw = () => withPeakMemory(() => rawCrawl(raw.client, SEARCH_ROOT, WINDOW, c.needle));
        let o; let r;
        if (run % 2) { r = await doRaw(); o = await doOurs(); } else { o = await doOurs(); r = await doRaw(); }
        if (r.result.visited !== total) throw new Error(`raw crawl visited ${r.result.visited} of ${total}`);
        if (run === 0) continue;
        ours.push(total / (o.ms / 1000));
        bare.push(total / (r.ms / 1000));
        share.push((100 * r.ms) / o.ms);
        rss.push(o.rss);
        heap.push(o.heap);
        rawRss.push(r.rss);
      }
      const msOf = (rates: number[]) => rates.map((rate) => (total / rate) * 1000);
      rows.push(
        { bench: 'search 100k', case: `${c.label}: time`, unit: 'ms', summary: summarize(msOf(ours)), samples: msOf(ours),
          baseline: { label: 'bare client', summary: summarize(msOf(bare)) }, note: `${total} nodes, ${WINDOW} in flight` },
        { bench: 'search 100k', case: `${c.label}: throughput vs bare client`, unit: '%', summary: summarize(share), samples: share,
          goal: { op: '>=', value: 80 }, note: `ours ${Math.round(summarize(ours).median)} nodes/s, bare ${Math.round(summarize(bare).median)} nodes/s` },
        { bench: 'search 100k', case: `${c.label}: peak rss`, unit: 'MiB', summary: summarize(rss), baseline: { label: 'bare crawl', summary: summarize(rawRss) } },
        { bench: 'search 100k', case: `${c.label}: peak heap used`, unit: 'MiB', summary: summarize(heap) },
      );
    }
  } finally {
    session.close();
    raw.close();
  }
  return rows;
}

async function main(): Promise<void> {
  const runs = Math.max(5, Number(process.env.BENCH_SEARCH_RUNS ?? 5));
  const { cluster } = await startServer();
  try {
    const writer = await connectOtherClient(cluster.connectString, 30000);
    try {
      const rows = await searchBench(cluster.connectString, writer, runs);
      console.log(formatTable(rows));
      for (const row of rows) if (row.note) console.log(`note: ${row.case}: ${row.note}`);
    } finally {
      writer.close();
    }
  } finally {
    await cluster.stop();
  }
}

if (require.main === module) {
  main().then(() => process.exit(0), (error: unknown) => { console.error(error); process.exit(1); });
}
