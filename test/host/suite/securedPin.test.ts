// A saved connection's pinned server certificate, against a real TLS server whose certificate names another host:
// with the name check off, the pin (saved as `pinnedSha256`) lets it connect; without a CA file or a pin, the
// connection is refused in one line before any connection is made.
import * as assert from 'node:assert';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import type { TestApi } from '../../../src/vscode/testApi';
import { NAME_CHECK_OFF_NEEDS_TRUST } from '../../../src/zk/security/tlsSettings';
import { SecuredZkServer, temporaryCertificates } from '../../support/servers/securedZkServer';
import { eventually } from '../../support/clients/zkClient';
import { services } from './zooscope';

const PINNED = 'host-pinned';
const UNPINNED = 'host-unpinned';

/** The SHA-256 fingerprint (`AB:CD:…`) of the first certificate in a PEM file (a key store has its key first). */
function leafFingerprint(pemFile: string): string {
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(fs.readFileSync(pemFile, 'utf8'));
  assert.ok(pem, `no certificate in ${pemFile}`);
  return new X509Certificate(pem[0]).fingerprint256;
}

describe('Pinned server certificates (TLS, name check off)', function () {
  this.timeout(120000);
  let s: TestApi;
  let server: SecuredZkServer;
  let certificates: ReturnType<typeof temporaryCertificates>;

  before(async () => {
    s = await services();
    certificates = temporaryCertificates();
    server = await SecuredZkServer.start({ tls: { keyStore: 'wrongNamePem', clientAuth: 'none' }, certificates: certificates.certificates });
  });

  after(async () => {
    for (const id of [PINNED, UNPINNED]) await s.commands.removeConnection(id, true);
    await server?.dispose();
    certificates?.remove();
  });

  it('connects to the pinned certificate, whatever name it carries', async () => {
    const certs = certificates.certificates;
    await s.commands.addConnection({
      id: PINNED, name: 'Host Pinned', connectString: server.tlsAddress,
      tls: { caFile: certs.caCrt, checkServerName: false, pinnedSha256: [leafFingerprint(certs.wrongNamePem).replace(/:/g, '')] },
    });
    await eventually(() => s.connections.state(PINNED) === 'connected', 30000, 'the pinned connection');
    assert.strictEqual(s.connections.get(PINNED)?.session.security.tls?.serverNameChecked, false);
  });

  it('refuses the name check off without a CA file or a pin, in one line', async () => {
    const from = s.shownFailures.length ? s.shownFailures[s.shownFailures.length - 1].seq : 0;
    await s.commands.addConnection({
      id: UNPINNED, name: 'Host Unpinned', connectString: server.tlsAddress, tls: { checkServerName: false },
    });
    await eventually(() => s.shownFailures.some((m) => m.seq > from), 30000, 'a failure message');
    const message = s.shownFailures.filter((m) => m.seq > from).map((m) => m.message).join('\n');
    assert.ok(message.includes(NAME_CHECK_OFF_NEEDS_TRUST), message);
    assert.ok(!message.includes('\n'), `one line: ${message}`);
    assert.notStrictEqual(s.connections.state(UNPINNED), 'connected');
  });
});
