// What a znode means, inside a real VS Code against a real ZooKeeper: a Kafka broker registration shows its
// summary in the tree's description, its fields in the tooltip and Show Details, and in Open Data As → Decoded.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import { connectOtherClient, OtherClient } from '../../support/zkClient';
import { fixtures } from '../../unit/meaningFixtures';
import { nextChange, services, testZk, znodeAt } from './zooscope';

const ID = 'host-meaning';
const BASE = '/host-meaning';
const broker = fixtures.find((f) => f.name === 'kafka broker v5')!;
const BROKER = `${BASE}${broker.path}`;

describe('Meaning of known systems\' nodes', function () {
  this.timeout(60000);
  let s: TestApi;
  let other: OtherClient;

  before(async () => {
    s = await services();
    other = await connectOtherClient(testZk());
    await other.mkdirp(`${BASE}/brokers/ids`);
    await other.create(BROKER, Buffer.from(broker.data));
    await s.commands.addConnection({ id: ID, name: 'Host Meaning', connectString: testZk() });
  });

  after(async () => {
    await other?.removeRecursive(BASE).catch(() => undefined);
    other?.close();
    await s.commands.removeConnection(ID, true);
  });

  it('a Kafka broker shows its summary in the description and its fields in the tooltip', async () => {
    // Drawing the node starts its one bounded read; the tree announces the node again once it is decoded.
    const decoded = nextChange(s, (n) => n?.kind === 'znode' && n.path === BROKER, 30000);
    const node = await znodeAt(s, ID, BROKER);
    if (!String(s.tree.getTreeItem(node).description).startsWith('broker 1')) await decoded;
    else decoded.catch(() => undefined);
    const item = s.tree.getTreeItem(node);
    assert.match(String(item.description), /^broker 1 · kafka1:9092 · rack r1 · /);
    assert.strictEqual((item.iconPath as vscode.ThemeIcon).id, 'server');
    assert.match(String(item.contextValue), /\bdecoded\b/);
    const tooltip = ((await s.tree.resolveTreeItem(item, node)).tooltip as vscode.MarkdownString).value;
    assert.ok(tooltip.includes('**Kafka: Kafka broker**'), tooltip);
    assert.ok(tooltip.includes('| rack | r1 |'), tooltip);
    assert.ok(tooltip.includes('| czxid |'), 'the Stat is still there');
  });

  it('Show Details has the fields above the data; Open Data As → Decoded opens a read-only view', async () => {
    const node = await znodeAt(s, ID, BROKER);
    await vscode.commands.executeCommand('zooscope.showDetails', node);
    const details = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.ok(details.indexOf('── Kafka: Kafka broker ──') >= 0 && details.indexOf('── Kafka: Kafka broker ──') < details.indexOf('── Data:'), details);
    await vscode.commands.executeCommand('zooscope.openDataDecoded', node);
    const doc = vscode.window.activeTextEditor?.document;
    assert.strictEqual(doc?.uri.scheme, 'zooscope-decoded');
    assert.ok(doc.getText().includes('broker 1 · kafka1:9092 · rack r1'), doc.getText());
    assert.ok(doc.getText().includes('PLAINTEXT://kafka1:9092'));
  });
});
