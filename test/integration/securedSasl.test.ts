// SASL DIGEST-MD5 against real ZooKeeper 3.8 servers (JAAS users, optional and enforced): authentication before
// anything else the session sends (queued requests, digest auth packets, watch re-registration), again after a
// restart, AUTHFAILED final with its one line, an enforcing server's -124 without a crash, and TLS + SASL together.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { ZkError } from '../../src/zk/errors';
import { ConnectFailure, SessionOptions, ZkSession } from '../../src/zk/session/session';
import { SASL_USERS, securedServerForSuite } from '../support/servers/securedZkServer';
import { eventually, within } from '../support/waiting';

const alice = { mechanism: 'DIGEST-MD5', username: 'alice', password: SASL_USERS.alice } as const;

function session(connectString: string, extra: Partial<SessionOptions>): ZkSession {
  return new ZkSession({ connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 8000, ...extra });
}

function createWithAcl(s: ZkSession, path: string, data: string, acl: zookeeper.ACL[]): Promise<string> {
  return s.libraryCall<string>('create', path, (cb) => s.client.create(path, Buffer.from(data), acl, zookeeper.CreateMode.PERSISTENT, cb));
}

const onlyAlice = () => [new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id('sasl', 'alice'))];

describe('SASL DIGEST-MD5 on a server that enforces it', () => {
  const suite = securedServerForSuite({ before, after }, { sasl: 'enforced' });

  test('authenticates as alice; whoAmI and the ACL show sasl:alice', async () => {
    const s = session(suite.server.plainAddress, { sasl: alice });
    try {
      await s.open();
      assert.deepEqual(s.security.sasl, { mechanism: 'DIGEST-MD5', identity: 'alice' });
      assert.equal(s.security.tls, undefined);
      assert.ok((await s.whoAmI()).some((id) => id.scheme === 'sasl' && id.user === 'alice'));
      await createWithAcl(s, '/sasl-secret', 'topsecret', onlyAlice());
      assert.equal((await s.getData('/sasl-secret')).data?.toString(), 'topsecret');
      const acl = await s.libraryCall<zookeeper.ACL[]>('getACL', '/sasl-secret', (cb) => s.client.getACL('/sasl-secret', cb));
      // The library's ACL objects carry `permission` at run time (its typings say `perms`).
      const perms = (a: zookeeper.ACL) => (a as unknown as { permission?: number }).permission ?? a.perms;
      assert.deepEqual(acl.map((a) => `${a.id.scheme}:${a.id.id}:${perms(a)}`), ['sasl:alice:31']);
    } finally {
      s.close();
    }
  });

  test('a request queued before the connection exists waits for SASL (the server would close it with -124)', async () => {
    const s = session(suite.server.plainAddress, { sasl: alice, digest: ['carol:carol-pw'] });
    try {
      const opening = s.open();
      // Queued now, before any socket: with it the digest auth packet the library queues at connect time.
      const early = s.getData('/');
      await opening;
      assert.ok((await early).stat);
      const ids = await s.whoAmI();
      assert.ok(ids.some((id) => id.scheme === 'sasl' && id.user === 'alice'), JSON.stringify(ids));
      assert.ok(ids.some((id) => id.scheme === 'digest' && id.user === 'carol'), JSON.stringify(ids));
    } finally {
      s.close();
    }
  });

  test('a wrong password is AUTHFAILED: one line without the password, no more retries', async () => {
    const s = session(suite.server.plainAddress, { sasl: { ...alice, password: 'wrong-password-123' } });
    let connects = 0;
    s.channel.onSecurity(() => { connects++; });
    try {
      await assert.rejects(s.open(), (error: Error) => {
        assert.ok(error instanceof ConnectFailure, String(error));
        assert.equal(error.reason, 'authFailed');
        // An enforcing server answers with -124 where an optional one says -115.
        assert.match(error.message, /SASL DIGEST-MD5 as alice was rejected \(AUTHFAILED, error -124\): wrong user name or password/);
        assert.ok(!error.message.includes('wrong-password-123'));
        return true;
      });
      assert.equal(s.lastSecurityProblem?.includes('AUTHFAILED'), true);
      // The library gave up: its state is final and it opens no new socket.
      const stateAfter = s.client.getState().code;
      assert.equal(stateAfter, zookeeper.State.AUTH_FAILED.code);
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(connects, 1);
    } finally {
      s.close();
    }
  });

  test('an unknown user is AUTHFAILED too', async () => {
    const e = await session(suite.server.plainAddress, { sasl: { mechanism: 'DIGEST-MD5', username: 'mallory', password: 'x' } }).open()
      .then(() => undefined, (error: unknown) => error);
    assert.ok(e instanceof ConnectFailure && e.reason === 'authFailed', String(e));
    assert.match(e.message, /as mallory was rejected \(AUTHFAILED, error -124\)/);
  });

  test('without SASL the server closes the session with -124: the request fails, the session says why, nothing crashes', async () => {
    const s = session(suite.server.plainAddress, {});
    try {
      await s.open();
      // Through the library's own reply path: it used to throw "Unknown code: -124" from its socket handler.
      const write = s.libraryCall<string>('create', '/no-sasl', (cb) => s.client.create('/no-sasl', Buffer.from('x'), zookeeper.CreateMode.PERSISTENT, cb));
      await assert.rejects(write, (error: Error) => error instanceof ZkError && error.code === 'sessionClosedRequireSasl');
      await eventually(() => s.state === 'authFailed', 10000, 'authFailed');
      assert.match(s.lastSecurityProblem ?? '', /requires SASL authentication and closed the session \(error -124\)/);
      // Our own requests see the same code.
      const own = session(suite.server.plainAddress, {});
      try {
        await own.open();
        await assert.rejects(own.getData('/'), (error: Error) => error instanceof ZkError && error.code === 'sessionClosedRequireSasl');
      } finally {
        own.close();
      }
    } finally {
      s.close();
    }
  });

  test('after a server restart SASL runs again before the session is used: the protected node stays readable', async () => {
    const s = session(suite.server.plainAddress, { sasl: alice });
    const authentications: string[] = [];
    s.on('authenticated', (event) => authentications.push(event.identity));
    try {
      await s.open();
      const id = s.sessionId;
      await createWithAcl(s, '/sasl-restart', 'still mine', onlyAlice());
      // A one-shot watch of the library's own: its SetWatches after the reconnect must come after SASL too.
      // The library registers a watch only when its read is answered: wait for that before the restart, or a read
      // still in flight when the server stops leaves nothing to re-register.
      let changedResolve!: () => void;
      const changed = new Promise<void>((resolve) => { changedResolve = resolve; });
      await new Promise<void>((resolve, reject) => s.client.getData('/sasl-restart', () => changedResolve(), (error) => (error ? reject(error) : resolve())));
      const reconnected = new Promise<void>((resolve) => s.once('reconnected', () => resolve()));
      const states: string[] = [];
      s.on('state', (state) => states.push(state));
      const explain = () => `session states: ${states.join(' → ')}; security problem: ${s.lastSecurityProblem ?? 'none'}\nserver log:\n${suite.server.logTail()}`;
      await suite.server.restart();
      await within(reconnected, 40000, 'the session to reconnect after the restart', explain);
      assert.equal(s.sessionId, id);
      assert.deepEqual(authentications, ['alice', 'alice']);
      assert.equal((await s.getData('/sasl-restart')).data?.toString(), 'still mine');
      await s.libraryCall('setData', '/sasl-restart', (cb) => s.client.setData('/sasl-restart', Buffer.from('changed'), -1, cb));
      await within(changed, 10000, "the library's own watch to fire (its SetWatches must follow SASL)", explain);
    } finally {
      s.close();
    }
  });
});

describe('TLS and SASL together (clientAuth=need, SASL optional)', () => {
  const suite = securedServerForSuite({ before, after }, { tls: { keyStore: 'pkcs12', clientAuth: 'need' }, sasl: 'optional' });

  test('the session is TLS and SASL-authenticated; bob cannot read alice\'s node', async () => {
    const tls = { caFile: suite.certs.caCrt, certFile: suite.certs.clientCrt, keyFile: suite.certs.clientKey };
    const s = session(suite.server.tlsAddress, { tls, sasl: alice });
    const bob = session(suite.server.tlsAddress, { tls, sasl: { mechanism: 'DIGEST-MD5', username: 'bob', password: SASL_USERS.bob } });
    try {
      await s.open();
      assert.ok(s.security.tls);
      assert.equal(s.security.sasl?.identity, 'alice');
      const ids = await s.whoAmI();
      assert.ok(ids.some((id) => id.scheme === 'x509') && ids.some((id) => id.scheme === 'sasl' && id.user === 'alice'), JSON.stringify(ids));
      await createWithAcl(s, '/tls-sasl', 'for alice', onlyAlice());
      await bob.open();
      await assert.rejects(bob.getData('/tls-sasl'), (error: Error) => error instanceof ZkError && error.code === 'noAuth');
    } finally {
      s.close();
      bob.close();
    }
  });

  test('a wrong password on a server where SASL is optional is AUTHFAILED (-115), final', async () => {
    const s = session(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, certFile: suite.certs.clientCrt, keyFile: suite.certs.clientKey }, sasl: { ...alice, password: 'nope' } });
    try {
      const e = await s.open().then(() => undefined, (error: unknown) => error);
      assert.ok(e instanceof ConnectFailure && e.reason === 'authFailed', String(e));
      assert.match(e.message, /SASL DIGEST-MD5 as alice was rejected \(AUTHFAILED, error -115\): wrong user name or password/);
      assert.equal(s.client.getState().code, zookeeper.State.AUTH_FAILED.code);
    } finally {
      s.close();
    }
  });
});
