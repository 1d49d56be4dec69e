import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { lockHistoryFromLogs } from '../../src/zk/history/fromServerLogs';
import type { LogSetItem } from '../../src/zk/serverLogs/logSet';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';

const A = 0x100000001n;
const B = 0x100000002n;
const C = 0x100000003n;
const node = (n: number) => `_c_0f0e0d0c-0b0a-0908-0706-050403020100-lock-${String(n).padStart(10, '0')}`;
const acl = [{ perms: 31, scheme: 'world', id: 'anyone' }];

function txn(zxid: bigint, time: number, session: bigint, record: Txn['record'], cxid = 5): LogSetItem {
  return { kind: 'txn', source: 'a', txn: { session, cxid, zxid, time, type: 0, record } };
}

async function* feed(items: LogSetItem[]) {
  yield* items;
}

const shown = (i: { kind: string; node: string; start: number; startExact: boolean; end?: number; ended?: string; session?: string }) =>
  `${i.kind} ${i.node.slice(-2)} ${i.session} ${i.start}${i.startExact ? '' : '~'}-${i.end ?? 'open'} ${i.ended ?? ''}`.trim();

test('from a snapshot with a queue in it: the holder found there is a bound, its waiter exact from its creation; then the log exact', async () => {
  const start = { zxid: 10n, nodes: [
    { path: `/q/${node(1)}`, ctime: 100, owner: A, data: null },
    { path: `/q/${node(2)}`, ctime: 200, owner: B, data: null },
  ] };
  const built = await lockHistoryFromLogs(feed([
    txn(9n, 150, B, { op: 'create', path: `/q/${node(2)}`, data: null, acl, ephemeral: true }), // fuzzy: already in the snapshot
    txn(11n, 300, C, { op: 'create', path: `/q/${node(3)}`, data: null, acl, ephemeral: true }),
    txn(12n, 400, A, { op: 'delete', path: `/q/${node(1)}` }),
    txn(13n, 500, B, { op: 'closeSession', paths: [`/q/${node(2)}`] }, 0), // expired while holding
    txn(14n, 600, C, { op: 'closeSession' }), // a client's own close, an older server (no paths)
  ]), '/q', start);
  assert.deepEqual([...built.history.intervals()].map(shown).sort(), [
    'hold 01 0x100000001 100~-400 released',
    'hold 02 0x100000002 400-500 sessionEnded',
    'hold 03 0x100000003 500-600 released',
    'wait 02 0x100000002 200-400 acquired',
    'wait 03 0x100000003 300-500 acquired',
  ]);
  assert.equal(built.stoppedAt, undefined);
});

test('a stretch the logs lack right after the snapshot, or later, stops the history there in one line', async () => {
  const start = { zxid: 10n, nodes: [] };
  const afterSnapshot = await lockHistoryFromLogs(feed([txn(12n, 300, C, { op: 'create', path: `/q/${node(3)}`, data: null, acl, ephemeral: true })]), '/q', start);
  assert.deepEqual([...afterSnapshot.history.intervals()], []);
  assert.match(afterSnapshot.stoppedAt ?? '', /no log given holds zxid 0xb–0xb, right after the snapshot/);
  const later = await lockHistoryFromLogs(feed([
    txn(11n, 300, C, { op: 'create', path: `/q/${node(3)}`, data: null, acl, ephemeral: true }),
    { kind: 'issue', issue: { kind: 'gap', file: '', offset: 0, message: 'no log given holds zxid 0xc' } },
    txn(13n, 500, C, { op: 'delete', path: `/q/${node(3)}` }),
  ]), '/q', start);
  assert.deepEqual([...later.history.intervals()].map(shown), ['hold 03 0x100000003 300-open']);
  assert.equal(later.stoppedAt, 'the lock history stops at 1970-01-01T00:00:00.300Z: no log given holds zxid 0xc');
});
