// Bench 2: another client creates or deletes a child under an expanded node; time until the tree's change
// callback fires (what fires the VS Code tree's change event), against a plain node-zookeeper-client one-shot
// getChildren watch on the same node, both timed from the same write.
import * as zookeeper from 'node-zookeeper-client';
import { DEBOUNCE_MS, newTree, openSession, OtherClient, rawGetChildren, WideNode } from './fixtures';
import { now, Row, sleep, summarize } from './stats';

export interface ChangeCase {
  node: WideNode;
  debounceMs: number;
  /** Whether the ≤ 100 ms goal applies (the extension's real settings on an ordinary node). */
  goal: boolean;
}

const STEP_TIMEOUT_MS = 10000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`change bench: no ${what} within ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS); }),
  ]).finally(() => clearTimeout(timer));
}

export async function changeBench(connectString: string, writer: OtherClient, raw: zookeeper.Client, c: ChangeCase, changes: number, warmup = 2): Promise<Row[]> {
  const { node } = c;
  const session = await openSession(connectString);
  let waiting: ((t: number) => void) | undefined;
  let stray = 0;
  const tree = newTree(session, (changed) => {
    const t = now();
    if (changed.path === node.path && waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(t);
    } else stray++;
  }, c.debounceMs);
  const toCallback: number[] = [];
  const toEntries: number[] = [];
  const toRawWatch: number[] = [];
  const toWriterReply: number[] = [];
  const created: string[] = [];
  try {
    // Expanded as a user would: / then /bench then the node, so the node is an element the tree knows (the
    // callback is only called for those) and its ancestors are listed and watched too.
    const element = await tree.resolve(node.path);
    if (!element) throw new Error(`change bench: ${node.path} not found`);
    const listing = await tree.openListing(element);
    await listing.entries();
    let expected = listing.total;
    const total = warmup + changes + ((warmup + changes) % 2); // even: every child created is deleted again
    for (let i = 0; i < total; i++) {
      let rawResolve: (t: number) => void = () => undefined;
      const rawFired = new Promise<number>((resolve) => { rawResolve = resolve; });
      // A new watcher function each time: the library keeps one registration per function and path.
      await rawGetChildren(raw, node.path, () => rawResolve(now()));
      const treeFired = new Promise<number>((resolve) => { waiting = resolve; });

      const create = i % 2 === 0;
      const child = create ? `${node.path}/bench-change-${i}` : created[created.length - 1];
      const t0 = now();
      const write = create ? writer.create(child) : writer.remove(child);
      const [tWrite, tRaw, tTree] = await Promise.all([
        within(write.then(() => now()), 'reply to the write'),
        within(rawFired, 'raw watch notification'),
        within(treeFired, 'tree callback'),
      ]);
      if (create) created.push(child);
      else created.pop();
      expected += create ? 1 : -1;
      if (listing.total !== expected) throw new Error(`change bench: listing has ${listing.total} names after the change, expected ${expected}`);
      const entries = await listing.entries();
      const tEntries = now();
      // 'bench-change-…' sorts before 'item-…': a created child is on the first page, with its Stat.
      const name = child.slice(node.path.length + 1);
      if (create !== entries.some((e) => e.name === name)) throw new Error(`change bench: ${name} ${create ? 'missing from' : 'still in'} the first page`);
      if (i >= warmup) {
        toWriterReply.push(tWrite - t0);
        toRawWatch.push(tRaw - t0);
        toCallback.push(tTree - t0);
        toEntries.push(tEntries - t0);
      }
      // A quiet gap longer than the debounce, so the next change is not merged with this one.
      await sleep(c.debounceMs + 20);
    }
  } finally {
    tree.dispose();
    session.close();
    for (const child of created) await writer.remove(child).catch(() => undefined);
  }
  if (stray) console.warn(`change bench: ${stray} callbacks for other nodes or after the measured one`);

  const label = `${node.children.toLocaleString('en-US')} children, debounce ${c.debounceMs} ms`;
  const rawWatch = { label: 'raw one-shot watch', summary: summarize(toRawWatch) };
  const rows: Row[] = [
    { bench: 'live change', case: `${label}: write → tree callback`, unit: 'ms', summary: summarize(toCallback), samples: toCallback,
      baseline: rawWatch, goal: c.goal ? { op: '<=', value: 100 } : undefined },
    { bench: 'live change', case: `${label}: write → callback + entries()`, unit: 'ms', summary: summarize(toEntries), samples: toEntries, baseline: rawWatch },
  ];
  if (c.debounceMs === DEBOUNCE_MS && c.goal) {
    rows.push(
      { bench: 'live change', case: `${label}: write → raw watch fires`, unit: 'ms', summary: rawWatch.summary, samples: toRawWatch },
      { bench: 'live change', case: `${label}: write → writer's own reply`, unit: 'ms', summary: summarize(toWriterReply), samples: toWriterReply },
    );
  }
  return rows;
}

/**
 * Only the live-change cases, on a fresh disk-backed server: `node out/bench/changeBench.js` (BENCH_CHANGES,
 * BENCH_WIDE default 100000; the 100-child node with the real settings runs first, as in the full bench).
 */
if (require.main === module) {
  void (async () => {
    const { connectOtherClient, createWideNode, startServer } = await import('./fixtures');
    const { formatTable } = await import('./stats');
    const changes = Math.max(20, Number(process.env.BENCH_CHANGES ?? 20));
    const wide = (process.env.BENCH_WIDE ?? '100000').split(',').map((n) => ({ path: `/bench/w${n}`, children: Number(n) }));
    const live = { path: '/bench/live', children: 100 };
    const { cluster } = await startServer();
    try {
      const writer = await connectOtherClient(cluster.connectString, 30000);
      const rawClient = await connectOtherClient(cluster.connectString, 30000);
      try {
        for (const node of [...wide, live]) await createWideNode(writer, node);
        const rows: Row[] = [];
        for (const c of [{ node: live, debounceMs: DEBOUNCE_MS, goal: true }, ...wide.map((node) => ({ node, debounceMs: DEBOUNCE_MS, goal: false }))]) {
          rows.push(...await changeBench(cluster.connectString, writer, rawClient.client, c, changes));
        }
        console.log(formatTable(rows));
      } finally {
        writer.close();
        rawClient.close();
      }
    } finally {
      await cluster.stop();
    }
  })().catch((error: unknown) => { console.error(error); process.exitCode = 1; });
}
