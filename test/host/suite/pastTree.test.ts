// The tree at a past moment inside a real VS Code, rebuilt from a real server's data directory: browsed in the
// explorer as a root of its own (children, the Stats a client was told, a node's data and details) for a node changed
// since and one deleted since; every write command refused on it; two moments compared in the Differences view; a
// moment before the logs begin refused with what they cover.
import * as assert from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import type { PastRootNode, TreeNode, ZnodeNode } from '../../../src/zk/tree/treeNodes';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../../support/fixtures/hostileFixture';
import { startStandalone, ZkCluster } from '../../support/servers/zkServer';
import { connectOtherClient, eventually } from '../../support/clients/zkClient';
import { label, messageMark, services, shownSince, znodeAt } from './zooscope';

const ID = 'host-past-tree';
const NAME = 'Past tree';
const GONE = HOSTILE_NAMES.rtlOverride;
const REFUSED = /A tree at a past moment is read-only/;
const zxidOf = (id: Buffer) => `0x${BigInt(`0x${id.toString('hex')}`).toString(16)}`;

describe('Tree at a past moment from a real server\'s logs', function () {
  let s: TestApi;
  let zk: ZkCluster;
  let folder: string;
  /** The zxid of the last write before the changes, and of the last one after them. */
  let earlier: string;
  let later: string;

  before(async () => {
    s = await services();
    zk = await startStandalone({ adminServer: false, systemProperties: { 'zookeeper.snapCount': '8' } });
    folder = path.join(zk.members[0].dir, 'data');
    const writer = await connectOtherClient(zk.connectString);
    try {
      await writer.mkdirp('/moment');
      await writer.create('/moment/changed', 'v1');
      await writer.create(`/moment/${GONE}`, 'bye');
      await writer.create('/moment/kept', 'same');
      // Zxids from the server's own answers: the moments are the server's order, not a clock's.
      earlier = zxidOf((await writer.exists('/moment/kept'))!.czxid);
      await writer.setData('/moment/changed', 'v2');
      await writer.remove(`/moment/${GONE}`);
      await writer.create('/moment/after', 'new');
      later = zxidOf((await writer.exists('/moment/after'))!.czxid);
    } finally {
      writer.close();
    }
    await s.commands.addConnection({ id: ID, name: NAME, connectString: zk.connectString });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await s?.commands.removeConnection(ID, true);
    await zk?.stop();
  });

  async function childrenOf(node: TreeNode): Promise<ZnodeNode[]> {
    return (await s.tree.getChildren(node)).filter((n): n is ZnodeNode => n.kind === 'znode');
  }

  async function openPast(): Promise<PastRootNode> {
    const root = await s.commands.openTreeAtPastMoment(ID, { folders: [folder], moment: earlier });
    // The extension's own class (its bundle), not this file's import: known by what it holds.
    assert.ok(root && 'of' in root, `a past root was opened: ${JSON.stringify(s.shownMessages.slice(-2))}`);
    return root;
  }

  it('shows the tree as it was: a root of its own, the node deleted since, the old data and Stats, read-only rows', async () => {
    const root = await openPast();
    assert.ok((await s.tree.getChildren()).includes(root), 'the past root is beside the connections');
    const rootItem = s.tree.getTreeItem(root);
    assert.match(label(s, root), new RegExp(`^${NAME} @ \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} UTC \\(${earlier}\\)$`));
    assert.strictEqual((rootItem.iconPath as vscode.ThemeIcon).id, 'history');
    assert.strictEqual(rootItem.contextValue, 'pastRoot');

    const moment = (await childrenOf(root)).find((n) => n.name === 'moment')!;
    assert.ok(moment, 'the /moment node');
    const children = await childrenOf(moment);
    assert.deepStrictEqual(children.map((n) => n.name), ['changed', GONE, 'kept'], 'as listed then, in the natural order, /moment/after not yet');
    for (const child of children) {
      const item = s.tree.getTreeItem(child);
      assert.strictEqual(item.contextValue, 'pastNode', 'no write command matches a past row');
      assert.ok(!RAW_HIDDEN.test(label(s, child)), `label inert: ${JSON.stringify(label(s, child))}`);
    }
    const gone = children.find((n) => n.name === GONE)!;
    assert.strictEqual(label(s, gone), 'invoice-[U+202E]gnp.exe');

    const changed = children.find((n) => n.name === 'changed')!;
    assert.strictEqual(changed.stat.version, 0, 'the version then');
    assert.strictEqual(changed.stat.dataLength, 2);
    // A node unchanged since has the very Stat the server tells a client now.
    const keptThen = children.find((n) => n.name === 'kept')!;
    const keptNow = await znodeAt(s, ID, '/moment/kept');
    assert.deepStrictEqual(keptThen.stat, keptNow.stat);
    // A click on a leaf opens its data, read-only, as it was.
    const click = s.tree.getTreeItem(changed).command!;
    await vscode.commands.executeCommand(click.command, ...(click.arguments ?? []));
    assert.strictEqual(vscode.window.activeTextEditor?.document.getText(), 'v1');
    await vscode.commands.executeCommand('zooscope.openPastNodeData', gone);
    assert.strictEqual(vscode.window.activeTextEditor?.document.getText(), 'bye', 'the deleted node\'s data');
    await vscode.commands.executeCommand('zooscope.showPastNodeDetails', gone);
    const details = vscode.window.activeTextEditor!.document.getText();
    assert.match(details, /^Past tree @ .* UTC \(0x[0-9a-f]+\)\nRebuilt from the server logs \(read-only\)\./);
    assert.match(details, /version\s+0\n/);
    assert.match(details, /invoice-\[U\+202E\]gnp\.exe/);
    assert.ok(details.split('\n').every((line) => !RAW_HIDDEN.test(line)), 'details inert');
    s.tree.closePast(root.connectionId);
  });

  it('refuses every write command given a past node, and leaves the server as it is', async () => {
    const root = await openPast();
    const moment = (await childrenOf(root)).find((n) => n.name === 'moment')!;
    const changed = (await childrenOf(moment)).find((n) => n.name === 'changed')!;
    const writes = ['zooscope.delete', 'zooscope.deleteRecursive', 'zooscope.createNode', 'zooscope.editAcl', 'zooscope.openData',
      'zooscope.importSubtree', 'zooscope.acquireLock', 'zooscope.setQuota', 'zooscope.refresh', 'zooscope.connect'];
    for (const command of writes) {
      const seen = messageMark(s);
      await vscode.commands.executeCommand(command, changed, [changed]);
      assert.ok(shownSince(s, seen).some((m) => REFUSED.test(m.message)), `${command} refused: ${JSON.stringify(shownSince(s, seen))}`);
    }
    const seen = messageMark(s);
    await vscode.commands.executeCommand('zooscope.createNode', root);
    assert.ok(shownSince(s, seen).some((m) => REFUSED.test(m.message)), 'on the past root too');
    // From the palette (no arguments), on the selected past node: refused before it asks anything.
    await s.view.reveal(changed, { select: true, focus: true });
    await eventually(() => s.view.selection[0] === changed, 10000, 'selected');
    for (const command of ['zooscope.delete', 'zooscope.editAcl']) {
      const before = messageMark(s);
      await vscode.commands.executeCommand(command);
      const shown = shownSince(s, before);
      assert.ok(shown.some((m) => REFUSED.test(m.message)) && !shown.some((m) => m.surface === 'modal'), `${command} from the palette refused: ${JSON.stringify(shown)}`);
    }
    assert.strictEqual(await s.tree.getChildren(changed).then((c) => c.length), 0);
    assert.strictEqual((await znodeAt(s, ID, '/moment/changed')).stat.version, 1, 'the live node untouched');

    await vscode.commands.executeCommand('zooscope.closePastTree', root);
    assert.ok(!(await s.tree.getChildren()).includes(root), 'closed');
  });

  it('compares two moments in the Differences view: what changed between them', async () => {
    const result = await s.commands.compareWithPastMoment({ connectionId: ID, path: '/moment' }, { folders: [folder], moment: earlier, against: later });
    assert.ok(result?.against, `both moments rebuilt: ${JSON.stringify(s.shownMessages.slice(-2))}`);
    const view = s.compareResults;
    const rows = view.getChildren().flatMap((item) => [item, ...view.getChildren(item)]).map((item) => view.getTreeItem(item));
    const labels = rows.map((row) => (typeof row.label === 'string' ? row.label : row.label?.label ?? ''));
    assert.ok(labels.includes('/after'), `only at the later moment: ${labels.join(' | ')}`);
    assert.ok(labels.includes('/invoice-[U+202E]gnp.exe'), `only at the earlier one, inert: ${labels.join(' | ')}`);
    assert.ok(labels.includes('/changed'), `data changed between: ${labels.join(' | ')}`);
    assert.ok(!labels.includes('/kept'), 'the same at both');
    const run = view.run!;
    assert.match(run.left, new RegExp(`${NAME}: /moment @ .* UTC \\(${earlier}\\)`));
    assert.match(run.right, new RegExp(`${NAME}: /moment @ .* UTC \\(${later}\\)`));
  });

  it('refuses a moment before the logs begin, saying what they cover (in UTC with the date)', async () => {
    const seen = messageMark(s);
    assert.strictEqual(await s.commands.openTreeAtPastMoment(ID, { folders: [folder], moment: '2001-01-01T00:00:00Z' }), undefined);
    const said = shownSince(s, seen).map((m) => m.message).join('\n');
    assert.match(said, /That is before the logs begin: the logs cover \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC \(0x[0-9a-f]+\) to .* UTC \(0x[0-9a-f]+\)\./);
    assert.ok(!/1970/.test(said), said);
    const seenTyped = messageMark(s);
    assert.strictEqual(await s.commands.openTreeAtPastMoment(ID, { folders: [folder], moment: 'yesterday' }), undefined);
    assert.match(shownSince(s, seenTyped).map((m) => m.message).join('\n'), /Not a moment: type an ISO time/);
  });
});
