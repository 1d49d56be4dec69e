// Sessions from the logs: an end by the server (cxid 0) is an expiry, a client's own close is not; without the close's
// own list (servers before 3.6), the ephemerals its end removed are those it created and nobody deleted.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SessionBook } from '../../src/zk/serverLogs/sessionHistory';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';

const txn = (zxid: bigint, session: bigint, cxid: number, record: Txn['record']): Txn => ({ zxid, session, cxid, time: Number(zxid) * 1000, type: 0, record });
const open = [{ perms: 31, scheme: 'world', id: 'anyone' }];
const create = (path: string, ephemeral: boolean): Txn['record'] => ({ op: 'create', path, data: null, acl: open, ephemeral, parentCVersion: 1 });

test('an expired session, a closed one, and one that began before the logs', () => {
  const book = new SessionBook();
  book.take(txn(1n, 0xan, 0, { op: 'createSession', timeout: 4000 }));
  book.take(txn(2n, 0xan, 1, create('/e1', true)));
  book.take(txn(3n, 0xan, 2, create('/e2', true)));
  book.take(txn(4n, 0xbn, 7, { op: 'delete', path: '/e2' }));
  book.take(txn(5n, 0xbn, 8, { op: 'multi', parts: [create('/m', false), { op: 'error', err: -110 }] }));
  book.take(txn(6n, 0xan, 0, { op: 'closeSession' }));
  book.take(txn(7n, 0xbn, 9, { op: 'closeSession', paths: [] }));
  const [a, b] = book.summaries();
  assert.deepEqual({ began: a.began, timeoutMs: a.timeoutMs, end: a.end, ended: a.ended, created: a.created, gone: a.ephemeralsAtEnd }, { began: 1000, timeoutMs: 4000, end: 'expired', ended: 6000, created: 2, gone: ['/e1'] });
  assert.deepEqual({ began: b.began, end: b.end, deleted: b.deleted, failed: b.failed, created: b.created }, { began: undefined, end: 'closed', deleted: 1, failed: 1, created: 0 });
});
