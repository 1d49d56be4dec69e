// Add Credentials… offers SASL beside digest: on a real ZooKeeper 3.8 with SASL DIGEST-MD5 enabled, a SASL user is
// saved with the connection (the password only in secret storage) and the connection reconnects authenticated; a
// wrong password changes nothing: the connection is back on its previous settings, said in one line.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import * as zookeeper from 'node-zookeeper-client';
import type { TestApi } from '../../../src/vscode/testApi';
import { SASL_USERS, securedServerForSuite } from '../../support/servers/securedZkServer';
import { eventually } from '../../support/clients/zkClient';
import { services } from './zooscope';

const ID = 'host-sasl-credentials';

describe('Add Credentials with SASL', function () {
  this.timeout(120000);
  let s: TestApi;
  const suite = securedServerForSuite({ before, after }, { sasl: 'optional' });

  before(async () => {
    s = await services();
    await s.commands.addConnection({ id: ID, name: 'Host SASL Credentials', connectString: suite.server.plainAddress });
    await eventually(() => s.connections.state(ID) === 'connected', 30000, 'the plain connection');
  });

  after(async () => {
    await s.commands.removeConnection(ID, true);
  });

  it('a SASL user is saved with the connection, which reconnects authenticated as that user', async () => {
    assert.strictEqual(s.connections.get(ID)?.session.security.sasl, undefined, 'not SASL-authenticated before');
    const identities = await s.commands.addCredentials(ID, { scheme: 'sasl', user: 'alice', password: SASL_USERS.alice });
    assert.ok(identities?.includes('sasl:alice'), JSON.stringify(identities));
    assert.strictEqual(s.connections.state(ID), 'connected');
    assert.deepStrictEqual(s.connections.get(ID)?.session.security.sasl, { mechanism: 'DIGEST-MD5', identity: 'alice' });
    assert.deepStrictEqual(s.store.get(ID)?.sasl, { mechanism: 'DIGEST-MD5', user: 'alice' });
    const settings = JSON.stringify(vscode.workspace.getConfiguration('zooscope').get('connections'));
    assert.ok(!settings.includes(SASL_USERS.alice), 'no password in settings');
    assert.strictEqual(await s.store.secret(ID, 'saslPassword'), SASL_USERS.alice);
  });

  it('a wrong SASL password loses nothing: tried on a session of its own first, the connection is never dropped; one line without the password', async () => {
    const from = s.shownMessages.at(-1)?.seq ?? 0;
    const sessionBefore = s.connections.get(ID)?.session.sessionId;
    const identities = await s.commands.addCredentials(ID, { scheme: 'sasl', user: 'bob', password: 'not-bobs-password' });
    assert.strictEqual(identities, undefined);
    assert.deepStrictEqual(s.store.get(ID)?.sasl, { mechanism: 'DIGEST-MD5', user: 'alice' }, 'the previous SASL user is back');
    assert.strictEqual(await s.store.secret(ID, 'saslPassword'), SASL_USERS.alice);
    assert.strictEqual(s.connections.state(ID), 'connected');
    assert.strictEqual(s.connections.get(ID)?.session.sessionId, sessionBefore, 'the same session, never dropped');
    assert.strictEqual(s.connections.get(ID)?.session.security.sasl?.identity, 'alice');
    const shown = s.shownMessages.filter((m) => m.seq > from).map((m) => m.message);
    assert.ok(shown.some((m) => /was not changed: SASL as "bob" did not succeed/.test(m)), shown.join('\n'));
    for (const m of shown) {
      assert.ok(!m.includes('not-bobs-password'), m);
      assert.ok(!m.includes('\n'), `one line: ${m}`);
    }
  });

  it('a session that owns ephemeral nodes is not closed for SASL unless the user agrees to lose them', async () => {
    const session = s.connections.get(ID)!.session;
    const node = '/sasl-credentials-ephemeral';
    await session.libraryCall('create', node, (cb) => session.client.create(node, Buffer.from('mine'), zookeeper.CreateMode.EPHEMERAL, cb));
    const declined = await s.commands.addCredentials(ID,
      { scheme: 'sasl', user: 'bob', password: SASL_USERS.bob, confirmed: false });
    assert.strictEqual(declined, undefined);
    assert.strictEqual(s.connections.get(ID)?.session.sessionId, session.sessionId, 'the same session');
    assert.ok(await session.exists(node), 'its ephemeral node is still there');
    assert.deepStrictEqual(s.store.get(ID)?.sasl, { mechanism: 'DIGEST-MD5', user: 'alice' });
    const agreed = await s.commands.addCredentials(ID,
      { scheme: 'sasl', user: 'bob', password: SASL_USERS.bob, confirmed: true });
    assert.ok(agreed?.includes('sasl:bob'), JSON.stringify(agreed));
    assert.strictEqual(await s.connections.get(ID)!.session.exists(node), undefined, 'gone with the old session, as agreed');
  });
});
