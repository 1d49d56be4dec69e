// What a znode means, inside a real VS Code against a real ZooKeeper: a Kafka broker registration shows its
// summary in the tree's description, its fields in the tooltip and Show Details, and in Open Data As → Decoded;
// a Patroni replica (its name with a right-to-left override) shows its lag behind the scope's status there too.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import { connectOtherClient, OtherClient } from '../../support/clients/zkClient';
import { fixtures } from '../../support/fixtures/decodedFixtures';
import { LEADER_LSN, MIB, touchMemberRecord, writeStatusValue } from '../../support/fixtures/patroniLagFixtures';
import { FORGED_ROW, forgedLines, HOSTILE_BROKER, HOSTILE_BROKER_PATH } from '../../support/fixtures/hostileFixture';
import { nextChange, services, testZk, znodeAt } from './zooscope';

const ID = 'host-decoded';
const BASE = '/host-decoded';
const broker = fixtures.find((f) => f.name === 'kafka broker v5')!;
const BROKER = `${BASE}${broker.path}`;
// A Patroni leader key naming a "member" that is a command link with a right-to-left override.
const LEADER = `${BASE}/service/pg/leader`;
const HOSTILE = '[x](command:workbench.action.quit)\u202e';
const HOSTILE_BROKER_NODE = `${BASE}${HOSTILE_BROKER_PATH}`;
const REPLICA = `${BASE}/service/pg/members/pg\u202e2`;

describe('Decoded of known systems\' nodes', function () {
  let s: TestApi;
  let other: OtherClient;

  before(async () => {
    s = await services();
    other = await connectOtherClient(testZk());
    await other.mkdirp(`${BASE}/brokers/ids`);
    await other.create(BROKER, Buffer.from(broker.data));
    await other.create(HOSTILE_BROKER_NODE, HOSTILE_BROKER);
    await other.mkdirp(`${BASE}/service/pg`);
    await other.create(LEADER, HOSTILE);
    await other.mkdirp(`${BASE}/service/pg/members`);
    await other.create(`${BASE}/service/pg/status`, Buffer.from(writeStatusValue(LEADER_LSN)));
    await other.create(REPLICA, Buffer.from(touchMemberRecord('replica', 'streaming', LEADER_LSN - 16 * MIB)));
    await s.commands.addConnection({ id: ID, name: 'Host Decoded', connectString: testZk() });
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

  it('text from ZooKeeper in decoded data stays text: no link, the override written out', async () => {
    const decoded = nextChange(s, (n) => n?.kind === 'znode' && n.path === LEADER, 30000);
    const node = await znodeAt(s, ID, LEADER);
    if (!String(s.tree.getTreeItem(node).description).startsWith('leader ')) await decoded;
    else decoded.catch(() => undefined);
    const item = s.tree.getTreeItem(node);
    assert.ok(String(item.description).startsWith('leader [x](command:workbench.action.quit)[U+202E]'), String(item.description));
    const tooltip = (await s.tree.resolveTreeItem(item, node)).tooltip as vscode.MarkdownString;
    assert.ok(!tooltip.isTrusted);
    assert.ok(!tooltip.value.includes('](command:'), tooltip.value);
    assert.ok(!tooltip.value.includes('\u202e'), 'the override is written out');
    // Written out as [U+202E], its Markdown characters escaped so they show as written.
    assert.ok(tooltip.value.includes('\\[U\\+202E\\]'), tooltip.value);
    assert.ok(tooltip.value.includes('\\]\\(command:'), 'the link syntax is escaped');
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

  it('a Patroni replica shows its lag behind the status: on its line, in the tooltip, Show Details and Decoded', async () => {
    const node = await znodeAt(s, ID, REPLICA);
    const description = () => String(s.tree.getTreeItem(node).description);
    // The member and the status are read when the node is drawn; each answer announces the node again.
    while (!description().includes('lag')) await nextChange(s, (n) => n?.kind === 'znode' && n.path === REPLICA, 30000);
    assert.match(description(), /^replica · streaming · lag 16 MiB/);
    const tooltip = ((await s.tree.resolveTreeItem(s.tree.getTreeItem(node), node)).tooltip as vscode.MarkdownString).value;
    assert.ok(tooltip.includes(`| lag | ${16 * MIB} |`), tooltip);
    assert.ok(!tooltip.includes('\u202e'), 'the override in the name is written out');
    await vscode.commands.executeCommand('zooscope.showDetails', node);
    const details = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.ok(details.includes('replica · streaming · lag 16 MiB'), details);
    await vscode.commands.executeCommand('zooscope.openDataDecoded', node);
    const decoded = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.ok(decoded.includes('replica · streaming · lag 16 MiB'), decoded);
    assert.ok(decoded.includes(String(16 * MIB)), decoded);
  });

  it('a broker whose host forges a leader row: Show Details and Decoded show it as text, one row', async () => {
    const node = await znodeAt(s, ID, HOSTILE_BROKER_NODE);
    await vscode.commands.executeCommand('zooscope.showDetails', node);
    const details = vscode.window.activeTextEditor?.document.getText() ?? '';
    // The meaning's section: from its heading to the next one (the data below is the bytes themselves).
    const start = details.indexOf('── Kafka: Kafka broker ──');
    assert.ok(start >= 0, details);
    const section = details.slice(start, details.indexOf('\n── ', start + 1));
    await vscode.commands.executeCommand('zooscope.openDataDecoded', node);
    const decoded = vscode.window.activeTextEditor?.document.getText() ?? '';
    for (const [surface, text] of [['Show Details', section], ['Decoded', decoded]]) {
      assert.deepEqual(forgedLines(text), [], `${surface}: ${text}`);
      assert.ok(text.includes(`kafka7[U+000A]${FORGED_ROW}[U+000A][U+202E]2909:evil`), `${surface}: ${text}`);
    }
  });
});
