// The index over a real server's logs answers as the full read does: a node's history (paths and globs) and a lock's
// history (from the snapshot the logs go on from, whole and cut at a time or a zxid), item for item, for the forms
// a 3.8 server writes (closeSession with its paths, and without them when told).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { lockHistoryFromIndex, lockHistoryFromLogs } from '../../src/zk/history/fromServerLogs';
import { LogIndex } from '../../src/zk/serverLogs/logIndex';
import { logSource, readLogSet, type LogSetItem, type LogSource } from '../../src/zk/serverLogs/logSet';
import { nodeHistory, nodeHistoryFromIndex } from '../../src/zk/serverLogs/nodeHistory';
import { startingSnapshot } from '../../src/zk/serverLogs/startingSnapshot';
import type { LogBound } from '../../src/zk/serverLogs/txnFilter';
import { connectOtherClient } from '../support/clients/zkClient';
import { startStandalone, type ZkCluster } from '../support/servers/zkServer';

const lockNode = 'x-lock-';

/** Plain writes, multis (one failing), and two lock queues: members queued, released in order, one gone with its session. */
async function writeWorkload(connectString: string): Promise<void> {
  const writer = await connectOtherClient(connectString);
  try {
    await writer.mkdirp('/app/conf');
    await writer.mkdirp('/locks/a');
    await writer.mkdirp('/locks/b');
    for (let round = 0; round < 6; round++) {
      await writer.create(`/app/conf/k${round}`, `v${round}`);
      await writer.setData('/app/conf', `round ${round}`);
      const commit = (tx: zookeeper.Transaction) => new Promise<void>((resolve) => tx.commit(() => resolve()));
      await commit(writer.client.transaction().create(`/app/m${round}`, Buffer.from('m')).setData('/app/conf', Buffer.from(`multi ${round}`), -1));
      await commit(writer.client.transaction().create(`/app/f${round}`, Buffer.from('f')).check('/app/conf', 999));
      for (const lock of ['/locks/a', '/locks/b']) {
        const contenders = await Promise.all([0, 1, 2].map(() => connectOtherClient(connectString)));
        const members: string[] = [];
        for (const client of contenders) members.push(await client.create(`${lock}/${lockNode}`, '', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL));
        await contenders[0].remove(members[0]);
        await contenders[1].remove(members[1]);
        // The last one leaves with its session: its node goes with the closeSession.
        for (const client of contenders) client.close();
      }
      if (round % 2 === 0) await writer.remove(`/app/conf/k${round}`);
    }
  } finally {
    writer.close();
  }
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* until(items: AsyncIterable<LogSetItem>, to: LogBound | undefined): AsyncGenerator<LogSetItem> {
  for await (const item of items) {
    if (item.kind === 'txn' && to && ('zxid' in to ? item.txn.zxid > to.zxid : item.txn.time > to.time)) return;
    yield item;
  }
}

for (const form of [
  { name: '3.8 defaults (closeSession with its paths)', props: {} as Record<string, string> },
  { name: 'closeSession without its paths', props: { 'zookeeper.closeSessionTxn.enabled': 'false' } },
]) {
  describe(`an index over a real ZooKeeper 3.8.0's logs: ${form.name}`, () => {
    let zk: ZkCluster;
    let sources: LogSource[];
    let index: LogIndex;

    before(async () => {
      zk = await startStandalone({ adminServer: false, systemProperties: { 'zookeeper.snapCount': '40', ...form.props } });
      await writeWorkload(zk.connectString);
      await zk.members[0].stop();
      sources = [logSource(path.join(zk.members[0].dir, 'data'))];
      assert.ok(sources[0].files.length > 2, 'several log files');
      index = await LogIndex.build(sources);
    });

    after(async () => {
      await zk?.stop();
    });

    test('node history: the same entries as the full read, for paths (deleted ones too) and globs', async () => {
      const read = await all(readLogSet(sources));
      const named = new Set(read.flatMap((item) => (item.kind === 'txn' && 'path' in item.txn.record ? [item.txn.record.path] : [])));
      const targets = ['/app/conf', '/app/conf/k0', '/app/conf/k1', '/app/m3', '/app/f2', '/locks/**', '/locks/a/*', '/app/**', '/**', '/**/k?', ...[...named].filter((p) => p.startsWith('/locks/b/'))];
      for (const target of targets) {
        const full = await all(nodeHistory(readLogSet(sources), target));
        assert.deepEqual(await all(nodeHistoryFromIndex(index, target)), full, target);
      }
      const gone = await all(nodeHistoryFromIndex(index, '/locks/a/**'));
      assert.ok(gone.some((item) => item.kind === 'entry' && item.entry.op === 'closeSession'), 'a member that went with its session is told');
    });

    test('lock history: the same as the full read, from the snapshot the logs go on from, whole and cut at a time or a zxid', async () => {
      const zxids = [...index.zxids];
      const windows: (LogBound | undefined)[] = [undefined, { zxid: zxids[Math.floor(zxids.length / 2)] }, { time: index.times[Math.floor(index.count * 0.7)] }];
      for (const root of ['/locks', '/locks/b', '/']) {
        const start = await startingSnapshot(sources, root);
        assert.ok(!('problem' in start), 'problem' in start ? start.problem : '');
        for (const to of windows) {
          const full = await lockHistoryFromLogs(until(readLogSet(sources), to), root, start);
          const indexed = await lockHistoryFromIndex(index, root, start, { to });
          assert.deepEqual(indexed, full, `${root} to ${String(to && ('zxid' in to ? to.zxid : to.time))}`);
        }
      }
      const lockStart = await startingSnapshot(sources, '/locks');
      assert.ok(!('problem' in lockStart));
      const whole = await lockHistoryFromIndex(index, '/locks', lockStart);
      const holds = [...whole.history.intervals()].filter((i) => i.kind === 'hold');
      assert.equal(holds.length, 6 * 2 * 3, 'every member held once');
    });
  });
}
