import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logSource } from '../../src/zk/serverLogs/logSet';
import { startingSnapshot } from '../../src/zk/serverLogs/startingSnapshot';
import { logFile, snapshotFile, type FixtureNode } from '../support/fixtures/serverLogFixtures';

/** A data folder: a snapshot at zxid 0x10 holding `nodes`, and a log going on from it. */
function folder(nodes: FixtureNode[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-start-'));
  fs.writeFileSync(path.join(dir, 'snapshot.10'), snapshotFile({ nodes: [{ path: '' }, ...nodes] }));
  fs.writeFileSync(path.join(dir, 'log.11'), logFile([]));
  return dir;
}

const member = (i: number): FixtureNode => ({ path: `/locks/q/_c_x-lock-${String(i).padStart(10, '0')}`, data: Buffer.alloc(1000, 0x61), ephemeralOwner: 5n });

describe('the snapshot a lock history starts from', () => {
  test('keeps the nodes under the lock path, with their owner and data', async () => {
    const dir = folder([{ path: '/locks' }, { path: '/locks/q' }, member(1), member(2), { path: '/other', data: Buffer.from('x') }]);
    try {
      const start = await startingSnapshot([logSource(dir)], '/locks/q');
      assert.ok(!('problem' in start), 'problem' in start ? start.problem : '');
      assert.deepEqual(start.nodes.map((n) => [n.path, n.owner]), [[member(1).path, 5n], [member(2).path, 5n]]);
      assert.equal(start.zxid, 0x10n);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a snapshot putting more under the path than its budget is refused in one line, not held', async () => {
    const dir = folder([{ path: '/locks' }, { path: '/locks/q' }, ...Array.from({ length: 200 }, (_, i) => member(i))]);
    try {
      const start = await startingSnapshot([logSource(dir)], '/locks/q', { budget: 50_000 });
      assert.ok('problem' in start, 'a 200 kB queue was held under a 50 kB budget');
      assert.match(start.problem, /^snapshot\.10 holds more under \/locks\/q than a lock's queue \(over 49 KiB in \d+ nodes\): give the queue's own path$/);
      assert.ok(!start.problem.includes('\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('only the nodes a history follows count: a big tree beside them is read past, not held', async () => {
    const elsewhere = Array.from({ length: 200 }, (_, i): FixtureNode => ({ path: `/other/n${i}`, data: Buffer.alloc(1000, 0x62) }));
    const dir = folder([{ path: '/locks' }, { path: '/locks/q' }, member(1), { path: '/locks/q-__lock__' }, { path: '/other' }, ...elsewhere]);
    try {
      const follows = (p: string) => p === '/locks/q' || p.startsWith('/locks/q/') || p.startsWith('/locks/q-__lock__');
      const start = await startingSnapshot([logSource(dir)], '/locks/q', { budget: 50_000, includes: follows });
      assert.ok(!('problem' in start), 'problem' in start ? start.problem : '');
      assert.deepEqual(start.nodes.map((n) => n.path), ['/locks/q', member(1).path, '/locks/q-__lock__']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a cancelled read stops instead of reading the snapshot to its end', async () => {
    const dir = folder([{ path: '/locks' }, { path: '/locks/q' }, member(1)]);
    try {
      const cancel = new AbortController();
      cancel.abort();
      await assert.rejects(startingSnapshot([logSource(dir)], '/locks/q', { signal: cancel.signal }), { name: 'AbortError' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
