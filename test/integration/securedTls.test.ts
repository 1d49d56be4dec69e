// TLS against real ZooKeeper 3.8 servers (Netty, certificates made by openssl at test time): client certificates
// as PEM and PKCS#12, every failure as its exact one line, a new verified handshake after a server restart, TLS 1.3,
// a unified port, and the server name check with its switch.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as zookeeper from 'node-zookeeper-client';
import { ConnectFailure, SessionOptions, ZkSession } from '../../src/zk/session/session';
import type { SecurityEvent } from '../../src/zk/protocol/rawChannel';
import { securedServerForSuite } from '../support/servers/securedZkServer';
import { within } from '../support/waiting';
import { CLIENT_PFX_PASSPHRASE } from '../support/servers/testCertificates';
import { NAME_CHECK_OFF_NEEDS_TRUST } from '../../src/zk/security/tlsSettings';

/** The SHA-256 fingerprint (`AB:CD:…`) of the first certificate in a PEM file (a key store has its key first). */
function leafFingerprint(pemFile: string): string {
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(fs.readFileSync(pemFile, 'utf8'));
  assert.ok(pem, `no certificate in ${pemFile}`);
  return new X509Certificate(pem[0]).fingerprint256;
}

function session(connectString: string, extra: Partial<SessionOptions>): ZkSession {
  return new ZkSession({ connectString, sessionTimeoutMs: 8000, requestTimeoutMs: 8000, ...extra });
}

/** Opens a session that must fail, and returns its ConnectFailure. */
async function failure(connectString: string, extra: Partial<SessionOptions>): Promise<ConnectFailure> {
  const s = session(connectString, extra);
  try {
    await s.open();
  } catch (error) {
    assert.ok(error instanceof ConnectFailure, String(error));
    return error;
  } finally {
    s.close();
  }
  assert.fail('the session connected');
}

function create(s: ZkSession, path: string, data: string): Promise<string> {
  return s.libraryCall<string>('create', path, (cb) => s.client.create(path, Buffer.from(data), zookeeper.CreateMode.PERSISTENT, cb));
}

describe('TLS with client certificates (clientAuth=need, PKCS#12 key store)', () => {
  const suite = securedServerForSuite({ before, after }, { tls: { keyStore: 'pkcs12', clientAuth: 'need' } });

  test('a PEM client certificate connects; the session reports TLS and the server knows us as x509', async () => {
    const s = session(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, certFile: suite.certs.clientCrt, keyFile: suite.certs.clientKey } });
    try {
      await s.open();
      const tls = s.security.tls;
      assert.ok(tls, 'TLS facts');
      assert.match(tls.protocol, /^TLSv1\.[23]$/);
      assert.equal(tls.serverNameChecked, true);
      assert.match(tls.peerSubject ?? '', /CN=localhost/);
      await create(s, '/tls-pem', 'over tls');
      assert.equal((await s.getData('/tls-pem')).data?.toString(), 'over tls');
      const ids = await s.whoAmI();
      assert.ok(ids.some((id) => id.scheme === 'x509' && id.user === 'CN=zk-client'), JSON.stringify(ids));
    } finally {
      s.close();
    }
  });

  test('a PKCS#12 client certificate with its passphrase connects', async () => {
    const s = session(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, pfxFile: suite.certs.clientP12, passphrase: CLIENT_PFX_PASSPHRASE } });
    try {
      await s.open();
      assert.ok(s.security.tls);
      assert.ok((await s.exists('/')) !== undefined);
    } finally {
      s.close();
    }
  });

  test('a wrong PKCS#12 passphrase is a configuration error that does not show the passphrase', () => {
    assert.throws(
      () => session(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, pfxFile: suite.certs.clientP12, passphrase: 'not-the-passphrase' } }),
      (error: Error) => {
        assert.ok(error instanceof ConnectFailure && error.reason === 'invalid', error.message);
        assert.match(error.message, /TLS: cannot use the PKCS#12 file/);
        assert.ok(!error.message.includes('not-the-passphrase'));
        return true;
      },
    );
  });

  test('unknown CA: the server certificate is not signed by the CA given', async () => {
    const e = await failure(suite.server.tlsAddress, { tls: { caFile: suite.certs.otherCaCrt, certFile: suite.certs.clientCrt, keyFile: suite.certs.clientKey } });
    assert.equal(e.reason, 'security');
    assert.match(e.message, new RegExp(`TLS with ${suite.server.tlsAddress} failed: its certificate is signed by an unknown CA \\(SELF_SIGNED_CERT_IN_CHAIN\\); give the CA that signed it`));
  });

  test('no client certificate, against a server that requires one', async () => {
    const e = await failure(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt } });
    assert.equal(e.reason, 'security');
    assert.match(e.message, new RegExp(`TLS with ${suite.server.tlsAddress} failed: the server requires a client certificate and none was given \\(ERR_SSL_`));
  });

  test('a client certificate from a CA the server does not trust is rejected', async () => {
    const e = await failure(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, certFile: suite.certs.otherClientCrt, keyFile: suite.certs.otherClientKey } });
    assert.equal(e.reason, 'security');
    assert.match(e.message, new RegExp(`TLS with ${suite.server.tlsAddress} failed: the server rejected our client certificate \\(ERR_SSL_`));
  });

  test('TLS to a plain port says it is a plain port', async () => {
    const e = await failure(suite.server.plainAddress, { tls: { caFile: suite.certs.caCrt, certFile: suite.certs.clientCrt, keyFile: suite.certs.clientKey } });
    assert.equal(e.reason, 'security');
    assert.match(e.message, new RegExp(`TLS with ${suite.server.plainAddress} failed: it is a plain \\(non-TLS\\) ZooKeeper port`));
  });

  test('plain to a TLS port says it is a TLS port instead of retrying silently', async () => {
    const e = await failure(suite.server.tlsAddress, {});
    assert.equal(e.reason, 'security');
    assert.match(e.message, new RegExp(`${suite.server.tlsAddress} is a TLS port: the server closes plain connections; connect with TLS`));
  });

  test('after a server restart the same session reconnects with a new, verified handshake', async () => {
    const s = session(suite.server.tlsAddress, { sessionTimeoutMs: 30000, tls: { caFile: suite.certs.caCrt, certFile: suite.certs.clientCrt, keyFile: suite.certs.clientKey } });
    const handshakes: SecurityEvent[] = [];
    s.channel.onSecurity((event) => { if (event.kind === 'tlsSecured') handshakes.push(event); });
    try {
      await s.open();
      const id = s.sessionId;
      await create(s, '/tls-restart', 'kept');
      const reconnected = new Promise<void>((resolve) => s.once('reconnected', () => resolve()));
      await suite.server.restart();
      await within(reconnected, 40000, 'the session to reconnect after the restart', () => `state ${s.state}; security problem: ${s.lastSecurityProblem ?? 'none'}\nserver log:\n${suite.server.logTail()}`);
      assert.equal(s.sessionId, id);
      assert.ok(handshakes.length >= 2, `handshakes: ${handshakes.length}`);
      assert.equal((await s.getData('/tls-restart')).data?.toString(), 'kept');
    } finally {
      s.close();
    }
  });
});

describe('TLS 1.3 only, PEM key store, no client certificate required, a certificate for another name', () => {
  const suite = securedServerForSuite({ before, after }, { tls: { keyStore: 'wrongNamePem', clientAuth: 'none', tls13Only: true } });

  test('host name mismatch is said in one line', async () => {
    const e = await failure(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt } });
    assert.equal(e.reason, 'security');
    assert.match(e.message, new RegExp(`TLS with ${suite.server.tlsAddress} failed: its certificate is not valid for the name 127\\.0\\.0\\.1 \\(ERR_TLS_CERT_ALTNAME_INVALID\\)`));
  });

  test('with the server name check turned off the same server is accepted, over TLS 1.3', async () => {
    const s = session(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, checkServerName: false } });
    try {
      await s.open();
      assert.equal(s.security.tls?.protocol, 'TLSv1.3');
      assert.equal(s.security.tls?.serverNameChecked, false);
    } finally {
      s.close();
    }
  });

  test('the system CAs do not know the test CA, pinned certificate or not', async () => {
    const unknownCa = /its certificate is signed by an unknown CA \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)/;
    assert.match((await failure(suite.server.tlsAddress, { tls: {} })).message, unknownCa);
    // A pin narrows what the CA accepts; it makes no CA trusted.
    const pin = leafFingerprint(suite.certs.wrongNamePem);
    assert.match((await failure(suite.server.tlsAddress, { tls: { checkServerName: false, pinnedSha256: [pin] } })).message, unknownCa);
  });

  test('the name check cannot go off with the system CAs alone: refused before any connection', () => {
    assert.throws(() => session(suite.server.tlsAddress, { tls: { checkServerName: false } }),
      (e: Error) => e instanceof ConnectFailure && e.reason === 'invalid' && e.message.includes(NAME_CHECK_OFF_NEEDS_TRUST));
  });

  test('with the name check off, the pinned certificate connects (colons and case as the user wrote them)', async () => {
    const pin = leafFingerprint(suite.certs.wrongNamePem).replace(/:/g, '').toLowerCase();
    const s = session(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, checkServerName: false, pinnedSha256: [pin] } });
    try {
      await s.open();
      assert.equal(s.security.tls?.serverNameChecked, false);
      assert.equal(await create(s, '/pinned', 'x'), '/pinned');
    } finally {
      s.close();
    }
  });

  test('a certificate other than the pinned one is refused in one line naming both fingerprints', async () => {
    // The CA's own certificate: a fingerprint that is real, and not the server's.
    const pin = leafFingerprint(suite.certs.caCrt);
    const e = await failure(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, checkServerName: false, pinnedSha256: [pin] } });
    assert.equal(e.reason, 'security');
    const line = `TLS with ${suite.server.tlsAddress} failed: its certificate's SHA-256 fingerprint is ${leafFingerprint(suite.certs.wrongNamePem)}, not the pinned ${pin} (CERT_PIN_MISMATCH)`;
    assert.ok(e.message.includes(line), e.message);
    assert.ok(!e.message.includes('\n'), e.message);
  });

  test('a client that requires TLS 1.3 connects', async () => {
    const s = session(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, checkServerName: false, minVersion: 'TLSv1.3' } });
    try {
      await s.open();
      assert.equal(s.security.tls?.protocol, 'TLSv1.3');
    } finally {
      s.close();
    }
  });
});

describe('TLS on a unified port (plain and TLS clients on one port)', () => {
  const suite = securedServerForSuite({ before, after }, { tls: { keyStore: 'pem', clientAuth: 'need', unified: true } });

  test('a TLS session and a plain session share the port; only the TLS one is known by certificate', async () => {
    const secured = session(suite.server.tlsAddress, { tls: { caFile: suite.certs.caCrt, certFile: suite.certs.clientCrt, keyFile: suite.certs.clientKey } });
    const plain = session(suite.server.plainAddress, {});
    try {
      await secured.open();
      await plain.open();
      assert.ok(secured.security.tls);
      assert.equal(plain.security.tls, undefined);
      assert.ok((await secured.whoAmI()).some((id) => id.scheme === 'x509'));
      assert.ok(!(await plain.whoAmI()).some((id) => id.scheme === 'x509'));
    } finally {
      secured.close();
      plain.close();
    }
  });
});
