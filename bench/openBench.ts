// Bench 1: opening a wide node up to the tree items VS Code receives (persistent watch, list, natural sort, first
// page's Stats, the elements, each item's data as src/zk/tree/znodePresentation.ts builds it) against the same work
// done bare with node-zookeeper-client in the same run (getChildren, the same first page in natural order chosen by
// the same function, its Stats, the same items); the ratio is taken per run, then its median. A second figure sets
// the tree beside the bare work without choosing its page (it is handed the names), the stricter baseline. And the
// RSS a process adds when it has seen all children (memoryBench).
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { firstInOrder } from '../src/zk/tree/naturalOrder';
import { mapBounded } from '../src/zk/timeouts';
import type { ZnodeStat } from '../src/zk/stat';
import { ConnectionNode, ZnodeNode } from '../src/zk/tree/treeNodes';
import { ZnodePresentation, znodePresentation } from '../src/zk/tree/znodePresentation';
import { connectOtherClient, l10nLike, newTree, openSession, PAGE_SIZE, rawExists, rawGetChildren, WideNode, WINDOW } from './fixtures';
import { collect, now, Row, summarize } from './stats';

export interface OpenResult {
  rows: Row[];
  /** Median tree open time per node path (for the sort share). */
  openMedian: Map<string, number>;
}

/** The expanded node's own Stat does not matter to its children's items. */
const PARENT_STAT = { czxid: 0n, mzxid: 0n, ctime: 0, mtime: 0, version: 0, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: 0, numChildren: 1, pzxid: 0n } as unknown as ZnodeStat;

/** The same items from node-zookeeper-client's Stats: the fields an item shows, read from its Buffers. */
function bareItems(parentPath: string, names: string[], stats: (zookeeper.Stat | null)[]): ZnodePresentation[] {
  const root = new ConnectionNode('bench');
  const items: ZnodePresentation[] = [];
  for (let i = 0; i < names.length; i++) {
    const raw = stats[i];
    if (!raw) continue;
    const stat = { ...PARENT_STAT, ephemeralOwner: raw.ephemeralOwner.readBigUInt64BE(0), dataLength: raw.dataLength, numChildren: raw.numChildren } as ZnodeStat;
    items.push(znodePresentation(l10nLike, new ZnodeNode('bench', `${parentPath}/${names[i]}`, names[i], stat, root), undefined, undefined));
  }
  return items;
}

interface RunSample {
  rawLib: number;
  /** node-zookeeper-client doing the same work bare: getChildren, the first page in natural order, its Stats (exists). */
  rawPage: number;
  /** Choosing that page from the names (part of rawPage). */
  rawSelect: number;
  /** The bare page's names, checked against the tree's. */
  rawNames: string[];
  treeNames: string[];
  rawExists: number;
  /** Building the page's items from bare Stats (part of rawPage). */
  rawItems: number;
  /** Elements and items from the listing's entries (part of total). */
  items: number;
  session: number;
  listing: number;
  /** 1-minute load average when the run started. */
  load: number;
  entries: number;
  total: number;
}

/** Lists `/` and every ancestor of `nodePath` with the bare client, as a user of it walks down to the node. */
async function walkDown(raw: zookeeper.Client, nodePath: string): Promise<void> {
  const parts = nodePath.split('/').filter(Boolean);
  for (let depth = 0; depth < parts.length; depth++) await rawGetChildren(raw, '/' + parts.slice(0, depth).join('/'));
}

/**
 * One run: a fresh session and tree, and a fresh bare client beside them (so neither side has a connection the
 * other lacks), each having walked down to the node untimed; the measurements in a rotating order (so none always
 * goes first).
 */
async function oneRun(connectString: string, node: WideNode, run: number): Promise<RunSample> {
  const session = await openSession(connectString);
  const tree = newTree(session, () => undefined);
  const bareClient = await connectOtherClient(connectString, 30000);
  try {
    // The node as a user reaches it, / and its parent expanded first (not timed): its element is the tree's own, and
    // the session has set a watch before, as every expand but a session's first has.
    const parent = await tree.resolve(node.path);
    if (!parent) throw new Error(`open bench: ${node.path} not found`);
    const raw = bareClient.client;
    await walkDown(raw, node.path);
    const sample: Partial<RunSample> = {};
    const steps: (() => Promise<void>)[] = [
      async () => {
        collect();
        const t0 = now();
        const names = await rawGetChildren(raw, node.path);
        sample.rawLib = now() - t0;
        if (names.length !== node.children) throw new Error(`raw getChildren: ${names.length} names, expected ${node.children}`);
      },
      async () => {
        collect();
        const t0 = now();
        const names = await rawGetChildren(raw, node.path);
        const t1 = now();
        const page = firstInOrder(names, PAGE_SIZE);
        const t2 = now();
        const stats = await mapBounded(page, WINDOW, (name) => rawExists(raw, `${node.path}/${name}`));
        const t3 = now();
        const items = bareItems(node.path, page, stats);
        const t4 = now();
        if (items.length !== page.length) throw new Error('bare items incomplete');
        sample.rawPage = t4 - t0;
        sample.rawSelect = t2 - t1;
        sample.rawExists = t3 - t2;
        sample.rawItems = t4 - t3;
        sample.rawNames = page;
      },
      async () => {
        collect();
        const t0 = now();
        const reply = await session.getChildren(node.path);
        sample.session = now() - t0;
        if (reply.children.length !== node.children) throw new Error(`session.getChildren: ${reply.children.length} names`);
      },
      async () => {
        collect();
        const t0 = now();
        const listing = await tree.openListing(parent);
        const t1 = now();
        const entries = await listing.entries();
        const t2 = now();
        const items = entries.map((n) => znodePresentation(l10nLike, n, undefined, listing));
        const t3 = now();
        if (listing.total !== node.children) throw new Error(`listing: ${listing.total} names, expected ${node.children}`);
        if (items.length !== Math.min(PAGE_SIZE, node.children)) throw new Error(`items: ${items.length}`);
        sample.treeNames = entries.map((e) => e.name);
        sample.listing = t1 - t0;
        sample.entries = t2 - t1;
        sample.items = t3 - t2;
        sample.total = t3 - t0;
      },
    ];
    sample.load = os.loadavg()[0];
    for (let i = 0; i < steps.length; i++) await steps[(i + run) % steps.length]();
    if (sample.rawNames!.join('/') !== sample.treeNames!.join('/')) throw new Error('open bench: the bare page is not the tree\'s');
    return sample as RunSample;
  } finally {
    tree.dispose();
    session.close();
    bareClient.close();
  }
}

export async function openBench(connectString: string, nodes: WideNode[], runs: number): Promise<OpenResult> {
  const rows: Row[] = [];
  const openMedian = new Map<string, number>();
  for (const node of nodes) {
    await oneRun(connectString, node, 0); // warm-up (JIT, server caches), not counted
    const samples: RunSample[] = [];
    for (let run = 0; run < runs; run++) samples.push(await oneRun(connectString, node, run));
    type Timing = { [K in keyof RunSample]: RunSample[K] extends number ? K : never }[keyof RunSample];
    const pick = (key: Timing) => samples.map((s) => s[key]);
    const rawLib = summarize(pick('rawLib'));
    const session = summarize(pick('session'));
    const total = summarize(pick('total'));
    const load = samples.map((s) => s.load);
    openMedian.set(node.path, total.median);
    const label = `${node.children.toLocaleString('en-US')} children`;
    const bench = 'open node';
    const rawPage = summarize(pick('rawPage'));
    const big = node.children >= 100000;
    const bare = { label: `bare: getChildren + first ${PAGE_SIZE} in natural order + their exists + items`, summary: rawPage };
    const perRun = samples.map((s) => s.total / s.rawPage);
    const handed = samples.map((s) => s.rawPage - s.rawSelect);
    rows.push(
      { bench, case: `${label}: open → tree items`, unit: 'ms', summary: total, samples: pick('total'), load,
        baseline: bare, ratios: perRun, goal: big ? { op: '<=', value: 200 } : undefined },
      { bench, case: `${label}: open → tree items, vs the same work bare`, unit: 'ms', summary: total, load,
        baseline: bare, ratios: perRun, goal: big ? { op: '<=', value: 1, on: 'ratio' } : undefined },
      { bench, case: `${label}: open → tree items, vs the bare work handed its page`, unit: 'ms', summary: total, load,
        baseline: { label: 'the same bare work less choosing the page', summary: summarize(handed) }, ratios: samples.map((s, i) => s.total / handed[i]) },
      { bench, case: `${label}:   of which openListing (watch+list+sort)`, unit: 'ms', summary: summarize(pick('listing')), samples: pick('listing'), load,
        baseline: { label: 'session.getChildren', summary: session }, ratios: samples.map((s) => s.listing / s.session) },
      { bench, case: `${label}:   of which entries() (first page chosen, ${PAGE_SIZE} Stats, ${WINDOW} in flight)`, unit: 'ms', summary: summarize(pick('entries')), samples: pick('entries'), load,
        baseline: { label: `bare choosing + ${PAGE_SIZE} exists`, summary: summarize(samples.map((s) => s.rawSelect + s.rawExists)) }, ratios: samples.map((s) => s.entries / (s.rawSelect + s.rawExists)) },
      { bench, case: `${label}:   of which elements + items (${PAGE_SIZE})`, unit: 'ms', summary: summarize(pick('items')), samples: pick('items'), load,
        baseline: { label: 'bare items', summary: summarize(pick('rawItems')) }, ratios: samples.map((s) => s.items / s.rawItems) },
      { bench, case: `${label}: session.getChildren`, unit: 'ms', summary: session, samples: pick('session'), load,
        baseline: { label: 'node-zk-client getChildren', summary: rawLib }, ratios: samples.map((s) => s.session / s.rawLib) },
      { bench, case: `${label}: bare: getChildren + first ${PAGE_SIZE} + exists + items`, unit: 'ms', summary: rawPage, samples: pick('rawPage'), load },
      { bench, case: `${label}:   of which choosing the first ${PAGE_SIZE} (natural order)`, unit: 'ms', summary: summarize(pick('rawSelect')), samples: pick('rawSelect'), load },
    );
  }
  return { rows, openMedian };
}


interface ChildMemory { rssBeforeMiB: number; rssAfterMiB: number; heapBeforeMiB: number; heapAfterMiB: number }

/** One measurement in a fresh process (bench/memoryChild.ts), so RSS is that work's alone. */
function memoryChild(connectString: string, node: WideNode, mode: 'tree' | 'bare'): Promise<ChildMemory> {
  const script = path.join(__dirname, 'memoryChild.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', script, connectString, node.path, String(node.children), mode], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`memory child (${mode}): ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as ChildMemory);
    });
  });
}

/**
 * RSS added by seeing ALL children of the wide node (every Stat, the tree's elements and their items' data), in
 * a process of its own, against the same in a bare node-zookeeper-client process (names + one Stat each) in the
 * same run; the two go in alternating order. Goal: ≤ 100 MiB extra.
 */
export async function memoryBench(connectString: string, node: WideNode, runs: number): Promise<Row[]> {
  const tree: number[] = [];
  const treeHeap: number[] = [];
  const bare: number[] = [];
  const load: number[] = [];
  for (let run = 0; run < runs; run++) {
    load.push(os.loadavg()[0]);
    const order: ('tree' | 'bare')[] = run % 2 ? ['bare', 'tree'] : ['tree', 'bare'];
    for (const mode of order) {
      const m = await memoryChild(connectString, node, mode);
      if (mode === 'tree') {
        tree.push(m.rssAfterMiB - m.rssBeforeMiB);
        treeHeap.push(m.heapAfterMiB - m.heapBeforeMiB);
      } else bare.push(m.rssAfterMiB - m.rssBeforeMiB);
    }
  }
  const label = `${node.children.toLocaleString('en-US')} children, all seen`;
  return [
    { bench: 'memory', case: `${label}: RSS added (own process)`, unit: 'MiB', summary: summarize(tree), samples: tree, load,
      baseline: { label: 'bare client, names + Stats', summary: summarize(bare) }, ratios: tree.map((t, i) => t / bare[i]), goal: { op: '<=', value: 100 } },
    { bench: 'memory', case: `${label}:   of which JS heap`, unit: 'MiB', summary: summarize(treeHeap), samples: treeHeap, load },
    { bench: 'memory', case: `${label}: bare client RSS added`, unit: 'MiB', summary: summarize(bare), samples: bare, load },
  ];
}

// Alone, against a fresh disk-backed server: `node --expose-gc out/bench/openBench.js` (after
// `npx tsc -p tsconfig.test.json`); BENCH_RUNS (default 5) and BENCH_WIDE (default 100000) as in bench/run.ts.
if (require.main === module) {
  void (async () => {
    const { createWideNode, startServer } = await import('./fixtures');
    const { formatTable } = await import('./stats');
    const runs = Math.max(5, Number(process.env.BENCH_RUNS ?? 5));
    const wide = (process.env.BENCH_WIDE ?? '100000').split(',').map((n) => ({ path: `/bench/w${n}`, children: Number(n) }));
    const { cluster } = await startServer();
    try {
      const writer = await connectOtherClient(cluster.connectString, 30000);
      try {
        for (const node of wide) await createWideNode(writer, node);
        const load0 = os.loadavg();
        const { rows } = await openBench(cluster.connectString, wide, runs);
        rows.push(...await memoryBench(cluster.connectString, wide[wide.length - 1], runs));
        console.log(formatTable(rows));
        console.log(`load average ${load0.map((l) => l.toFixed(1)).join(' ')} → ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
      } finally {
        writer.close();
      }
    } finally {
      await cluster.stop();
    }
  })().catch((error: unknown) => { console.error(error); process.exitCode = 1; });
}
