import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ZkSession } from '../../src/zk/session/session';
import {
  digestId, formatAclEntry, formatPermissions, Outcome, parsePermissions, WriteFailure, ZnodeWriter,
} from '../../src/zk/write';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

function failureOf(outcome: Outcome<object>): WriteFailure {
  assert.equal(outcome.ok, false, 'expected a failure');
  return (outcome as { failure: WriteFailure }).failure;
}

function okOf<T extends object>(outcome: Outcome<T>): T {
  if (!outcome.ok) assert.fail(`expected success, got ${JSON.stringify(outcome.failure)}`);
  return outcome;
}

const perms = (letters: string): number => parsePermissions(letters) as number;

describe('ACLs and digest auth against a real ZooKeeper', () => {
  let zk: ZkCluster;
  const sessions: ZkSession[] = [];
  let admin: ZnodeWriter;

  async function writerFor(digest?: string[]): Promise<ZnodeWriter> {
    const session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 10000, digest });
    await session.open();
    sessions.push(session);
    return new ZnodeWriter(session, { readOnly: false });
  }

  before(async () => {
    zk = await startStandalone({ adminServer: false });
    admin = await writerFor(['admin:root-pw']);
  });

  after(async () => {
    for (const s of sessions) s.close();
    await zk?.stop();
  });

  test('getACL returns scheme/id/perms and the Stat; perms print as cdrwa letters', async () => {
    okOf(await admin.create({ path: '/open' }));
    const { acl, stat } = okOf(await admin.getAcl('/open'));
    assert.deepEqual(acl, [{ scheme: 'world', id: 'anyone', perms: 31 }]);
    assert.equal(formatAclEntry(acl[0]), 'world:anyone:cdrwa');
    assert.equal(stat.aversion, 0);
  });

  test('setACL is version-checked with aversion: badVersion is an outcome', async () => {
    okOf(await admin.create({ path: '/versioned' }));
    const first = okOf(await admin.setAcl('/versioned', [{ scheme: 'world', id: 'anyone', perms: perms('rwa') }], 0));
    assert.equal(first.stat.aversion, 1);
    const stale = failureOf(await admin.setAcl('/versioned', [{ scheme: 'world', id: 'anyone', perms: 31 }], 0));
    assert.deepEqual(stale, { code: 'badVersion', operation: 'setACL', path: '/versioned', zkCode: -103 });
    assert.equal(formatPermissions(okOf(await admin.getAcl('/versioned')).acl[0].perms), 'rwa');
  });

  test('requests made while the session is still connecting run with its credentials, not before them', async () => {
    okOf(await admin.create({ path: '/early', data: Buffer.from('for admin only') }));
    okOf(await admin.setAcl('/early', [{ scheme: 'digest', id: digestId('admin', 'root-pw'), perms: 31 }], -1));
    const session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 10000, digest: ['admin:root-pw'] });
    sessions.push(session);
    // Queued at once, before the server has even answered the connect request.
    const opening = session.open();
    const early = [session.whoAmI(), session.getData('/early')] as const;
    await opening;
    const [identities, read] = await Promise.all(early);
    assert.ok(identities.some((id) => id.scheme === 'digest' && id.user === 'admin'), JSON.stringify(identities));
    assert.equal(read.data.toString(), 'for admin only');
  });

  test('noAuth names the operation and the permission it needed, on the node whose ACL decides', async () => {
    okOf(await admin.create({ path: '/locked' }));
    okOf(await admin.create({ path: '/locked/kid' }));
    const adminId = digestId('admin', 'root-pw');
    okOf(await admin.setAcl('/locked', [{ scheme: 'digest', id: adminId, perms: 31 }], -1));
    okOf(await admin.setAcl('/locked/kid', [{ scheme: 'digest', id: adminId, perms: 31 }], -1));
    const stranger = await writerFor();
    const cases: [Outcome<object>, string, string[], string][] = [
      [await stranger.getData('/locked'), 'getData', ['r'], '/locked'],
      [await stranger.setData('/locked', Buffer.from('x'), -1), 'setData', ['w'], '/locked'],
      [await stranger.create({ path: '/locked/new' }), 'create', ['c'], '/locked'],
      [await stranger.delete('/locked/kid', -1), 'delete', ['d'], '/locked'],
      [await stranger.getAcl('/locked'), 'getACL', ['r', 'a'], '/locked'],
      [await stranger.setAcl('/locked', [{ scheme: 'world', id: 'anyone', perms: 31 }], -1), 'setACL', ['a'], '/locked'],
    ];
    for (const [outcome, operation, anyOf, on] of cases) {
      const failure = failureOf(outcome);
      assert.equal(failure.code, 'noAuth', operation);
      assert.equal(failure.operation, operation);
      assert.deepEqual((failure as { needs?: unknown }).needs, { anyOf, on }, operation);
    }
  });

  test('addAuth adds digest credentials to a live session: the identity shows and the writes go through', async () => {
    okOf(await admin.create({ path: '/team' }));
    okOf(await admin.setAcl('/team', [{ scheme: 'digest', id: digestId('carol', 's3cret'), perms: perms('cdrwa') }], -1));
    const carol = await writerFor();
    assert.equal(failureOf(await carol.setData('/team', Buffer.from('x'), -1)).code, 'noAuth');
    const auth = okOf(await carol.addDigestAuth('carol', 's3cret'));
    assert.ok(auth.identities.some((id) => id.scheme === 'digest' && id.user === 'carol'), JSON.stringify(auth.identities));
    okOf(await carol.setData('/team', Buffer.from('x'), -1));
    assert.equal(failureOf(await carol.addDigestAuth('bad:user', 'pw')).code, 'invalidCredentials');
    assert.equal(failureOf(await carol.addDigestAuth('', 'pw')).code, 'invalidCredentials');
  });

  test('a wrong password gives an identity no ACL names: still noAuth, and the session lives on', async () => {
    okOf(await admin.create({ path: '/guarded' }));
    okOf(await admin.setAcl('/guarded', [{ scheme: 'digest', id: digestId('dave', 'right'), perms: perms('rw') }], -1));
    const dave = await writerFor();
    okOf(await dave.addDigestAuth('dave', 'wrong'));
    assert.equal(failureOf(await dave.setData('/guarded', Buffer.from('x'), -1)).code, 'noAuth');
    assert.equal(dave.session.state, 'connected');
    okOf(await dave.addDigestAuth('dave', 'right'));
    okOf(await dave.setData('/guarded', Buffer.from('x'), -1));
    // rw only: creating a child needs c on /guarded.
    const failure = failureOf(await dave.create({ path: '/guarded/child' }));
    assert.deepEqual((failure as { needs?: unknown }).needs, { anyOf: ['c'], on: '/guarded' });
  });

  test('an ACL the server rejects is an invalidAcl outcome; read-only connections refuse setACL', async () => {
    okOf(await admin.create({ path: '/strict' }));
    assert.equal(failureOf(await admin.setAcl('/strict', [{ scheme: 'world', id: 'bob', perms: 31 }], -1)).code, 'invalidAcl');
    assert.equal(failureOf(await admin.setAcl('/strict', [], -1)).code, 'invalidAcl');
    const readOnly = new ZnodeWriter(admin.session, { readOnly: true });
    assert.equal(failureOf(await readOnly.setAcl('/strict', [{ scheme: 'world', id: 'anyone', perms: 1 }], -1)).code, 'readOnly');
    assert.equal(okOf(await admin.getAcl('/strict')).acl[0].perms, 31);
  });
});
