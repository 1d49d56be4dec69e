// The hostile fixture (test/support/fixtures/hostileFixture.ts) through every command that can quote a name or data, inside
// a real VS Code against a real ZooKeeper: what each surface was handed must carry no link VS Code would render, no
// `$(icon)` an icon surface would render, and no raw bidi, zero-width or control character.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Participant } from '../../../src/shared/lockAnalysis';
import type { ShownMessage } from '../../../src/vscode/common/notifier';
import type { TestApi } from '../../../src/vscode/testApi';
import type { ZnodeNode } from '../../../src/zk/tree/treeNodes';
import { forceRelease } from '../../../src/vscode/lockQueue/lockActions';
import { visibleText } from '../../../src/shared/visibleText';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { HOSTILE_DATA, HOSTILE_NAMES, LONG_NAME, RAW_HIDDEN, UNESCAPED_ICON, VSCODE_LINK } from '../../support/fixtures/hostileFixture';
import { existsVia, messageMark, services, shownSince, testZk, znodeAt } from './zooscope';

const ID = 'host-hostile';
const RO_ID = 'host-hostile-ro';
const BASE = '/host-hostile';
const NAMES = [...Object.values(HOSTILE_NAMES), LONG_NAME];

/** Hidden characters never pass; links only matter where the surface renders them (notifications), icons where it draws them (status bar, quick input). */
function assertLiteral(text: string | undefined, surface: string, renders: { links?: boolean; icons?: boolean } = {}): void {
  assert.ok(text !== undefined, `${surface}: nothing shown`);
  assert.doesNotMatch(text, RAW_HIDDEN, `${surface} holds a raw hidden character: ${JSON.stringify(text)}`);
  if (renders.links) assert.doesNotMatch(text, VSCODE_LINK, `${surface} holds a link: ${text}`);
  if (renders.icons) assert.doesNotMatch(text.replace(/^\$\([a-z-]+\) /, ''), UNESCAPED_ICON, `${surface} renders an icon from a name: ${text}`);
}

/** A Markdown tooltip's source without its own line breaks (Markdown structure, not text from ZooKeeper). */
function markdownText(md: vscode.MarkdownString): string {
  return md.value.replace(/\n/g, ' ');
}

function assertShownLiterally(messages: readonly ShownMessage[], what: string): void {
  for (const m of messages) {
    assertLiteral(m.message, `${what} (${m.surface})`, m.surface === 'statusBar' ? { icons: true } : { links: m.surface === 'notification' });
    // A dialog's detail may be lines of our own making: the breaks between them are ours, each line is checked.
    for (const line of m.detail?.split('\n') ?? []) assertLiteral(line, `${what} detail`);
  }
}

describe('Hostile names and data on every surface', function () {
  let s: TestApi;
  let other: OtherClient;

  const node = (path: string, id = ID): Promise<ZnodeNode> => znodeAt(s, id, path);
  const exists = (path: string) => existsVia(other, path);
  /** The messages shown after `from` (a message's seq). */
  const since = (from: number) => shownSince(s, from);
  const mark = () => messageMark(s);

  before(async () => {
    s = await services();
    other = await connectOtherClient(testZk());
    await other.removeRecursive(BASE).catch(() => undefined);
    await other.mkdirp(BASE);
    for (const name of NAMES) {
      await new Promise<void>((resolve, reject) => other.client.create(`${BASE}/${name}`, HOSTILE_DATA, (e) => (e ? reject(e) : resolve())));
    }
    await s.commands.addConnection({ id: ID, name: 'Host Hostile', connectString: testZk() });
    await s.commands.addConnection({ id: RO_ID, name: 'Host Hostile RO', connectString: testZk(), readOnly: true });
  });

  after(async () => {
    await vscode.commands.executeCommand('zooscope.releaseAllLocks').then(undefined, () => undefined);
    // Closing the window's sessions first takes their ephemeral nodes with them.
    await s.commands.removeConnection(ID, true);
    await s.commands.removeConnection(RO_ID, true);
    await other?.removeRecursive(BASE).catch(() => undefined);
    await other?.removeRecursive(`${BASE}-copy`).catch(() => undefined);
    other?.close();
  });

  it('tree labels, descriptions, accessibility labels and tooltips show every name as text', async () => {
    for (const name of NAMES) {
      const n = await node(`${BASE}/${name}`);
      const item = s.tree.getTreeItem(n);
      const label = typeof item.label === 'string' ? item.label : item.label?.label;
      assert.strictEqual(label, visibleText(name));
      assertLiteral(label, `tree label of ${JSON.stringify(name)}`);
      assertLiteral(item.accessibilityInformation?.label, 'tree accessibility label');
      const resolved = await s.tree.resolveTreeItem(item, n);
      const tooltip = resolved.tooltip instanceof vscode.MarkdownString ? markdownText(resolved.tooltip) : resolved.tooltip;
      assert.ok(tooltip, 'a tooltip');
      assert.doesNotMatch(tooltip, RAW_HIDDEN);
      assert.doesNotMatch(tooltip, /(?<!\\)[[\]<>]/, 'Markdown brackets escaped');
    }
    assert.match(s.tree.getTreeItem(await node(`${BASE}/${HOSTILE_NAMES.rtlOverride}`)).label as string, /invoice-\[U\+202E\]gnp\.exe/);
  });

  it('create: the status bar message and notifications quote the name literally', async () => {
    let from = mark();
    const icons = await s.commands.createNode({ connectionId: ID, path: BASE }, { name: `new ${HOSTILE_NAMES.icons}`, mode: 'persistent', data: '' });
    assert.strictEqual(icons, `${BASE}/new ${HOSTILE_NAMES.icons}`);
    const created = since(from);
    assert.ok(created.length > 0, 'a message was shown');
    assertShownLiterally(created, 'create status message');
    from = mark();
    await s.commands.createNode({ connectionId: ID, path: BASE }, { name: `${HOSTILE_NAMES.commandLink}-`, mode: 'ephemeralSequential', data: '' });
    const sequential = since(from);
    assert.ok(sequential.some((m) => m.message.includes('(command')), 'the name is quoted');
    assertShownLiterally(sequential, 'create notification');
  });

  it('delete and recursive delete: the status message and the report notification show no link', async () => {
    const target = `${BASE}/${HOSTILE_NAMES.fileLink}`;
    let from = mark();
    await s.commands.delete(await node(target), [await node(target)], { confirmed: true });
    assert.strictEqual(await exists(target), false);
    assertShownLiterally(since(from), 'delete message');
    const tree = `${BASE}/${HOSTILE_NAMES.commandLink}`;
    await other.mkdirp(`${tree}/${HOSTILE_NAMES.rtlOverride}/${HOSTILE_NAMES.icons}`);
    s.tree.refreshAll();
    from = mark();
    const result = await s.commands.deleteRecursive(await node(tree), undefined, { confirmed: true });
    assert.ok(result?.report && result.report.deleted.length >= 3);
    await eventually(() => since(from).length > 0, 10000, 'the recursive delete report');
    assertShownLiterally(since(from), 'recursive delete report');
  });

  it('errors (no node, bad version, no auth) name the path literally', async () => {
    let from = mark();
    await s.commands.goToPath(ID, `${BASE}/${HOSTILE_NAMES.commandLink}-gone`);
    await eventually(() => s.shownFailures.length > 0 && since(from).length > 0, 5000, 'a not-found message');
    assertShownLiterally(since(from), 'noNode error');
    const changed = await node(`${BASE}/${HOSTILE_NAMES.rtlOverride}`);
    await new Promise<void>((resolve, reject) => other.client.setData(changed.path, Buffer.from('x'), -1, (e) => (e ? reject(e) : resolve())));
    from = mark();
    await s.commands.delete(changed, [changed], { confirmed: true });
    assert.strictEqual(await exists(changed.path), true, 'a changed node is not deleted');
    assert.ok(since(from).some((m) => m.severity === 'error'), 'badVersion shown');
    assertShownLiterally(since(from), 'badVersion error');
    const guarded = `${BASE}/${HOSTILE_NAMES.zeroWidth}`;
    // Readable by all (so the suite can clean up), administered by someone else.
    assert.strictEqual(await s.commands.editAcl({ connectionId: ID, path: guarded }, { acl: ['world:anyone:r', 'digest:someone:AAAAAAAAAAAAAAAAAAAAAAAAAAA=:cdwa'] }), true);
    from = mark();
    await s.commands.editAcl({ connectionId: ID, path: guarded }, { acl: ['world:anyone:cdrwa'] });
    assert.ok(since(from).some((m) => m.severity === 'error'), 'noAuth shown');
    assertShownLiterally(since(from), 'noAuth error');
  });

  it('search results show names and data literally', async () => {
    const run = await s.commands.search({ connectionId: ID, path: BASE }, { content: 'click' });
    await eventually(() => s.searchResults.getChildren().length > 1, 10000, 'search results');
    assert.ok(run);
    for (const item of s.searchResults.getChildren()) {
      const tree = s.searchResults.getTreeItem(item);
      assertLiteral(typeof tree.label === 'string' ? tree.label : tree.label?.label, 'search result label');
      assertLiteral(typeof tree.description === 'string' ? tree.description : '', 'search result description');
      // A plain tooltip is lines of our own making (the summary's notes; a match's path, a blank line, the snippet):
      // the breaks between them are ours, each line is checked, and no value added a line of its own.
      const lines = typeof tree.tooltip === 'string' ? tree.tooltip.split('\n') : [tree.tooltip ? markdownText(tree.tooltip) : ''];
      assert.ok(lines.length <= 3, `search result tooltip lines: ${JSON.stringify(lines)}`);
      for (const line of lines) assertLiteral(line, 'search result tooltip');
    }
    await vscode.commands.executeCommand('zooscope.clearSearchResults');
  });

  it('a lock on a hostile path: acquire and release messages, the Held Locks view and the status bar are literal', async () => {
    const lockPath = `${BASE}/${HOSTILE_NAMES.rtlOverride}-${HOSTILE_NAMES.icons}`;
    await other.mkdirp(lockPath);
    const from = mark();
    await vscode.commands.executeCommand('zooscope.acquireLock', { connectionId: ID, path: lockPath });
    await eventually(() => s.heldLocks.list(ID).some((e) => e.snapshot.state === 'held'), 15000, 'the lock held');
    const rows = s.heldLocksTree.getChildren();
    assert.ok(rows.length > 0, 'a Held Locks row');
    for (const row of rows) {
      for (const element of [row, ...s.heldLocksTree.getChildren(row)]) {
        const item = s.heldLocksTree.getTreeItem(element);
        assertLiteral(typeof item.label === 'string' ? item.label : item.label?.label, 'held lock label');
        assertLiteral(typeof item.description === 'string' ? item.description : '', 'held lock description');
        assertLiteral(item.tooltip instanceof vscode.MarkdownString ? markdownText(item.tooltip) : item.tooltip ?? '', 'held lock tooltip');
      }
    }
    assertLiteral(s.heldLocksStatusBar.text, 'held locks status bar', { icons: true });
    await vscode.commands.executeCommand('zooscope.releaseLock', { connectionId: ID, path: lockPath });
    await eventually(() => since(from).length >= 2, 10000, 'acquire and release messages');
    assertShownLiterally(since(from), 'lock message');
  });

  it('ACL edit, a lost lock and an import report quote names literally', async () => {
    let from = mark();
    const aclTarget = `${BASE}/${HOSTILE_NAMES.icons}`;
    assert.strictEqual(await s.commands.editAcl({ connectionId: ID, path: aclTarget }, { acl: ['world:anyone:cdrwa'] }), true);
    assert.ok(since(from).length > 0, 'the ACL save was reported');
    assertShownLiterally(since(from), 'ACL saved');

    const lockPath = `${BASE}/${HOSTILE_NAMES.commandLink}-lost`;
    await other.mkdirp(lockPath);
    await vscode.commands.executeCommand('zooscope.acquireLock', { connectionId: ID, path: lockPath });
    await eventually(() => s.heldLocks.find(ID, lockPath)?.snapshot.state === 'held', 15000, 'held');
    from = mark();
    await other.remove(s.heldLocks.find(ID, lockPath)!.snapshot.node!);
    await eventually(() => since(from).some((m) => m.severity === 'warning'), 10000, 'the lost-lock warning');
    assertShownLiterally(since(from), 'lost lock');

    const file = path.join(os.tmpdir(), `zooscope-hostile-${Date.now()}.json`);
    await s.commands.exportSubtree({ connectionId: ID, path: BASE }, { file });
    from = mark();
    await s.commands.importSubtree(ID, { file, targetRoot: `${BASE}-copy`, confirmed: true });
    await eventually(() => since(from).length > 0, 10000, 'the import report');
    assertShownLiterally(since(from), 'import report');
    for (const name of [HOSTILE_NAMES.rtlOverride, HOSTILE_NAMES.icons]) assert.strictEqual(await exists(`${BASE}-copy/${name}`), true, 'imported byte for byte');
    await other.removeRecursive(`${BASE}-copy`);
    fs.rmSync(file, { force: true });
  });

  it('the document of a hostile node has a URI (and tab title) with the name written out', async () => {
    const path = `${BASE}/${HOSTILE_NAMES.rtlOverride}`;
    await vscode.commands.executeCommand('zooscope.openData', await node(path));
    await eventually(() => vscode.window.activeTextEditor?.document.uri.scheme === 'zooscope', 10000, 'the data document');
    const uri = vscode.window.activeTextEditor!.document.uri;
    assertLiteral(uri.path, 'document URI');
    assert.ok(uri.path.endsWith('invoice-[U+202E]gnp.exe'));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('force-release from the lock-queue panel goes through the write guards: refused on a read-only connection', async () => {
    const victim = `${BASE}/${HOSTILE_NAMES.template}`;
    await vscode.commands.executeCommand('zooscope.connect', RO_ID);
    const shown: Participant = { path: victim, name: HOSTILE_NAMES.template, kind: 'exclusive', role: 'holder', position: 0, since: 0, waitsFor: [], watches: [] };
    const result = await forceRelease(s.connections, RO_ID, victim, shown);
    assert.strictEqual(result.ok, false);
    assert.match(result.message ?? '', /read-only/);
    assert.strictEqual(await exists(victim), true, 'nothing deleted');
  });
});
