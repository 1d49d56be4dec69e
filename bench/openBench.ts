// Bench 1: opening a wide node in the tree (persistent watch, list, sort, first page's Stats) against a bare
// getChildren of the same node in the same run; and the memory the listing holds.
import * as zookeeper from 'node-zookeeper-client';
import { mapBounded } from '../src/zk/timeouts';
import { childName, newTree, openSession, PAGE_SIZE, rawExists, rawGetChildren, WideNode, WINDOW } from './fixtures';
import { collect, now, Row, summarize } from './stats';

export interface OpenResult {
  rows: Row[];
  /** Median tree open time per node path (for the sort share). */
  openMedian: Map<string, number>;
}

interface RunSample {
  rawLib: number;
  /** node-zookeeper-client doing the same work bare: getChildren, then the first page's Stats (exists). */
  rawPage: number;
  rawExists: number;
  session: number;
  listing: number;
  entries: number;
  total: number;
}

/** One run: a fresh session and tree; the three measurements in a rotating order (so none always goes first). */
async function oneRun(connectString: string, raw: zookeeper.Client, node: WideNode, run: number): Promise<RunSample> {
  const session = await openSession(connectString);
  const tree = newTree(session, () => undefined);
  try {
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
        const page = Array.from({ length: Math.min(PAGE_SIZE, names.length) }, (_, i) => `${node.path}/${childName(i + 1)}`);
        await mapBounded(page, WINDOW, (p) => rawExists(raw, p));
        const t2 = now();
        sample.rawPage = t2 - t0;
        sample.rawExists = t2 - t1;
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
        const listing = await tree.openListing(node.path);
        const t1 = now();
        const entries = await listing.entries();
        const t2 = now();
        if (listing.total !== node.children) throw new Error(`listing: ${listing.total} names, expected ${node.children}`);
        if (entries.length !== Math.min(PAGE_SIZE, node.children)) throw new Error(`entries: ${entries.length}`);
        sample.listing = t1 - t0;
        sample.entries = t2 - t1;
        sample.total = t2 - t0;
      },
    ];
    for (let i = 0; i < steps.length; i++) await steps[(i + run) % steps.length]();
    return sample as RunSample;
  } finally {
    tree.dispose();
    session.close();
  }
}

export async function openBench(connectString: string, raw: zookeeper.Client, nodes: WideNode[], runs: number): Promise<OpenResult> {
  const rows: Row[] = [];
  const openMedian = new Map<string, number>();
  for (const node of nodes) {
    await oneRun(connectString, raw, node, 0); // warm-up (JIT, server caches), not counted
    const samples: RunSample[] = [];
    for (let run = 0; run < runs; run++) samples.push(await oneRun(connectString, raw, node, run));
    const pick = (key: keyof RunSample) => samples.map((s) => s[key]);
    const rawLib = summarize(pick('rawLib'));
    const session = summarize(pick('session'));
    const total = summarize(pick('total'));
    openMedian.set(node.path, total.median);
    const label = `${node.children.toLocaleString('en-US')} children`;
    const bench = 'open node';
    const rawPage = summarize(pick('rawPage'));
    const rawExistsSummary = summarize(pick('rawExists'));
    const pageLabel = `node-zk-client getChildren + ${PAGE_SIZE} exists`;
    rows.push(
      { bench, case: `${label}: tree open + first page Stats`, unit: 'ms', summary: total, samples: pick('total'),
        baseline: { label: 'node-zk-client getChildren', summary: rawLib },
        goal: node.children >= 100000 ? { op: '<=', value: 200 } : undefined },
      { bench, case: `${label}: same, vs the same work done bare`, unit: 'ms', summary: total,
        baseline: { label: pageLabel, summary: rawPage } },
      { bench, case: `${label}: same, vs our session.getChildren`, unit: 'ms', summary: total,
        baseline: { label: 'session.getChildren', summary: session } },
      { bench, case: `${label}:   of which openListing (watch+list+sort)`, unit: 'ms', summary: summarize(pick('listing')), samples: pick('listing'),
        baseline: { label: 'session.getChildren', summary: session } },
      { bench, case: `${label}:   of which entries() (${PAGE_SIZE} Stats, ${WINDOW} in flight)`, unit: 'ms', summary: summarize(pick('entries')), samples: pick('entries'),
        baseline: { label: `node-zk-client ${PAGE_SIZE} exists`, summary: rawExistsSummary } },
      { bench, case: `${label}: session.getChildren`, unit: 'ms', summary: session, samples: pick('session'),
        baseline: { label: 'node-zk-client getChildren', summary: rawLib } },
      { bench, case: `${label}: node-zk-client getChildren`, unit: 'ms', summary: rawLib, samples: pick('rawLib') },
      { bench, case: `${label}: ${pageLabel}`, unit: 'ms', summary: rawPage, samples: pick('rawPage') },
    );
  }
  return { rows, openMedian };
}

const MiB = 1024 * 1024;

/**
 * Heap held by an opened 100k listing (tree + watch + sorted names + first page of Stats), after full GCs,
 * against the names array alone as node-zookeeper-client returns it. Needs --expose-gc.
 */
export async function memoryBench(connectString: string, raw: zookeeper.Client, node: WideNode, runs: number): Promise<Row[]> {
  const tree: number[] = [];
  const treeExternal: number[] = [];
  const names: number[] = [];
  for (let run = 0; run < runs; run++) {
    // Each measurement in its own function: a variable of this loop would keep the previous run's objects
    // alive (async functions keep locals in their context) and hide the new ones in the difference.
    const held = await heldByListing(connectString, node);
    tree.push(held.heap);
    treeExternal.push(held.external);
    names.push(await heldByNames(raw, node));
  }
  const label = `${node.children.toLocaleString('en-US')} children`;
  return [
    { bench: 'memory', case: `${label}: heap held by the open listing`, unit: 'MiB', summary: summarize(tree), samples: tree,
      baseline: { label: 'names array (node-zk-client)', summary: summarize(names) } },
    { bench: 'memory', case: `${label}: external (Buffers) held by it`, unit: 'MiB', summary: summarize(treeExternal), samples: treeExternal },
  ];
}

async function heldByListing(connectString: string, node: WideNode): Promise<{ heap: number; external: number }> {
  const session = await openSession(connectString);
  try {
    collect();
    const before = process.memoryUsage();
    const tree = newTree(session, () => undefined);
    const listing = await tree.openListing(node.path);
    const entries = await listing.entries();
    collect();
    const after = process.memoryUsage();
    if (entries.length === 0 || listing.total !== node.children) throw new Error('memory bench: listing incomplete');
    tree.dispose();
    return { heap: (after.heapUsed - before.heapUsed) / MiB, external: (after.external - before.external) / MiB };
  } finally {
    session.close();
  }
}

async function heldByNames(raw: zookeeper.Client, node: WideNode): Promise<number> {
  collect();
  const before = process.memoryUsage().heapUsed;
  const list = await rawGetChildren(raw, node.path);
  collect();
  const after = process.memoryUsage().heapUsed;
  if (list.length !== node.children) throw new Error('memory bench: names incomplete');
  return (after - before) / MiB;
}
