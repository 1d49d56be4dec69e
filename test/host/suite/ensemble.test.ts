// The Ensemble view inside a real VS Code against a real ZooKeeper: one element per server with mode, version,
// latency and counts, read from the servers; a timer only while the view is visible.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { EnsembleNode } from '../../../src/vscode/ensemble/ensembleItems';
import type { TestApi } from '../../../src/vscode/testApi';
import { eventually } from '../../support/clients/zkClient';
import { services, testZk } from './zooscope';

const ID = 'host-ensemble';

describe('Ensemble view', function () {
  let s: TestApi;

  before(async () => {
    s = await services();
    await s.commands.addConnection({ id: ID, name: 'Host Ensemble', connectString: testZk() });
  });

  after(async () => {
    await s.commands.removeConnection(ID, true);
  });

  const itemOf = (node: EnsembleNode) => s.ensemble.getTreeItem(node);

  it('lists each saved connection with one element per server and its figures', async () => {
    const roots = await s.ensemble.getChildren();
    const root = roots.find((r) => r.kind === 'ensembleConnection' && r.connectionId === ID);
    assert.ok(root, 'the connection is a root of the Ensemble view');
    assert.strictEqual(itemOf(root).label, 'Host Ensemble');
    const servers = await s.ensemble.getChildren(root);
    const expected = testZk().split(',').map((a) => a.trim());
    assert.deepStrictEqual(servers.map((n) => (n.kind === 'ensembleServer' ? n.status.address : n.kind)), expected);
    const server = servers[0];
    assert.ok(server.kind === 'ensembleServer');
    assert.strictEqual(server.status.reachable, true, server.status.error);
    assert.match(String(server.status.mode), /standalone|leader|follower/);
    assert.match(String(server.status.version), /^3\.\d+\.\d+/);
    const item = itemOf(server);
    assert.match(String(item.description), /standalone|leader|follower/);
    assert.match(String(item.description), /3\.\d+\.\d+/);
    const details = await s.ensemble.getChildren(server);
    const labels = details.map((d) => String(itemOf(d).label));
    for (const label of ['Mode', 'Version', 'Latency min/avg/max', 'Connections', 'Znodes', 'Watches', 'Read via']) {
      assert.ok(labels.includes(label), `${label} missing from ${labels.join(', ')}`);
    }
    // A plain server is read unencrypted, and the view says so.
    const readVia = details.find((d) => itemOf(d).label === 'Read via');
    assert.match(String(readVia && itemOf(readVia).description), /^(AdminServer over HTTP|four-letter words, unencrypted)$/);
    const znodes = details.find((d) => itemOf(d).label === 'Znodes');
    assert.match(String(znodes && itemOf(znodes).description), /^\d+$/);
  });

  it('says where each member comes from: the connect string (a standalone server keeps no /zookeeper/config)', async () => {
    await vscode.commands.executeCommand('zooscope.connect', ID);
    await s.ensemble.refresh();
    const root = (await s.ensemble.getChildren()).find((r) => r.kind === 'ensembleConnection' && r.connectionId === ID);
    assert.ok(root);
    const servers = await s.ensemble.getChildren(root);
    assert.deepStrictEqual(servers.map((n) => n.kind), testZk().split(',').map(() => 'ensembleServer'), 'nothing beyond the connect string, nothing unaskable');
    const details = await s.ensemble.getChildren(servers[0]);
    const listed = details.find((d) => itemOf(d).label === 'Listed in');
    assert.strictEqual(listed && itemOf(listed).description, 'the connect string');
  });

  it('refreshes on a timer only while the view is visible', async () => {
    await vscode.commands.executeCommand('zooscope.ensemble.focus');
    await eventually(() => s.ensembleView.visible && s.ensemble.polling, 10000, 'polling while visible');
    await vscode.commands.executeCommand('workbench.view.explorer');
    await eventually(() => !s.ensembleView.visible && !s.ensemble.polling, 10000, 'no timer while hidden');
    const count = s.ensemble.refreshCount;
    await new Promise((r) => setTimeout(r, 1500));
    assert.strictEqual(s.ensemble.refreshCount, count, 'no refresh while hidden');
  });

  it('"Refresh Ensemble" asks the servers again', async () => {
    const count = s.ensemble.refreshCount;
    await vscode.commands.executeCommand('zooscope.refreshEnsemble');
    assert.strictEqual(s.ensemble.refreshCount, count + 1);
  });
});

describe('Ensemble view items', () => {
  it('explain servers that refuse four-letter words, and unreachable servers', async () => {
    const { EnsembleConnectionNode, EnsembleServerNode, details, serverItem } = await import('../../../src/vscode/ensemble/ensembleItems');
    const root = new EnsembleConnectionNode('x');
    const refusing = new EnsembleServerNode(root, { address: 'zk1:2181', reachable: true, mode: 'follower', version: '3.8.0', via: 'fourLetterWords', refusedWords: ['mntr', 'wchs'] });
    const note = details(refusing).find((d) => d.label === 'Refused four-letter words');
    assert.ok(note, 'a note on refused words');
    assert.match(note.value, /mntr, wchs/);
    assert.match(note.value, /4lw\.commands\.whitelist/);
    const down = new EnsembleServerNode(root, { address: 'zk2:2181', reachable: false, error: 'connect ECONNREFUSED', via: 'none' });
    assert.strictEqual(serverItem(down).description, 'unreachable');
    assert.ok(details(down).some((d) => d.label === 'Error' && d.value.includes('ECONNREFUSED')));
  });
});
