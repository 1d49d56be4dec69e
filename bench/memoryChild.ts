// One memory measurement in a process of its own (bench/memoryBench.ts starts it): RSS once connected, then after
// seeing ALL children of a wide node, after full GCs; prints one JSON line {rssBeforeMiB, rssAfterMiB, heap…}.
//   node --expose-gc out/bench/memoryChild.js <connectString> <path> <children> tree|bare
// tree: a ConnectionTree listing showing every child (all Stats), its elements and their tree items' data, as the
//       extension holds them after the user pages through everything.
// bare: node-zookeeper-client's names array and one raw Stat per child, as a bare client would hold them.
import * as zookeeper from 'node-zookeeper-client';
import { baseName } from '../src/zk/paths';
import { mapBounded } from '../src/zk/timeouts';
import { ConnectionTree } from '../src/zk/tree/connectionTree';
import { ConnectionNode, ZnodeNode } from '../src/zk/tree/treeNodes';
import { znodePresentation } from '../src/zk/tree/znodePresentation';
import { l10nLike, openSession, rawExists, rawGetChildren, WINDOW } from './fixtures';
import { collect } from './stats';

const MiB = 1024 * 1024;

async function main(): Promise<void> {
  const [connectString, nodePath, countText, mode] = process.argv.slice(2);
  const count = Number(countText);
  const held: unknown[] = [];
  let close: () => void;
  let work: () => Promise<void>;
  if (mode === 'tree') {
    const session = await openSession(connectString);
    close = () => session.close();
    // The element the user expands, as the tree had it before (read before the measurement).
    const root = new ConnectionNode('bench');
    const stat = await session.exists(nodePath);
    if (!stat) throw new Error(`tree: ${nodePath} does not exist`);
    const element = new ZnodeNode('bench', nodePath, baseName(nodePath), stat, root);
    work = async () => {
      const tree = new ConnectionTree(root, session, () => ({ pageSize: count, window: WINDOW, liveUpdates: true, debounceMs: 30 }), () => undefined, () => undefined);
      const listing = await tree.openListing(element);
      const nodes = await listing.entries();
      if (nodes.length !== count) throw new Error(`tree: ${nodes.length} entries, expected ${count}`);
      held.push(tree, nodes.map((n) => znodePresentation(l10nLike, n, undefined, listing)));
    };
  } else {
    const client = zookeeper.createClient(connectString, { sessionTimeout: 30000 });
    await new Promise<void>((resolve) => { client.once('connected', () => resolve()); client.connect(); });
    close = () => client.close();
    work = async () => {
      const names = await rawGetChildren(client, nodePath);
      const stats = await mapBounded(names, WINDOW, (name) => rawExists(client, `${nodePath}/${name}`));
      if (stats.length !== count) throw new Error(`bare: ${stats.length} stats, expected ${count}`);
      held.push(names, stats);
    };
  }
  collect();
  const before = process.memoryUsage();
  await work();
  collect();
  const after = process.memoryUsage();
  console.log(JSON.stringify({
    rssBeforeMiB: before.rss / MiB, rssAfterMiB: after.rss / MiB,
    heapBeforeMiB: before.heapUsed / MiB, heapAfterMiB: after.heapUsed / MiB, held: held.length,
  }));
  close();
  process.exit(0);
}

main().catch((error: unknown) => { console.error(error); process.exit(1); });
