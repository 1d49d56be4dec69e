// The lock history from the logs follows semaphores and fixed leader nodes as the live recorder does: transactions
// written as Curator, kazoo and a fixed leader's owner write them, from a semaphore's first use (its folders made
// as it goes) on.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { lockHistoryFromLogs } from '../../src/zk/history/fromServerLogs';
import type { LogSetItem } from '../../src/zk/serverLogs/logSet';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';

const A = 0x100000001n;
const B = 0x100000002n;
const C = 0x100000003n;
const D = 0x100000004n;
const acl = [{ perms: 31, scheme: 'world', id: 'anyone' }];
const seq = (n: number) => String(n).padStart(10, '0');
const curator = (who: string, what: 'lock' | 'lease', n: number) => `_c_${who.repeat(8)}-0000-0000-0000-000000000000-${what}-${seq(n)}`;
const kazooLock = (who: string, n: number) => `${who.repeat(32)}__lock__${seq(n)}`;

let zxid = 0n;
function txn(time: number, session: bigint, record: Txn['record'], cxid = 5): LogSetItem {
  return { kind: 'txn', source: 'a', txn: { session, cxid, zxid: ++zxid, time, type: 0, record } };
}
const create = (time: number, session: bigint, path: string, ephemeral = true) => txn(time, session, { op: 'create', path, data: null, acl, ephemeral });
const folder = (time: number, path: string) => txn(time, A, { op: 'createContainer', path, data: null, acl, parentCVersion: 0 });
const remove = (time: number, session: bigint, path: string) => txn(time, session, { op: 'delete', path });
const expire = (time: number, session: bigint, paths?: string[]) => txn(time, session, { op: 'closeSession', ...(paths ? { paths } : {}) }, 0);
const closeOwn = (time: number, session: bigint, paths?: string[]) => txn(time, session, { op: 'closeSession', ...(paths ? { paths } : {}) });

async function* feed(items: LogSetItem[]) {
  yield* items;
}

const shown = (i: { kind: string; lock: string; node: string; start: number; startExact: boolean; end?: number; ended?: string; session?: string }) =>
  `${i.kind} ${i.lock} ${i.node.slice(0, 3)}…${i.node.slice(-2)} ${i.session} ${i.start}${i.startExact ? '' : '~'}-${i.end ?? 'open'} ${i.ended ?? ''}`.trim();

async function holds(items: LogSetItem[], root: string, start?: Parameters<typeof lockHistoryFromLogs>[2]): Promise<string[]> {
  const built = await lockHistoryFromLogs(feed(items), root, start);
  return [...built.history.intervals()].filter((i) => i.kind === 'hold').sort((x, y) => x.start - y.start).map(shown);
}

test('a Curator semaphore from its first use: the lock comes before the leases folder, yet every lease holds from its lock\'s release; a full semaphore\'s next lease waits', async () => {
  const built = await lockHistoryFromLogs(feed([
    folder(1, '/s'), folder(2, '/s/locks'),
    create(10, A, `/s/locks/${curator('a', 'lock', 0)}`),
    folder(11, '/s/leases'),
    create(12, A, `/s/leases/${curator('a', 'lease', 0)}`),
    remove(13, A, `/s/locks/${curator('a', 'lock', 0)}`),
    create(20, B, `/s/locks/${curator('b', 'lock', 1)}`),
    create(21, B, `/s/leases/${curator('b', 'lease', 1)}`),
    remove(22, B, `/s/locks/${curator('b', 'lock', 1)}`),
    create(30, C, `/s/locks/${curator('c', 'lock', 2)}`),
    create(31, C, `/s/leases/${curator('c', 'lease', 2)}`), // a third lease of two: it waits
    create(32, D, `/s/locks/${curator('d', 'lock', 3)}`), // waits for the internal lock
    remove(40, A, `/s/leases/${curator('a', 'lease', 0)}`),
    remove(41, C, `/s/locks/${curator('c', 'lock', 2)}`),
    create(42, D, `/s/leases/${curator('d', 'lease', 3)}`),
    expire(50, B, [`/s/leases/${curator('b', 'lease', 1)}`]),
    remove(51, D, `/s/locks/${curator('d', 'lock', 3)}`),
    remove(60, C, `/s/leases/${curator('c', 'lease', 2)}`),
    remove(70, D, `/s/leases/${curator('d', 'lease', 3)}`),
  ]), '/s');
  const intervals = [...built.history.intervals()];
  assert.deepEqual(intervals.filter((i) => i.kind === 'hold').sort((x, y) => x.start - y.start).map(shown), [
    `hold /s _c_…00 0x100000001 13-40 released`,
    `hold /s _c_…01 0x100000002 22-50 sessionEnded`,
    `hold /s _c_…02 0x100000003 41-60 released`,
    `hold /s _c_…03 0x100000004 51-70 released`,
  ]);
  assert.ok(intervals.every((i) => i.lock === '/s' && i.startExact && i.endExact), 'one queue, every time exact');
  assert.deepEqual(intervals.filter((i) => i.kind === 'wait' && i.node.includes('lease')).map(shown).sort(), [
    `wait /s _c_…00 0x100000001 12-13 acquired`,
    `wait /s _c_…01 0x100000002 21-22 acquired`,
    `wait /s _c_…02 0x100000003 31-41 acquired`,
    `wait /s _c_…03 0x100000004 42-51 acquired`,
  ]);
  // The internal lock: its holder waits for a lease until it has made one (its part goes on as that lease), the
  // others wait for the lock.
  assert.deepEqual(intervals.filter((i) => i.kind === 'wait' && i.node.includes('lock')).map(shown).sort(), [
    `wait /s _c_…00 0x100000001 10-12 unknown`,
    `wait /s _c_…01 0x100000002 20-21 unknown`,
    `wait /s _c_…02 0x100000003 30-31 unknown`,
    `wait /s _c_…03 0x100000004 32-42 unknown`,
  ]);
});

test('Curator locks in a folder named `locks` with no leases beside them are a lock of their own', async () => {
  assert.deepEqual(await holds([
    create(10, A, `/m/locks/${curator('a', 'lock', 0)}`),
    create(11, B, `/m/locks/${curator('b', 'lock', 1)}`),
    remove(12, A, `/m/locks/${curator('a', 'lock', 0)}`),
    remove(13, B, `/m/locks/${curator('b', 'lock', 1)}`),
    create(20, C, `/m/locks/${curator('c', 'lock', 2)}`), // still held when the logs end
  ], '/m'), [
    'hold /m/locks _c_…00 0x100000001 10-12 released',
    'hold /m/locks _c_…01 0x100000002 12-13 released',
    'hold /m/locks _c_…02 0x100000003 20-open',
  ]);
});

test('a kazoo semaphore asked for by its path: its lock beside it is followed; a lease only once one is free', async () => {
  const lease = (who: string) => `/k/${who.repeat(32)}`;
  assert.deepEqual(await holds([
    txn(1, A, { op: 'create', path: '/k', data: Buffer.from('2'), acl, ephemeral: false }),
    create(10, A, `/k-__lock__/${kazooLock('a', 0)}`), create(11, A, lease('a')), remove(12, A, `/k-__lock__/${kazooLock('a', 0)}`),
    create(20, B, `/k-__lock__/${kazooLock('b', 1)}`), create(21, B, lease('b')), remove(22, B, `/k-__lock__/${kazooLock('b', 1)}`),
    create(30, C, `/k-__lock__/${kazooLock('c', 2)}`), // both leases taken: it waits with the lock
    remove(40, A, lease('a')),
    create(41, C, lease('c')), remove(42, C, `/k-__lock__/${kazooLock('c', 2)}`),
    closeOwn(50, B), // an older server's closeSession (no paths), the client's own
    expire(60, C, [lease('c')]),
  ], '/k'), [
    'hold /k aaa…aa 0x100000001 11-40 released',
    'hold /k bbb…bb 0x100000002 21-50 released',
    'hold /k ccc…cc 0x100000003 41-60 sessionEnded',
  ]);
});

test('a fixed leader node: each version held by its owner from its create to its delete or its session\'s end; one from the snapshot is a bound', async () => {
  const leader = '/app/leader';
  const start = { zxid: 0n, nodes: [{ path: leader, ctime: 5, owner: A, data: Buffer.from('first') }] };
  zxid = 0n;
  const built = await lockHistoryFromLogs(feed([
    remove(10, A, leader),
    create(20, B, leader), expire(30, B, [leader]),
    create(40, C, leader), closeOwn(50, C),
    txn(60, A, { op: 'create', path: leader, data: null, acl, ephemeral: false }), // a persistent node is no leadership
  ]), leader, start);
  assert.deepEqual([...built.history.intervals()].map(shown), [
    'hold /app/leader lea…er 0x100000001 5~-10 released',
    'hold /app/leader lea…er 0x100000002 20-30 sessionEnded',
    'hold /app/leader lea…er 0x100000003 40-50 released',
  ]);
  assert.equal([...built.history.intervals()][0].label, 'first');
  // Below a folder asked about, a node named as the systems name their leader's is one too.
  zxid = 0n;
  assert.deepEqual(await holds([create(10, A, '/kafka/controller'), remove(20, A, '/kafka/controller')], '/kafka'), [
    'hold /kafka/controller con…er 0x100000001 10-20 released',
  ]);
});
