// The explorer inside a real VS Code, against a real ZooKeeper: connections, lazy paged children in natural and
// queue order, live updates by watches, collapse dropping watches on the server, Go to Path, filters, details,
// tooltips and the status bar.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import * as zookeeper from 'node-zookeeper-client';
// Type-only: the extension runs from its bundle, so its classes are not these (instanceof would always fail).
import type { ConnectionNode, TreeNode, ZnodeNode } from '../../../src/zk/tree/treeNodes';
import type { TestApi } from '../../../src/vscode/testApi';
import { askWord } from '../../../src/zk/servers/serverCommands';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { label, nextChange, services, testZk } from './zooscope';

const ID = 'host-explorer';
const BASE = '/host-explorer';

async function childrenOf(s: TestApi, node: TreeNode): Promise<TreeNode[]> {
  return s.tree.getChildren(node);
}

async function child(s: TestApi, parent: TreeNode, name: string): Promise<ZnodeNode> {
  const found = (await childrenOf(s, parent)).find((n) => n?.kind === 'znode' && n.name === name);
  assert.ok(found?.kind === 'znode', `${name} not listed`);
  return found;
}

describe('Explorer', function () {
  let s: TestApi;
  let other: OtherClient;
  let root: ConnectionNode;

  before(async () => {
    s = await services();
    other = await connectOtherClient(testZk());
    await other.mkdirp(`${BASE}/natural`);
    await Promise.all(Array.from({ length: 30 }, (_, i) => other.create(`${BASE}/natural/item-${i + 1}`)));
    await other.mkdirp(`${BASE}/queue`);
    // Random prefixes (as Curator and kazoo write them): the queue order is the sequence number, not the name.
    for (const prefix of ['_c_ffff-lock-', '_c_0000-lock-', 'aaaa__lock__', '_c_8888-lock-']) {
      await other.create(`${BASE}/queue/${prefix}`, '127.0.0.1', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    }
    await other.mkdirp(`${BASE}/wide`);
    const names = Array.from({ length: 2500 }, (_, i) => `n${i}`);
    for (let i = 0; i < names.length; i += 250) await Promise.all(names.slice(i, i + 250).map((n) => other.create(`${BASE}/wide/${n}`)));
    await other.mkdirp(`${BASE}/deep/a/b/c`);
    await other.create(`${BASE}/binary`, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]));
    await other.create(`${BASE}/text`, '{"hello": "world"}');
    await s.commands.addConnection({ id: ID, name: 'Host Explorer', connectString: testZk() });
    root = s.tree.rootFor(ID);
  });

  after(async () => {
    await other?.removeRecursive(BASE).catch(() => undefined);
    other?.close();
    await s.commands.removeConnection(ID, true);
  });

  it('lists the saved connection as a root and connects', async () => {
    const roots = await s.tree.getChildren();
    assert.ok(roots.some((r) => r?.kind === 'connection' && r.connectionId === ID));
    assert.strictEqual(s.connections.state(ID), 'connected');
    assert.match(String(s.tree.getTreeItem(root).contextValue), /^connection connected/);
  });

  it('shows the server in the status bar, and the session id in its tooltip', async () => {
    s.statusBar.setActive(ID);
    const session = s.connections.get(ID)?.session;
    assert.ok(session?.sessionId);
    assert.ok(s.statusBar.tooltip.includes(session.sessionId), s.statusBar.tooltip);
    assert.ok(s.statusBar.text.includes(session.serverAddress ?? '?'), s.statusBar.text);
  });

  it('sorts children naturally (item-2 before item-10)', async () => {
    const base = await child(s, root, BASE.slice(1));
    const natural = await child(s, base, 'natural');
    const names = (await childrenOf(s, natural)).map((n) => label(s, n));
    assert.deepStrictEqual(names.slice(0, 12), ['item-1', 'item-2', 'item-3', 'item-4', 'item-5', 'item-6', 'item-7', 'item-8', 'item-9', 'item-10', 'item-11', 'item-12']);
  });

  it('sorts a lock queue by sequence number whatever the prefix', async () => {
    const base = await child(s, root, BASE.slice(1));
    const queue = await child(s, base, 'queue');
    const names = (await childrenOf(s, queue)).map((n) => label(s, n));
    assert.deepStrictEqual(names.map((n) => n.slice(-10)), ['0000000000', '0000000001', '0000000002', '0000000003']);
    assert.ok(names[0].startsWith('_c_ffff'), names.join());
    const item = s.tree.getTreeItem((await childrenOf(s, queue))[0]);
    assert.match(String(item.contextValue), /kind-ephemeral/);
    assert.match(String(item.contextValue), /sequential/);
  });

  it('pages a wide node: the first page and a "show more" item', async () => {
    const base = await child(s, root, BASE.slice(1));
    const wide = await child(s, base, 'wide');
    const first = await childrenOf(s, wide);
    assert.strictEqual(first.filter((n) => n?.kind === 'znode').length, 1000);
    const more = first[first.length - 1];
    assert.ok(more?.kind === 'more');
    assert.strictEqual(more.remaining, 1500);
    await vscode.commands.executeCommand('zooscope.showMore', more);
    const second = await childrenOf(s, wide);
    assert.strictEqual(second.filter((n) => n?.kind === 'znode').length, 2000);
    const item = s.tree.getTreeItem(wide);
    assert.match(String(item.description), /2500/);
  });

  it('shows a child created by another client without a manual refresh', async () => {
    const base = await child(s, root, BASE.slice(1));
    const natural = await child(s, base, 'natural');
    await childrenOf(s, natural);
    const changed = nextChange(s, (n) => n === natural);
    await other.create(`${BASE}/natural/item-100`);
    await changed;
    const names = (await childrenOf(s, natural)).map((n) => label(s, n));
    assert.strictEqual(names[names.length - 1], 'item-100');
    const removed = nextChange(s, (n) => n === natural);
    await other.remove(`${BASE}/natural/item-100`);
    await removed;
    assert.ok(!(await childrenOf(s, natural)).some((n) => label(s, n) === 'item-100'));
  });

  it('keeps a watch on the server for an expanded node and drops it on collapse', async () => {
    const base = await child(s, root, BASE.slice(1));
    const deep = await child(s, base, 'deep');
    await childrenOf(s, deep);
    const [host, port] = testZk().split(',')[0].split(':');
    const watched = async () => (await askWord(host, Number(port), 'wchp')).includes(`${BASE}/deep\n`);
    await eventually(watched, 3000, 'server lists the watch');
    s.tree.onCollapsed(deep);
    await eventually(async () => !(await watched()), 3000, 'server drops the watch');
  });

  it('says clearly when an expanded node was deleted meanwhile', async () => {
    await other.mkdirp(`${BASE}/doomed/child`);
    const base = await child(s, root, BASE.slice(1));
    await s.tree.refresh(base);
    const doomed = await child(s, base, 'doomed');
    await other.removeRecursive(`${BASE}/doomed`);
    s.tree.onCollapsed(doomed); // forget the cached listing, as if expanded for the first time
    const shown = await childrenOf(s, doomed);
    assert.ok(shown[0]?.kind === 'message', 'a message, not an exception');
    assert.match(label(s, shown[0]), /no longer exists/);
    await eventually(async () => !(await childrenOf(s, base)).some((n) => n?.kind === 'znode' && n.name === 'doomed'), 3000, 'parent recovers');
  });

  it('goes to a deep path, opening its ancestors', async () => {
    const node = (await s.commands.goToPath(ID, `${BASE}/deep/a/b/c`))!;
    assert.ok(node?.kind === 'znode');
    assert.strictEqual(node.path, `${BASE}/deep/a/b/c`);
    assert.strictEqual(s.tree.getParent(node)?.kind === 'znode', true);
    const missing = await s.commands.goToPath(ID, `${BASE}/deep/nope`);
    assert.strictEqual(missing, undefined);
    const invalid = await s.commands.goToPath(ID, 'relative/path');
    assert.strictEqual(invalid, undefined);
  });

  it('filters a node\'s children by glob and by regex, and clears the filter', async () => {
    const base = await child(s, root, BASE.slice(1));
    const natural = await child(s, base, 'natural');
    await s.commands.filterChildren(natural, 'item-2?');
    let names = (await childrenOf(s, natural)).map((n) => label(s, n));
    assert.deepStrictEqual(names, ['item-20', 'item-21', 'item-22', 'item-23', 'item-24', 'item-25', 'item-26', 'item-27', 'item-28', 'item-29']);
    assert.match(String(s.tree.getTreeItem(natural).contextValue), /filtered/);
    await s.commands.filterChildren(natural, '/^item-(3|30)$/');
    names = (await childrenOf(s, natural)).map((n) => label(s, n));
    assert.deepStrictEqual(names, ['item-3', 'item-30']);
    await vscode.commands.executeCommand('zooscope.clearFilter', natural);
    assert.strictEqual((await childrenOf(s, natural)).length, 30);
  });

  it('shows all 11 stat fields in the tooltip, with the owner session of an ephemeral node', async () => {
    const base = await child(s, root, BASE.slice(1));
    const queue = await child(s, base, 'queue');
    const first = (await childrenOf(s, queue))[0] as ZnodeNode;
    const item = await s.tree.resolveTreeItem(s.tree.getTreeItem(first), first);
    const text = (item.tooltip as vscode.MarkdownString).value;
    for (const field of ['czxid', 'mzxid', 'pzxid', 'ctime', 'mtime', 'version', 'cversion', 'aversion', 'ephemeralOwner', 'dataLength', 'numChildren']) {
      assert.ok(text.includes(`| ${field} |`), `${field} missing`);
    }
    const owner = '0x' + other.client.getSessionId().readBigUInt64BE(0).toString(16);
    assert.ok(text.includes(owner), `owner ${owner} missing`);
    assert.match(text, /127\\\.0\\\.0\\\.1:\d+/, 'client address from the server');
  });

  it('shows details: text data as text, binary data as hex', async () => {
    const textNode = (await s.commands.goToPath(ID, `${BASE}/text`))!;
    await vscode.commands.executeCommand('zooscope.showDetails', textNode);
    let doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc?.getText().includes('{"hello": "world"}'));
    assert.ok(doc?.getText().includes('dataLength'));
    const binNode = (await s.commands.goToPath(ID, `${BASE}/binary`))!;
    await vscode.commands.executeCommand('zooscope.showDetails', binNode);
    doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc?.getText().includes('89 50 4e 47 00 ff'), doc?.getText());
  });

  it('a click on a leaf previews its data, the next click replaces it, a double click keeps it', async () => {
    await other.create(`${BASE}/empty`).catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const textNode = (await s.commands.goToPath(ID, `${BASE}/text`))!;
    const binNode = (await s.commands.goToPath(ID, `${BASE}/binary`))!;
    const emptyNode = (await s.commands.goToPath(ID, `${BASE}/empty`))!;
    // The tree item carries the command: a leaf gets it, a node with children keeps its click to expand.
    assert.strictEqual(s.tree.getTreeItem(textNode).command?.command, 'zooscope.previewNode');
    const natural = (await s.commands.goToPath(ID, `${BASE}/natural`))!;
    assert.strictEqual(s.tree.getTreeItem(natural).command, undefined);
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    const uriOf = (tab: vscode.Tab | undefined) => (tab?.input instanceof vscode.TabInputText ? tab.input.uri : undefined);

    assert.strictEqual(await vscode.commands.executeCommand('zooscope.previewNode', textNode), 'data');
    let active = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(active?.isPreview, 'a single click opens a preview');
    assert.match(uriOf(active)?.path ?? '', /\/text$/);
    assert.ok(vscode.window.activeTextEditor?.document.getText().includes('hello'));

    // Another node's click: its preview replaces the first one.
    assert.strictEqual(await vscode.commands.executeCommand('zooscope.previewNode', binNode), 'data');
    assert.deepStrictEqual(tabs().map((tab) => uriOf(tab)?.path.replace(/.*\//, '')), ['binary']);
    assert.match(uriOf(vscode.window.tabGroups.activeTabGroup.activeTab)?.query ?? '', /hex/);

    // A double click (two clicks on the same node): the editor is kept.
    await vscode.commands.executeCommand('zooscope.previewNode', textNode);
    await vscode.commands.executeCommand('zooscope.previewNode', textNode);
    active = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(active && !active.isPreview, 'a double click keeps the editor');
    assert.match(uriOf(active)?.path ?? '', /\/text$/);

    // No data: the details (stat) instead.
    assert.strictEqual(await vscode.commands.executeCommand('zooscope.previewNode', emptyNode), 'details');
    await eventually(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'zooscope-details' && e.document.getText().includes('numChildren')));

    // The setting turns it off: no command on the item, and a click does nothing.
    const config = vscode.workspace.getConfiguration('zooscope.explorer');
    await config.update('openOnClick', false, vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.strictEqual(s.tree.getTreeItem(textNode).command, undefined);
      assert.strictEqual(await vscode.commands.executeCommand('zooscope.previewNode', textNode), undefined);
      assert.strictEqual(tabs().length, 0);
    } finally {
      await config.update('openOnClick', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('copies a node\'s path to the clipboard', async () => {
    const node = (await s.commands.goToPath(ID, `${BASE}/deep/a`))!;
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('zooscope.copyPath', node);
    assert.strictEqual(await vscode.env.clipboard.readText(), `${BASE}/deep/a`);
  });

  it('a row\'s menu command whose row VS Code lost (redrawn meanwhile) does nothing and says so, not acting on the selection', async () => {
    // The row's menu passes (row, selection); VS Code puts undefined in place of a row it redrew in between. The
    // palette passes nothing and means the selection.
    await s.commands.goToPath(ID, `${BASE}/deep/a`);
    await vscode.env.clipboard.writeText('');
    const from = s.shownMessages.at(-1)?.seq ?? 0;
    await vscode.commands.executeCommand('zooscope.copyPath', undefined, undefined);
    assert.strictEqual(await vscode.env.clipboard.readText(), '', 'the selected node was not the row chosen');
    const said = s.shownMessages.filter((m) => m.seq > from).map((m) => m.message);
    assert.ok(said.some((m) => /redrawn as you chose this command/.test(m)), said.join(' | '));
    await vscode.commands.executeCommand('zooscope.copyPath');
    assert.strictEqual(await vscode.env.clipboard.readText(), `${BASE}/deep/a`, 'from the palette: the selection');
  });

  it('keeps a digest password in secret storage, never in settings, and authenticates with it', async () => {
    const secretId = 'host-digest';
    await s.commands.addConnection({ id: secretId, name: 'Host Digest', connectString: testZk(), digestUser: 'alice', password: 's3cret-pw' });
    try {
      const settings = JSON.stringify(vscode.workspace.getConfiguration('zooscope').get('connections'));
      assert.ok(settings.includes('alice'), settings);
      assert.ok(!settings.includes('s3cret-pw'), 'password leaked into settings');
      assert.strictEqual(await s.store.password(secretId), 's3cret-pw');
      const ids = await s.connections.get(secretId)?.session.whoAmI();
      assert.ok(ids?.some((id) => id.scheme === 'digest' && id.user === 'alice'), JSON.stringify(ids));
    } finally {
      await s.commands.removeConnection(secretId, true);
    }
    assert.strictEqual(await s.store.password(secretId), undefined, 'secret removed with the connection');
  });

  it('disconnects and reconnects from commands', async () => {
    await vscode.commands.executeCommand('zooscope.disconnect', ID);
    assert.strictEqual(s.connections.state(ID), 'disconnected');
    await vscode.commands.executeCommand('zooscope.connect', ID);
    assert.strictEqual(s.connections.state(ID), 'connected');
  });
});
