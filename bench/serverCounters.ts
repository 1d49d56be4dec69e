// What the server itself counts, read with `mntr` (ZooKeeper 3.6+): the watchers it has triggered, summed over the
// four event types. Benchmarks take differences of it around a piece of work; nothing else runs meanwhile.
import * as assert from 'node:assert/strict';
import { fourLetterWord } from '../test/support/ports';

const EVENTS = ['created', 'deleted', 'children', 'changed'];

/** Watch notifications the server has sent so far (mntr `zk_sum_node_<event>_watch_count`, all four summed). */
export async function watchersTriggered(clientPort: number): Promise<number> {
  const mntr = await fourLetterWord(clientPort, 'mntr');
  let sum = 0;
  for (const event of EVENTS) {
    const line = new RegExp(`^zk_sum_node_${event}_watch_count\\s+(\\d+)`, 'm').exec(mntr);
    assert.ok(line, `mntr lacks zk_sum_node_${event}_watch_count (ZooKeeper 3.6+ needed)`);
    sum += Number(line[1]);
  }
  return sum;
}
