// A saved connection with TLS (client certificate as PKCS#12) and SASL DIGEST-MD5, against a real secured
// ZooKeeper 3.8 started here: the explorer lists it, the status bar says TLS and as whom, the secrets are only in
// secret storage, and a wrong SASL password says so in one line without the password.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import { SASL_USERS, SecuredZkServer, temporaryCertificates } from '../../support/servers/securedZkServer';
import { CLIENT_PFX_PASSPHRASE } from '../../support/servers/testCertificates';
import { getEnsembleStatus } from '../../../src/zk/servers/ensembleStatus';
import { prepareTls } from '../../../src/zk/security/tlsSettings';
import { eventually } from '../../support/clients/zkClient';
import { services } from './zooscope';

const ID = 'host-secured';
const WRONG = 'host-secured-wrong';

describe('Secured connections (TLS + SASL)', function () {
  this.timeout(120000);
  let s: TestApi;
  let server: SecuredZkServer;
  let certificates: ReturnType<typeof temporaryCertificates>;

  before(async () => {
    s = await services();
    certificates = temporaryCertificates();
    server = await SecuredZkServer.start({ tls: { keyStore: 'pkcs12', clientAuth: 'need' }, sasl: 'optional', admin: 'https', certificates: certificates.certificates });
  });

  after(async () => {
    for (const id of [ID, WRONG]) await s.commands.removeConnection(id, true);
    await server?.dispose();
    certificates?.remove();
  });

  it('connects with a client certificate and SASL, shows it in the status bar, keeps secrets out of settings', async () => {
    const certs = certificates.certificates;
    await s.commands.addConnection({
      id: ID, name: 'Host Secured', connectString: server.tlsAddress, adminPort: server.adminPort,
      tls: { caFile: certs.caCrt, pfxFile: certs.clientP12 }, sasl: { mechanism: 'DIGEST-MD5', user: 'alice' },
      tlsPassphrase: CLIENT_PFX_PASSPHRASE, saslPassword: SASL_USERS.alice,
    });
    await eventually(() => s.connections.state(ID) === 'connected', 30000, 'the secured connection');
    const names = (await s.tree.getChildren(s.tree.rootFor(ID))).map((n) => (n && 'name' in n ? n.name : ''));
    assert.ok(names.includes('zookeeper'), `listed: ${names.join(', ')}`);
    const security = s.connections.get(ID)?.session.security;
    assert.strictEqual(security?.sasl?.identity, 'alice');
    assert.ok(security?.tls?.protocol, 'a TLS protocol is reported');
    s.statusBar.setActive(ID);
    await eventually(() => /\$\(lock\) TLS/.test(s.statusBar.text) && /SASL alice/.test(s.statusBar.text), 10000, 'TLS and SASL in the status bar');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('zooscope').get('connections'));
    assert.ok(settings.includes(certs.clientP12), 'files are referenced by path');
    for (const secret of [CLIENT_PFX_PASSPHRASE, SASL_USERS.alice]) assert.ok(!settings.includes(secret), 'no secret in settings');
  });

  it('the Ensemble view asks the secured server over HTTPS with the connection\'s certificate, and says so', async () => {
    // A cold AdminServer's first HTTPS answers can outlast the view's 3 s deadline on a busy machine (the view then
    // falls back to words over TLS, rightly). Wait until the view's own questions are answered over HTTPS in time.
    const tlsSettings = s.connections.get(ID)?.session.options.tls;
    assert.ok(tlsSettings, 'the connection has TLS settings');
    const tls = prepareTls(tlsSettings);
    await eventually(async () => {
      const [status] = await getEnsembleStatus(server.tlsAddress, { adminPort: server.adminPort, tls, timeoutMs: 3000 });
      return status?.via === 'admin' && status.secure === true;
    }, 60000, 'the AdminServer answering over HTTPS');
    await s.ensemble.refresh();
    const root = (await s.ensemble.getChildren()).find((r) => r.kind === 'ensembleConnection' && r.connectionId === ID);
    assert.ok(root, 'the secured connection is in the Ensemble view');
    const [member] = await s.ensemble.getChildren(root);
    assert.ok(member.kind === 'ensembleServer' && member.status.reachable, JSON.stringify(member));
    const readVia = (await s.ensemble.getChildren(member)).map((d) => s.ensemble.getTreeItem(d)).find((item) => item.label === 'Read via');
    assert.strictEqual(readVia?.description, 'AdminServer over HTTPS', JSON.stringify(member));
  });

  it('a lock taken by hand holds on its own lock session, which is TLS and SASL-authenticated too', async () => {
    const path = '/host-secured-lock';
    try {
      await vscode.commands.executeCommand('zooscope.acquireLock', { connectionId: ID, path });
      await eventually(() => s.heldLocks.find(ID, path)?.snapshot.state === 'held', 30000, 'held on the secured connection');
      const [lockSession] = s.heldLocks.sessionIds(ID);
      const browsing = s.connections.get(ID)?.session;
      assert.ok(lockSession && lockSession !== browsing?.sessionId, 'a session of its own');
      const security = s.heldLocks.managers.peek(ID)?.lockSession?.security;
      assert.ok(security?.tls, 'the lock session is TLS');
      assert.strictEqual(security?.sasl?.identity, 'alice');
      const owner = (await browsing!.exists(s.heldLocks.find(ID, path)!.snapshot.node!))?.ephemeralOwner;
      assert.strictEqual(owner !== undefined ? `0x${owner.toString(16)}` : undefined, lockSession);
    } finally {
      await s.heldLocks.releaseAll(ID);
    }
  });

  it('says in one line that SASL refused a wrong password, without the password', async () => {
    const certs = certificates.certificates;
    const from = s.shownFailures.length ? s.shownFailures[s.shownFailures.length - 1].seq : 0;
    await s.commands.addConnection({
      id: WRONG, name: 'Host Secured Wrong', connectString: server.tlsAddress,
      tls: { caFile: certs.caCrt, pfxFile: certs.clientP12 }, sasl: { mechanism: 'DIGEST-MD5', user: 'alice' },
      tlsPassphrase: CLIENT_PFX_PASSPHRASE, saslPassword: 'not-alice-pw',
    });
    await eventually(() => s.shownFailures.some((m) => m.seq > from), 30000, 'a failure message');
    const message = s.shownFailures.filter((m) => m.seq > from).map((m) => m.message).join('\n');
    assert.match(message, /Host Secured Wrong/);
    assert.ok(!message.includes('not-alice-pw'), message);
    assert.ok(!message.includes('\n'), `one line: ${message}`);
    assert.notStrictEqual(s.connections.state(WRONG), 'connected');
  });
});
