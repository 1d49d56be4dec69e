// Bench: searching a 100,000-node subtree by path and by content with searchTree (pipelined crawl, 256 in flight),
// in nodes per second, against node-zookeeper-client crawling the same subtree bare with the same window in the
// same run (getChildren per node, plus getData of nodes with data for the content case). Every search runs in a
// process of its own (bench/searchChild.ts), so its peak RSS rise is its own, not a high-water mark another search
// left behind. Goal: ≥ 80 % of the bare client's throughput (per run, then the median).
// Standalone: `node out/bench/searchBench.js` starts its own server (BENCH_SEARCH_RUNS, default 5).
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { joinPath } from '../src/zk/paths';
import { mapBounded } from '../src/zk/timeouts';
import { connectOtherClient, CREATE_WINDOW, OtherClient, startServer, WINDOW } from './fixtures';
import { formatTable, Row, summarize } from './stats';

export const SEARCH_ROOT = '/bench/search';
const FANOUT = 316; // 1 + 316 + 316 × 316 = 100,173 nodes

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

interface ChildResult { ms: number; visited: number; matches: number; rssStartMiB: number; peakRssMiB: number }

function searchChild(connectString: string, who: 'ours' | 'bare', c: Case): Promise<ChildResult> {
  const by = c.path ? 'path' : 'content';
  const args = ['--expose-gc', path.join(__dirname, 'searchChild.js'), connectString, who, SEARCH_ROOT, by, c.path ?? c.content ?? ''];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`search child (${who}): ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult);
    });
  });
}

interface Case { label: string; path?: string; content?: string; expectMatches: number }

export async function searchBench(connectString: string, writer: OtherClient, runs: number): Promise<Row[]> {
  const total = await createSearchTree(writer);
  const leaves = FANOUT * FANOUT;
  const cases: Case[] = [
    { label: 'by path (item-*7)', path: 'item-*7', expectMatches: Math.round(leaves / 10) },
    { label: 'by content ("needle")', content: 'needle', expectMatches: Math.ceil((leaves - 7) / 1000) },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    const ours: ChildResult[] = [];
    const bare: ChildResult[] = [];
    const load: number[] = [];
    for (let run = 0; run < runs + 1; run++) {
      // Alternate which goes first; run 0 warms the server up and is not counted.
      const order: ('ours' | 'bare')[] = run % 2 ? ['bare', 'ours'] : ['ours', 'bare'];
      const got: Partial<Record<'ours' | 'bare', ChildResult>> = {};
      const loadNow = os.loadavg()[0];
      for (const who of order) got[who] = await searchChild(connectString, who, c);
      const o = got.ours!;
      const r = got.bare!;
      if (o.visited !== total || o.matches < c.expectMatches * 0.9) throw new Error(`search bench ${c.label}: visited ${o.visited} of ${total}, ${o.matches} matches`);
      if (r.visited !== total) throw new Error(`raw crawl visited ${r.visited} of ${total}`);
      if (run === 0) continue;
      ours.push(o);
      bare.push(r);
      load.push(loadNow);
    }
    const ms = (list: ChildResult[]) => list.map((x) => x.ms);
    const rise = (list: ChildResult[]) => list.map((x) => x.peakRssMiB - x.rssStartMiB);
    const share = ours.map((o, i) => (100 * bare[i].ms) / o.ms);
    rows.push(
      { bench: 'search 100k', case: `${c.label}: time`, unit: 'ms', summary: summarize(ms(ours)), samples: ms(ours), load,
        baseline: { label: 'bare client', summary: summarize(ms(bare)) }, ratios: ours.map((o, i) => o.ms / bare[i].ms), note: `${total} nodes, ${WINDOW} in flight` },
      { bench: 'search 100k', case: `${c.label}: throughput, % of the bare client's (per run)`, unit: '%', summary: summarize(share), samples: share, load,
        goal: { op: '>=', value: 80 } },
      { bench: 'search 100k', case: `${c.label}: peak RSS rise (own process)`, unit: 'MiB', summary: summarize(rise(ours)), samples: rise(ours), load,
        baseline: { label: 'bare crawl, own process', summary: summarize(rise(bare)) }, ratios: ours.map((o, i) => (o.peakRssMiB - o.rssStartMiB) / Math.max(1, bare[i].peakRssMiB - bare[i].rssStartMiB)) },
    );
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
