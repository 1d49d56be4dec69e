// Naming, ordering and waiting rules of each lock convention ZooScope joins, and convention detection, on name lists.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chooseConvention, convention, detectConvention } from '../../src/zk/locks';

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = 'ffffffff-ffff-4fff-8fff-ffffffffffff';
const H1 = '0'.repeat(32);
const H2 = 'f'.repeat(32);
const identity = { guid: U1, sessionId: 0xff00000000000001n };
const names = (q: { name: string }[]) => q.map((c) => c.name);

describe('lock conventions', () => {
  test('plain: ordered by sequence number, not by name; writers wait for the nearest node, readers for the nearest writer', () => {
    const plain = convention('plain');
    assert.equal(plain.prefix('exclusive', identity), `${U1.replace(/-/g, '')}-lock-`);
    assert.equal(plain.prefix('read', identity), `${U1.replace(/-/g, '')}-read-`);
    const q = plain.order([`zz-write-0000000003`, `aa-read-0000000002`, 'read-0000000004', 'lock-0000000001', 'other']);
    assert.deepEqual(names(q), ['lock-0000000001', 'aa-read-0000000002', 'zz-write-0000000003', 'read-0000000004']);
    assert.equal(plain.blocker(q, 0), undefined);
    assert.equal(plain.blocker(q, 1)?.name, 'lock-0000000001');
    assert.equal(plain.blocker(q, 2)?.name, 'aa-read-0000000002');
    assert.equal(plain.blocker(q, 3)?.name, 'zz-write-0000000003');
    assert.equal(plain.isOwn(`${U1.replace(/-/g, '')}-lock-0000000007`, identity), true);
    assert.equal(plain.isOwn(`${H2}-lock-0000000007`, identity), false);
  });

  test('Curator: every child counts, sorted by the text after the last marker; a reader waits for the FIRST write', () => {
    const mutex = convention('curator-mutex');
    assert.equal(mutex.prefix('exclusive', identity), `_c_${U1}-lock-`);
    const q = mutex.order([`_c_${U1}-lock-0000000002`, `_c_${U2}-lock-0000000001`]);
    assert.deepEqual(names(q), [`_c_${U2}-lock-0000000001`, `_c_${U1}-lock-0000000002`], 'by number, although U2 > U1');
    assert.equal(mutex.blocker(q, 1)?.name, `_c_${U2}-lock-0000000001`);
    const rw = convention('curator-rwlock');
    assert.equal(rw.roleFor('exclusive'), 'write', 'an exclusive lock on a rw queue is its write lock');
    assert.equal(rw.roleFor('read'), 'read');
    assert.equal(convention('curator-mutex').roleFor('read'), undefined);
    const r = rw.order([`_c_${U1}-__READ__0000000004`, `_c_${U2}-__WRIT__0000000002`, `_c_${U1}-__WRIT__0000000003`, `_c_${U2}-__READ__0000000001`]);
    assert.deepEqual(r.map((c) => c.role), ['read', 'write', 'write', 'read']);
    assert.equal(rw.blocker(r, 0), undefined);
    assert.equal(rw.blocker(r, 3)?.name, `_c_${U2}-__WRIT__0000000002`, 'the first write node, not the nearest');
    assert.equal(rw.blocker(r, 2)?.name, `_c_${U2}-__WRIT__0000000002`);
    assert.equal(convention('curator-latch').prefix('exclusive', identity), `_c_${U1}-latch-`);
  });

  test('kazoo: only its markers count, sorted by the digits; readers wait for the nearest earlier __lock__', () => {
    const kazoo = convention('kazoo');
    assert.equal(kazoo.prefix('write', identity), `${U1.replace(/-/g, '')}__lock__`);
    assert.equal(kazoo.prefix('read', identity), `${U1.replace(/-/g, '')}__rlock__`);
    const q = kazoo.order([`${H2}__lock__0000000001`, `${H1}__rlock__0000000003`, 'lock-0000000000', `${H1}__lock__0000000002`, `${H2}__rlock__0000000004`]);
    assert.deepEqual(names(q), [`${H2}__lock__0000000001`, `${H1}__lock__0000000002`, `${H1}__rlock__0000000003`, `${H2}__rlock__0000000004`]);
    assert.equal(kazoo.blocker(q, 2)?.name, `${H1}__lock__0000000002`);
    assert.equal(kazoo.blocker(q, 3)?.name, `${H1}__lock__0000000002`, 'readers share');
    const w = kazoo.order([...names(q), `${H1}__lock__0000000005`]);
    assert.equal(kazoo.blocker(w, 4)?.name, `${H2}__rlock__0000000004`, 'our writer waits for readers too');
  });

  test("ZooKeeper's recipes: WriteLock names by the session id in signed decimal; elections by n_ numbers", () => {
    const wl = convention('zk-write-lock');
    assert.equal(wl.prefix('exclusive', identity), `x-${BigInt.asIntN(64, identity.sessionId)}-`);
    assert.ok(wl.prefix('exclusive', identity).startsWith('x--'), 'negative for a high session id, as Java prints a long');
    const q = wl.order(['x-5-0000000010', 'x-7-0000000002']);
    assert.deepEqual(names(q), ['x-7-0000000002', 'x-5-0000000010']);
    assert.equal(wl.isOwn(`x-${BigInt.asIntN(64, identity.sessionId)}-0000000001`, identity), true);
    const el = convention('zk-election');
    assert.deepEqual(names(el.order(['n_0000000003', 'n_0000000001', 'foo'])), ['n_0000000001', 'n_0000000003']);
    assert.equal(el.isOwn('n_0000000001', identity), undefined, 'no name of ours: owner check');
    assert.equal(el.roleFor('exclusive'), undefined);
  });

  test('detection: empty, recognised, mixed, unknown; the choice joins only recognised or empty queues unless forced', () => {
    assert.deepEqual(detectConvention([]), { status: 'empty', others: 0 });
    assert.deepEqual(detectConvention(['config']), { status: 'empty', others: 1 });
    assert.deepEqual(detectConvention([`_c_${U1}-lock-0000000001`, `_c_${U2}-lock-0000000002`]),
      { status: 'recognised', convention: 'curator-mutex', contenders: 2, others: 0 });
    assert.equal((detectConvention([`_c_${U1}-__READ__0000000001`]) as { convention: string }).convention, 'curator-rwlock');
    assert.equal((detectConvention([`${H1}__rlock__0000000001`]) as { convention: string }).convention, 'kazoo');
    assert.equal((detectConvention(['x-123-0000000001']) as { convention: string }).convention, 'zk-write-lock');
    assert.equal((detectConvention(['n_0000000001']) as { convention: string }).convention, 'zk-election');
    assert.equal((detectConvention([`${H1}-lock-0000000001`]) as { convention: string }).convention, 'plain');
    assert.deepEqual(detectConvention([`_c_${U1}-lock-0000000001`, `${H1}__lock__0000000002`]),
      { status: 'mixed', conventions: ['curator-mutex', 'kazoo'], unrecognised: [] });
    assert.deepEqual(detectConvention(['job-0000000001']), { status: 'unknown', unrecognised: ['job-0000000001'] });
    assert.equal(chooseConvention(['job-0000000001']).ok, false);
    assert.deepEqual(chooseConvention(['job-0000000001'], 'plain').ok, true);
    assert.deepEqual(chooseConvention([]), { ok: true, convention: 'plain', detection: { status: 'empty', others: 0 } });
  });
});
