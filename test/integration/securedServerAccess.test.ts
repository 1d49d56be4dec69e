// What ZooScope asks the servers beside the session (the lock-queue panel's watch tables, the Ensemble view, the
// session directory) works on a TLS-only cluster as the session does: four-letter words over TLS on the secure
// client port, the AdminServer over HTTPS only, verified with the session's own CA and
// client certificate; and every answer says which of these was used.
// A TLS session never falls back to plain HTTP (issue 24): a reset TLS connection must not let a forged table in.
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as tls from 'node:tls';
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readTables } from '../../src/zk/analysis/analyze';
import { getEnsembleStatus } from '../../src/zk/servers/ensembleStatus';
import { SessionDirectory } from '../../src/zk/servers/sessionDirectory';
import { ZkSession } from '../../src/zk/session/session';
import { SecuredZkServer, temporaryCertificates } from '../support/servers/securedZkServer';
import { freePort } from '../support/ports';
import type { TestCertificates } from '../support/servers/testCertificates';
import { prepareTls } from '../../src/zk/security/tlsSettings';

/** The SHA-256 fingerprint (`AB:CD:…`) of the first certificate in a PEM file (a key store has its key first). */
function leafFingerprint(pemFile: string): string {
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(fs.readFileSync(pemFile, 'utf8'));
  assert.ok(pem, `no certificate in ${pemFile}`);
  return new X509Certificate(pem[0]).fingerprint256;
}

/**
 * A listener on an admin port that relays TLS to a server with the given PEM key store and records any plain-HTTP request line
 * instead of answering it, so a test can see whether a client fell back to HTTP.
 */
async function adminPortSniffer(pemKeyStore: string) {
  const pem = fs.readFileSync(pemKeyStore);
  const tlsServer = tls.createServer({ key: pem, cert: pem });
  tlsServer.on('tlsClientError', () => undefined);
  const plain: string[] = [];
  let hellos = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', (first: Buffer) => {
      if (first[0] === 0x16) {
        hellos++;
        const relay = net.connect((tlsServer.address() as net.AddressInfo).port, '127.0.0.1');
        sockets.add(relay);
        relay.on('error', () => socket.destroy());
        relay.on('close', () => socket.destroy());
        socket.on('close', () => relay.destroy());
        relay.write(first);
        socket.pipe(relay).pipe(socket);
      } else {
        plain.push(first.toString('latin1').split('\r\n')[0]);
        socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    tlsHellos: () => hellos,
    plainRequests: () => [...plain],
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      tlsServer.close();
      server.close(() => resolve());
    }),
  };
}

function tlsSession(server: SecuredZkServer, c: TestCertificates): ZkSession {
  return new ZkSession({
    connectString: server.tlsAddress, sessionTimeoutMs: 30000, requestTimeoutMs: 8000,
    tls: { caFile: c.caCrt, certFile: c.clientCrt, keyFile: c.clientKey },
  });
}

describe('servers asked beside a TLS session: four-letter words over TLS, the AdminServer over HTTPS', () => {
  let certs: { certificates: TestCertificates; remove(): void };
  let httpsAdmin: SecuredZkServer;
  let httpAdmin: SecuredZkServer;
  let closedPort: number;
  const sessions: ZkSession[] = [];

  before(async () => {
    certs = temporaryCertificates();
    const tls = { keyStore: 'pkcs12', clientAuth: 'need' } as const;
    [httpsAdmin, httpAdmin, closedPort] = await Promise.all([
      SecuredZkServer.start({ certificates: certs.certificates, tls, admin: 'https' }),
      SecuredZkServer.start({ certificates: certs.certificates, tls, admin: 'http' }),
      freePort(),
    ]);
  });
  after(async () => {
    for (const s of sessions) s.close();
    await Promise.all([httpsAdmin?.dispose(), httpAdmin?.dispose()]);
    certs?.remove();
  });

  async function openOn(server: SecuredZkServer): Promise<ZkSession> {
    const s = tlsSession(server, certs.certificates);
    sessions.push(s);
    await s.open();
    return s;
  }

  test('watch tables come from the AdminServer over HTTPS, verified with the session\'s CA and certificate', async () => {
    const s = await openOn(httpsAdmin);
    const [tables] = await readTables(s, { adminPort: httpsAdmin.adminPort });
    assert.equal(tables.via, 'admin', tables.reason);
    assert.equal(tables.secure, true);
    assert.ok(tables.connections?.has(s.sessionId!), `connections: ${[...tables.connections?.keys() ?? []].join(', ')}`);
  });

  test('without an AdminServer the four-letter words go over TLS to the secure client port, and say so', async () => {
    const s = await openOn(httpsAdmin);
    const [tables] = await readTables(s, { adminPort: closedPort });
    assert.equal(tables.via, 'fourLetterWords', tables.reason);
    assert.equal(tables.secure, true);
    assert.deepEqual(tables.refusedWords, []);
    assert.ok(tables.connections?.has(s.sessionId!), `connections: ${[...tables.connections?.keys() ?? []].join(', ')}`);
    assert.ok(tables.monitor?.server_state, 'mntr answered over TLS');
  });

  test('a TLS session never asks a plain-HTTP AdminServer: the tables come from four-letter words over TLS, and say why', async () => {
    const s = await openOn(httpAdmin);
    const [tables] = await readTables(s, { adminPort: httpAdmin.adminPort });
    assert.equal(tables.via, 'fourLetterWords', tables.reason);
    assert.equal(tables.secure, true);
    assert.match(tables.adminReason ?? '', /HTTPS/);
    assert.ok(tables.connections?.has(s.sessionId!), `connections: ${[...tables.connections?.keys() ?? []].join(', ')}`);
  });

  test('an AdminServer whose HTTPS certificate does not verify is a certificate error, never retried over plain HTTP', async () => {
    const admin = await adminPortSniffer(certs.certificates.wrongNamePem);
    try {
      const s = await openOn(httpsAdmin);
      const [tables] = await readTables(s, { adminPort: admin.port });
      assert.equal(tables.via, 'fourLetterWords', tables.reason);
      assert.equal(tables.secure, true);
      assert.match(tables.adminReason ?? '', /certificate error/);
      assert.doesNotMatch(tables.adminReason ?? '', /\n/);
      const [status] = await getEnsembleStatus(httpsAdmin.tlsAddress, { adminPort: admin.port, tls: s.serverTls, timeoutMs: 5000 });
      assert.equal(status.via, 'fourLetterWords', status.error);
      assert.match(status.adminError ?? '', /certificate error/);
      assert.ok(admin.tlsHellos() > 0, 'the AdminServer port was asked over TLS');
      assert.deepEqual(admin.plainRequests(), []);
    } finally {
      await admin.close();
    }
  });

  test('a pinned certificate holds beside the session too: AdminServer and words answer only a pinned server', async () => {
    const c = certs.certificates;
    const pinned = (pin: string) => prepareTls({ caFile: c.caCrt, certFile: c.clientCrt, keyFile: c.clientKey, checkServerName: false, pinnedSha256: [pin] });
    const [matching] = await getEnsembleStatus(httpsAdmin.tlsAddress, { adminPort: httpsAdmin.adminPort, tls: pinned(leafFingerprint(c.serverPem)), timeoutMs: 5000 });
    assert.equal(matching.via, 'admin', matching.error);
    // The CA's own fingerprint: real, and not the server's.
    const pin = leafFingerprint(c.caCrt);
    const [other] = await getEnsembleStatus(httpsAdmin.tlsAddress, { adminPort: httpsAdmin.adminPort, tls: pinned(pin), timeoutMs: 5000 });
    assert.equal(other.reachable, false);
    const mismatch = `its certificate's SHA-256 fingerprint is ${leafFingerprint(c.serverPem)}, not the pinned ${pin}`;
    // The words' error, then the AdminServer's.
    assert.equal(other.error?.split(mismatch).length, 3, other.error);
    assert.match(other.error ?? '', /HTTPS certificate error: .*\(CERT_PIN_MISMATCH\)$/);
  });

  test('the Ensemble view\'s status: AdminServer over HTTPS, else words over TLS; plain words cannot read a TLS port', async () => {
    const s = await openOn(httpsAdmin);
    const [viaAdmin] = await getEnsembleStatus(httpsAdmin.tlsAddress, { adminPort: httpsAdmin.adminPort, tls: s.serverTls, timeoutMs: 5000 });
    assert.equal(viaAdmin.via, 'admin', viaAdmin.error);
    assert.equal(viaAdmin.secure, true);
    assert.equal(viaAdmin.mode, 'standalone');
    const [viaWords] = await getEnsembleStatus(httpsAdmin.tlsAddress, { adminPort: closedPort, tls: s.serverTls, timeoutMs: 5000 });
    assert.equal(viaWords.via, 'fourLetterWords', viaWords.error);
    assert.equal(viaWords.secure, true);
    assert.equal(viaWords.mode, 'standalone');
    // What the words over a plain socket get from the same port: nothing readable.
    const [plain] = await getEnsembleStatus(httpsAdmin.tlsAddress, { adminPort: closedPort, timeoutMs: 5000 });
    assert.equal(plain.via, 'none');
  });

  test('the session directory finds a session\'s client address with `cons` over TLS', async () => {
    const s = await openOn(httpsAdmin);
    const directory = new SessionDirectory(s.parsed.servers, s.serverTls);
    const address = await directory.clientAddress(s.sessionId!);
    assert.match(address ?? '', /^127\.0\.0\.1:\d+$/);
  });
});
