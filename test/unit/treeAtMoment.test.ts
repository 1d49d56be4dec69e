// The tree at a moment from fixture logs and snapshots built to ZooKeeper's layout: which snapshot a moment may start
// from (a fuzzy one still being written then may not), and the server's replay rules.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logSource } from '../../src/zk/serverLogs/logSet';
import { ReplayedTree } from '../../src/zk/serverLogs/replayedTree';
import { treeAtMoment } from '../../src/zk/serverLogs/treeAtMoment';
import { TxnType } from '../../src/zk/serverLogs/txnOpCodes';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';
import { replayedStat } from '../../src/zk/transfer/exportReplayed';
import { logFile, records, snapshotFile, type FixtureTxn } from '../support/fixtures/serverLogFixtures';

const T0 = 1_700_000_000_000n;
const at = (zxid: bigint, type: number, record: Buffer, session = 0x100000abcn): FixtureTxn => ({ zxid, type, record, session, time: T0 + zxid * 1000n });

/** log.1 holds zxids 1–6; snapshot.1 is whole at 1; snapshot.3 was written while 3–5 applied (its digest says 5). */
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-moment-unit-'));
  fs.writeFileSync(path.join(dir, 'log.1'), logFile([
    at(1n, TxnType.create, records.create('/x', 'x', false, 1)),
    at(2n, TxnType.create, records.create('/a', 'v0', false, 2)),
    at(3n, TxnType.setData, records.setData('/a', 'v1', 1)),
    at(4n, TxnType.create, records.create('/b', 'b', false, 3)),
    at(5n, TxnType.delete, records.delete('/b')),
    at(6n, TxnType.setData, records.setData('/a', 'v2', 2)),
  ]));
  const root = { path: '', data: Buffer.alloc(0) };
  fs.writeFileSync(path.join(dir, 'snapshot.1'), snapshotFile({ nodes: [{ ...root, cversion: 1, pzxid: 1n }, { path: '/x', data: Buffer.from('x'), czxid: 1n, mzxid: 1n, pzxid: 1n }], digest: { zxid: 1n, version: 2, digest: 7n } }));
  fs.writeFileSync(path.join(dir, 'snapshot.3'), snapshotFile({
    nodes: [{ ...root, cversion: 3, pzxid: 5n }, { path: '/a', data: Buffer.from('v1'), czxid: 2n, mzxid: 3n, version: 1, pzxid: 2n }, { path: '/x', data: Buffer.from('x'), czxid: 1n, mzxid: 1n, pzxid: 1n }],
    digest: { zxid: 5n, version: 2, digest: 9n },
  }));
  return dir;
}

test('a moment inside a fuzzy snapshot\'s writing starts from the snapshot before it; a later one from the fuzzy one', async () => {
  const dir = dataDir();
  try {
    const four = await treeAtMoment([logSource(dir)], { zxid: 4n });
    assert.ok(four.ok, four.ok ? '' : four.problem);
    assert.equal(path.basename(four.moment.snapshot.file), 'snapshot.1');
    assert.equal(four.moment.zxid, 4n);
    assert.equal(four.moment.tree.node('/b')?.data?.toString(), 'b', '/b lived at zxid 4 (the fuzzy snapshot no longer holds it)');
    assert.equal(four.moment.tree.node('/a')?.data?.toString(), 'v1');

    const six = await treeAtMoment([logSource(dir)], { zxid: 6n });
    assert.ok(six.ok, six.ok ? '' : six.problem);
    assert.equal(path.basename(six.moment.snapshot.file), 'snapshot.3');
    assert.equal(six.moment.tree.node('/b'), undefined);
    assert.equal(six.moment.tree.node('/a')?.data?.toString(), 'v2');
    assert.equal(six.moment.time, Number(T0 + 6000n));
    // The root: 3 creates stored (x, a, b), 2 children left: a client is told 3·2 − 2 = 4 changes; pzxid the delete's.
    const rootStat = replayedStat(six.moment.tree.node('/')!);
    assert.deepEqual([rootStat.cversion, rootStat.numChildren, rootStat.pzxid], [4, 2, 5n]);

    // The moment is the snapshot's own zxid: nothing is replayed, and its time is still the leader's for that zxid.
    const one = await treeAtMoment([logSource(dir)], { zxid: 1n });
    assert.ok(one.ok);
    assert.deepEqual([path.basename(one.moment.snapshot.file), one.moment.zxid, one.moment.time], ['snapshot.1', 1n, Number(T0 + 1000n)]);

    const time = await treeAtMoment([logSource(dir)], { time: Number(T0 + 4500n) });
    assert.ok(time.ok);
    assert.equal(time.moment.zxid, 4n, 'a time is the last transaction at or before it');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('logs that do not go on from the snapshot: one line, no tree', async () => {
  const dir = dataDir();
  try {
    fs.writeFileSync(path.join(dir, 'log.1'), logFile([at(5n, TxnType.delete, records.delete('/b')), at(6n, TxnType.setData, records.setData('/a', 'v2', 2))]));
    fs.rmSync(path.join(dir, 'snapshot.3'));
    const result = await treeAtMoment([logSource(dir)], { zxid: 6n });
    assert.ok(!result.ok);
    assert.match(result.problem, /go on from zxid 0x5, not from the snapshot's 0x1/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const txn = (zxid: bigint, record: Txn['record'], session = 0x200n): Txn => ({ zxid, record, session, cxid: 1, time: Number(zxid), type: 0 });
const open = [{ perms: 31, scheme: 'world', id: 'anyone' }];

test('the server\'s replay rules: a failed multi changes nothing, a close removes its session\'s ephemerals, a create over a fuzzy node keeps it', () => {
  const tree = new ReplayedTree();
  tree.addSnapshotNode({ path: '', data: null, aclRef: -1n, stat: { czxid: 0n, mzxid: 0n, pzxid: 0n, ctime: 0, mtime: 0, version: 0, cversion: 0, aversion: 0, ephemeralOwner: 0n } }, new Map());
  tree.apply(txn(1n, { op: 'create', path: '/p', data: Buffer.from('p'), acl: open, ephemeral: false, parentCVersion: 1 }));
  tree.apply(txn(2n, { op: 'create', path: '/p/e', data: null, acl: open, ephemeral: true, parentCVersion: 1 }, 0x300n));
  tree.apply(txn(3n, { op: 'multi', parts: [{ op: 'create', path: '/p/m', data: null, acl: open, ephemeral: false, parentCVersion: 2 }, { op: 'error', err: -101 }] }));
  assert.equal(tree.node('/p/m'), undefined, 'no part of a failed multi');
  tree.apply(txn(4n, { op: 'closeSession' }, 0x300n)); // the older form: no paths, the session's own ephemerals go
  assert.equal(tree.node('/p/e'), undefined);
  assert.equal(tree.node('/p')?.stat.pzxid, 4n);
  const narrow = [{ perms: 1, scheme: 'world', id: 'anyone' }];
  tree.apply(txn(5n, { op: 'create', path: '/p', data: Buffer.from('again'), acl: narrow, ephemeral: false, parentCVersion: 2 }));
  assert.equal(tree.node('/p')?.data?.toString(), 'p', 'the node a fuzzy snapshot already held keeps its data');
  assert.deepEqual(tree.node('/p')?.acl, narrow, 'but takes the ACL (DataTree.createNode)');
  assert.deepEqual([tree.node('/')?.stat.cversion, tree.node('/')?.stat.pzxid], [2, 5n], 'and its parent the cversion and pzxid');
  assert.deepEqual([...tree.preOrder()].map((n) => n.path), ['/', '/p']);
});
