// Bench 3: the natural sort of a wide node's names (sortChildren), as a share of opening that node in the tree.
import { randomUUID } from 'node:crypto';
import * as zookeeper from 'node-zookeeper-client';
import { sortChildren } from '../src/zk/naturalOrder';
import { rawGetChildren, WideNode } from './fixtures';
import { collect, now, Row, summarize } from './stats';

function timeSort(names: readonly string[], runs: number): number[] {
  sortChildren(names); // warm-up
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    collect();
    const t0 = now();
    const sorted = sortChildren(names);
    samples.push(now() - t0);
    if (sorted.length !== names.length) throw new Error('sortChildren lost names');
  }
  return samples;
}

export async function sortBench(raw: zookeeper.Client, nodes: WideNode[], openMedian: Map<string, number>, runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const node of nodes) {
    // The names in the order the server sends them (its hash order), as the listing gets them.
    const names = await rawGetChildren(raw, node.path);
    const samples = timeSort(names, runs);
    const sort = summarize(samples);
    const open = openMedian.get(node.path);
    const label = `${node.children.toLocaleString('en-US')} names`;
    rows.push({ bench: 'natural sort', case: `${label} (item-N): sortChildren`, unit: 'ms', summary: sort, samples,
      baseline: open === undefined ? undefined : { label: 'tree open', summary: { n: 1, median: open, min: open, max: open } } });
    if (open !== undefined) {
      rows.push({ bench: 'natural sort', case: `${label}: share of the tree open time`, unit: '%',
        summary: { n: 1, median: (100 * sort.median) / open, min: NaN, max: NaN } });
    }
  }
  // Lock queues sort by sequence number whatever the prefix (Curator-style names), for comparison.
  const lockNames = Array.from({ length: 100000 }, (_, i) => `_c_${randomUUID()}-lock-${String(i).padStart(10, '0')}`);
  for (let i = lockNames.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [lockNames[i], lockNames[j]] = [lockNames[j], lockNames[i]];
  }
  const lockSamples = timeSort(lockNames, runs);
  rows.push({ bench: 'natural sort', case: '100,000 sequential lock names (Curator-style)', unit: 'ms', summary: summarize(lockSamples), samples: lockSamples });
  return rows;
}
