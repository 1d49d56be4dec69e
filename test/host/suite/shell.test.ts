// zkCli in the editor, inside a real VS Code against a real ZooKeeper: Open ZooKeeper Shell on a node (its path on
// the first line), a `create` typed there shows in the tree, hostile data cannot reach the terminal as escape
// sequences, `quit` leaves the connection's session open; quotas in the tooltip, the description and Show
// Details, Set/Remove Quota; the hard-quota refusal in words; Sync and Refresh. The guards: a read-only
// connection's shell refuses writes, `connect` asks on the prompt before sending credentials to another host, and
// the registered command takes no history file.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../../../src/vscode/common/failureTexts';
import type { ShellTerminal } from '../../../src/vscode/shell/shellTerminal';
import type { TestApi } from '../../../src/vscode/testApi';
import { ZkError } from '../../../src/zk/errors';
import type { TreeNode } from '../../../src/zk/tree/treeNodes';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { services, testZk, znodeAt } from './zooscope';

const ID = 'host-shell';
const RO_ID = 'host-shell-ro';
const AUTH_ID = 'host-shell-auth';
const BASE = '/host-shell';

describe('ZooKeeper shell and quotas', function () {
  let s: TestApi;
  let other: OtherClient;
  let historyDir: string;

  const names = async (node: TreeNode) => (await s.tree.getChildren(node)).map((n) => (n.kind === 'znode' ? n.name : ''));
  const openOn = async (target: unknown): Promise<ShellTerminal> => {
    const pty = await s.commands.openShell(target, { historyFile: path.join(historyDir, 'history') });
    assert.ok(pty, 'no shell opened');
    await pty.waitFor(/\[zk: [^\]]*\(CONNECTED\) 0\] /);
    return pty;
  };

  before(async () => {
    s = await services();
    historyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-shell-'));
    other = await connectOtherClient(testZk());
    await other.removeRecursive(BASE).catch(() => undefined);
    await other.mkdirp(`${BASE}/app`);
    await s.commands.addConnection({ id: ID, name: 'Host Shell', connectString: testZk() });
    await s.commands.addConnection({ id: RO_ID, name: 'Host Shell RO', connectString: testZk(), readOnly: true });
    await s.commands.addConnection({ id: AUTH_ID, name: 'Host Shell Auth', connectString: testZk(), digestUser: 'shelluser', password: 'shell-pw' });
  });

  after(async () => {
    await other?.removeRecursive(BASE).catch(() => undefined);
    await other?.removeRecursive(`/zookeeper/quota${BASE}`).catch(() => undefined);
    other?.close();
    await s.commands.removeConnection(ID, true);
    await s.commands.removeConnection(RO_ID, true);
    await s.commands.removeConnection(AUTH_ID, true);
    fs.rmSync(historyDir, { recursive: true, force: true });
  });

  it('opens on a node with its path on the line; a create typed there shows in the tree at once', async () => {
    const app = await znodeAt(s, ID, `${BASE}/app`);
    assert.deepStrictEqual(await names(app), []);
    const pty = await openOn(app);
    assert.match(pty.text, /Opened on \/host-shell\/app/);
    const from = pty.text.length;
    // The cursor is before the path: type the command, go to the end (Ctrl-E), add the child's name.
    pty.handleInput('create ');
    pty.handleInput('\x05/made\r');
    const created = await pty.waitFor(/Created \/host-shell\/app\/made/, from);
    // The explorer's own watch on /host-shell/app fired on the shared session (before the create's answer): the
    // shell prints only the events of watches it set.
    assert.ok(!created.includes('WATCHER::'), `the explorer's watch event was printed:\n${created}`);
    await eventually(async () => (await names(app)).includes('made'), 10000, 'the tree lists the created node');
    pty.handleInput('quit\r');
    assert.strictEqual(await pty.finished, 0);
    assert.strictEqual(s.connections.get(ID)?.session.state, 'connected', 'quit leaves the connection\'s session open');
  });

  it('writes names and data made visible: no escape sequence from ZooKeeper reaches the terminal', async () => {
    await other.create(`${BASE}/evil`, Buffer.from('\x1b[31mred\x1b]0;title\x07'));
    const pty = await openOn({ connectionId: ID, path: '/' });
    const from = pty.text.length;
    pty.handleInput(`get ${BASE}/evil\r`);
    const shown = await pty.waitFor(/\[U\+0007\]/, from);
    assert.ok(!shown.includes('\x1b[31m') && !shown.includes('\x1b]0;'), 'an escape sequence reached the terminal');
    assert.match(shown, /\[U\+001B\]\[31mred/);
    pty.handleInput('close\r');
    await pty.waitFor(/state:Closed/, from);
    pty.handleInput('\x04');
    await pty.finished;
    assert.strictEqual(s.connections.get(ID)?.session.state, 'connected', 'close leaves the connection\'s session open');
  });

  it('on a read-only connection the shell says so and refuses writes in zkCli\'s words; reads work', async () => {
    const pty = await openOn({ connectionId: RO_ID, path: '/' });
    assert.match(pty.text, /This connection is read-only/);
    assert.match(pty.text, /\(read-only\) \[zk: /);
    assert.ok(vscode.window.terminals.some((t) => t.name === 'ZooKeeper Shell (read-only): Host Shell RO'), 'the terminal\'s title says read-only');
    const from = pty.text.length;
    pty.handleInput(`create ${BASE}/ro-made x\r`);
    await pty.waitFor(new RegExp(`Not a read-only call: ${BASE}/ro-made`), from);
    pty.handleInput(`ls ${BASE}\r`);
    await pty.waitFor(/\[app/, from);
    pty.handleInput('quit\r');
    await pty.finished;
    assert.strictEqual(await other.exists(`${BASE}/ro-made`), undefined, 'the read-only shell created a node');
  });

  it('`connect` to another host asks on the prompt before sending the connection\'s credentials; No connects without them', async () => {
    const otherHost = testZk().replace(/^127\.0\.0\.1:/, 'localhost:');
    assert.notStrictEqual(otherHost, testZk(), 'the test server is not on 127.0.0.1');
    for (const [answer, authenticated] of [['n', false], ['y', true]] as const) {
      const pty = await openOn({ connectionId: AUTH_ID, path: '/' });
      pty.setDimensions({ columns: 300, rows: 24 });
      let from = pty.text.length;
      pty.handleInput(`connect ${otherHost}\r`);
      await pty.waitFor(new RegExp(`Send the credentials of Host Shell Auth .* to ${otherHost}, which is not one of its servers\\? \\[y/N\\] `), from);
      pty.handleInput(`${answer}\r`);
      await pty.waitFor(/WatchedEvent state:SyncConnected type:None path:null/, from);
      from = pty.text.length;
      pty.handleInput('whoami\r');
      const shown = await pty.waitFor(/\(CONNECTED\) 2\] /, from);
      assert.strictEqual(/digest: shelluser/.test(shown), authenticated, `answer ${answer}:\n${shown}`);
      pty.handleInput('quit\r');
      await pty.finished;
    }
  });

  it('the registered command takes no history file: only the test API can choose one', async () => {
    const file = path.join(historyDir, 'chosen-by-caller');
    fs.writeFileSync(file, 'get /from-the-file\n');
    const pty = await vscode.commands.executeCommand<ShellTerminal>('zooscope.openShell', { connectionId: ID, path: '/' }, { historyFile: file });
    assert.ok(pty, 'no shell opened');
    await pty.waitFor(/\(CONNECTED\) 0\] /);
    const from = pty.text.length;
    pty.handleInput('\x1b[A');
    pty.handleInput('\x15\x04');
    await pty.finished;
    assert.ok(!pty.text.slice(from).includes('/from-the-file'), 'the history came from the file a caller named');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'get /from-the-file\n', 'the file a caller named was rewritten');
  });

  it('Tab completes a child path from the server', async () => {
    const pty = await openOn({ connectionId: ID, path: '/' });
    const from = pty.text.length;
    // Enter right behind the Tab: keys wait for the completion's answer, so `ls /host-shell/app` runs (readline
    // redraws only the completed part, so the line itself is checked by what `ls` prints).
    pty.handleInput(`ls ${BASE}/ap\t\r`);
    const listed = await pty.waitFor(/\[made\]|Node does not exist/, from);
    assert.match(listed, /\[made\]/);
    pty.handleInput('\x04');
    await pty.finished;
  });

  it('Set Quota marks a node over its soft limit, shows limits and usage, and Remove Quota removes it', async () => {
    const app = await znodeAt(s, ID, `${BASE}/app`);
    const set = await s.commands.setQuota(app, { count: 1, byteHardLimit: 1000 });
    assert.strictEqual(set?.limits.get('count'), 1n);
    await eventually(async () => String(s.tree.getTreeItem(await znodeAt(s, ID, `${BASE}/app`)).description).includes('over soft quota'), 10000, 'marked over its soft quota');
    const node = await znodeAt(s, ID, `${BASE}/app`);
    const item = await s.tree.resolveTreeItem(s.tree.getTreeItem(node), node);
    const tooltip = (item.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /\*\*Quota\*\*/);
    assert.match(tooltip, /Nodes: 2 used · soft limit 1 · hard limit none/);
    assert.match(tooltip, /Bytes: \d+ used · soft limit none · hard limit 1000/);
    await vscode.commands.executeCommand('zooscope.showDetails', node);
    await eventually(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'zooscope-details' && /── Quota ──\nNodes: 2 used/.test(e.document.getText())), 10000, 'details show the quota');
    const quotaRoot = await znodeAt(s, ID, '/zookeeper/quota');
    assert.match(String(s.tree.getTreeItem(quotaRoot).description), /holds the quotas/);
    assert.strictEqual(await vscode.commands.executeCommand('zooscope.removeQuota', node), true);
    await eventually(async () => !String(s.tree.getTreeItem(await znodeAt(s, ID, `${BASE}/app`)).description).includes('quota'), 10000, 'mark removed');
  });

  it('says a write refused by a hard quota was refused for the quota', () => {
    const message = describeError(new ZkError('quotaExceeded', 'create', `${BASE}/app/x`, -125));
    assert.match(message, /create \/host-shell\/app\/x was refused: it would exceed a hard quota/);
  });

  it('zooscope.syncBeforeRead: no sync while off (Show Details), a sync before a data document reads when on', async () => {
    await other.create(`${BASE}/synced`, 'fresh');
    const session = s.connections.get(ID)?.session;
    assert.ok(session);
    const synced: string[] = [];
    const original = session.sync.bind(session);
    session.sync = (p: string) => { synced.push(p); return original(p); };
    const config = vscode.workspace.getConfiguration('zooscope');
    try {
      await vscode.commands.executeCommand('zooscope.showDetails', await znodeAt(s, ID, `${BASE}/synced`));
      await eventually(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'zooscope-details' && e.document.getText().includes('fresh')), 10000, 'details shown');
      assert.strictEqual(synced.length, 0, 'synced while the setting is off');
      await config.update('syncBeforeRead', true, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('zooscope.openData', { connectionId: ID, path: `${BASE}/synced` });
      await eventually(() => synced.includes(`${BASE}/synced`), 10000, 'the data document synced before reading');
    } finally {
      session.sync = original;
      await config.update('syncBeforeRead', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('Sync and Refresh syncs the node and reads it again', async () => {
    await other.create(`${BASE}/app/late`);
    const app = await znodeAt(s, ID, `${BASE}/app`);
    assert.strictEqual(await vscode.commands.executeCommand('zooscope.syncAndRefresh', app), true);
    assert.ok((await names(app)).includes('late'));
  });
});
