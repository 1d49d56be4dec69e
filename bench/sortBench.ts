// Bench 3: the natural order of a wide node's names. Opening the node orders only its first page (firstInOrder), and
// that is set beside the tree's open time as its share; the full sort (sortChildren) is what a listing costs once
// every name is shown (paged through to the end).
import { randomUUID } from 'node:crypto';
import * as zookeeper from 'node-zookeeper-client';
import { firstInOrder, sortChildren } from '../src/zk/tree/naturalOrder';
import { PAGE_SIZE, rawGetChildren, WideNode } from './fixtures';
import { collect, now, Row, summarize } from './stats';

function timeOrder(names: readonly string[], runs: number, order: (names: readonly string[]) => string[], expected: number): number[] {
  order(names); // warm-up
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    collect();
    const t0 = now();
    const ordered = order(names);
    samples.push(now() - t0);
    if (ordered.length !== expected) throw new Error(`natural order: ${ordered.length} names, expected ${expected}`);
  }
  return samples;
}

export async function sortBench(raw: zookeeper.Client, nodes: WideNode[], openMedian: Map<string, number>, runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const node of nodes) {
    // The names in the order the server sends them (its hash order), as the listing gets them.
    const names = await rawGetChildren(raw, node.path);
    const pageSize = Math.min(PAGE_SIZE, names.length);
    const pageSamples = timeOrder(names, runs, (all) => firstInOrder(all, pageSize), pageSize);
    const page = summarize(pageSamples);
    const open = openMedian.get(node.path);
    const label = `${node.children.toLocaleString('en-US')} names`;
    rows.push({ bench: 'natural sort', case: `${label} (item-N): first page on open (firstInOrder, ${pageSize})`, unit: 'ms', summary: page, samples: pageSamples,
      baseline: open === undefined ? undefined : { label: 'tree open', summary: { n: 1, median: open, min: open, max: open } } });
    if (open !== undefined) {
      rows.push({ bench: 'natural sort', case: `${label}: first page's share of the tree open time`, unit: '%',
        summary: { n: 1, median: (100 * page.median) / open, min: NaN, max: NaN } });
    }
    const fullSamples = timeOrder(names, runs, sortChildren, names.length);
    rows.push({ bench: 'natural sort', case: `${label} (item-N): all of them (sortChildren, every name shown)`, unit: 'ms', summary: summarize(fullSamples), samples: fullSamples });
  }
  // Lock queues sort by sequence number whatever the prefix (Curator-style names), for comparison.
  const lockNames = Array.from({ length: 100000 }, (_, i) => `_c_${randomUUID()}-lock-${String(i).padStart(10, '0')}`);
  for (let i = lockNames.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [lockNames[i], lockNames[j]] = [lockNames[j], lockNames[i]];
  }
  const lockPage = timeOrder(lockNames, runs, (all) => firstInOrder(all, PAGE_SIZE), PAGE_SIZE);
  rows.push({ bench: 'natural sort', case: `100,000 sequential lock names (Curator-style): first page (${PAGE_SIZE})`, unit: 'ms', summary: summarize(lockPage), samples: lockPage });
  const lockSamples = timeOrder(lockNames, runs, sortChildren, lockNames.length);
  rows.push({ bench: 'natural sort', case: '100,000 sequential lock names (Curator-style): all of them', unit: 'ms', summary: summarize(lockSamples), samples: lockSamples });
  return rows;
}
