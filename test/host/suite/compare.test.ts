// Compare With… inside a real VS Code on two real servers: the Differences view shows every difference by kind,
// a data difference opens VS Code's diff editor on read-only documents decoded as the data editor decodes them,
// and hostile names render inert in the view and the diff editor's title. Copy To… applies its plan.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import type { CompareItem } from '../../../src/vscode/compare/compareResults';
import { HOSTILE_NAMES, RAW_HIDDEN, VSCODE_LINK } from '../../support/fixtures/hostileFixture';
import type { CopyPlan } from '../../../src/zk/compare';
import { planDocument } from '../../../src/vscode/compare/compareTexts';
import { startStandalone, ZkCluster } from '../../support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../../support/clients/zkClient';
import { existsVia, services, testZk } from './zooscope';

const LEFT = 'host-compare-left';
const RIGHT = 'host-compare-right';
const SPELLED = 'host-compare-spelled';
const BASE = '/host-compare';
const HOSTILE = HOSTILE_NAMES.rtlOverride;

const labelOf = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : item.label?.label ?? '');

describe('Compare With… on two servers', function () {
  this.timeout(120000);
  let s: TestApi;
  let second: ZkCluster;
  let left: OtherClient;
  let right: OtherClient;

  before(async () => {
    s = await services();
    second = await startStandalone({ adminServer: false });
    [left, right] = await Promise.all([connectOtherClient(testZk()), connectOtherClient(second.connectString)]);
    await left.removeRecursive(BASE).catch(() => undefined);
    for (const client of [left, right]) {
      await client.mkdirp(`${BASE}/app`);
      await client.create(`${BASE}/app/same`, 'same');
    }
    await left.create(`${BASE}/app/${HOSTILE}`, 'port=1\nhost=a\n');
    await right.create(`${BASE}/app/${HOSTILE}`, 'port=2\nhost=a\n');
    await left.create(`${BASE}/app/onlyLeft`, 'l');
    await right.create(`${BASE}/app/${HOSTILE_NAMES.icons}`, 'r');
    await s.commands.addConnection({ id: LEFT, name: 'Compare left', connectString: testZk() });
    await s.commands.addConnection({ id: RIGHT, name: 'Compare right', connectString: second.connectString });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await left?.removeRecursive(BASE).catch(() => undefined);
    left?.close();
    right?.close();
    await s.commands.removeConnection(LEFT, true);
    await s.commands.removeConnection(RIGHT, true);
    await second?.stop();
  });

  it('shows the differences as a tree by kind, names inert, and opens a data difference in the diff editor', async () => {
    const result = (await s.commands.compareWith({ connectionId: LEFT, path: `${BASE}/app` }, { other: { connectionId: RIGHT, path: `${BASE}/app` } }))!;
    assert.deepStrictEqual(result.differences.map((d) => `${d.kind} ${d.path}`).sort(),
      [`data /${HOSTILE}`, 'onlyLeft /onlyLeft', `onlyRight /${HOSTILE_NAMES.icons}`].sort());

    const view = s.compareResults;
    const top = view.getChildren();
    const groups = top.filter((i): i is Extract<CompareItem, { kind: 'group' }> => i.kind === 'group').map((g) => g.of);
    assert.deepStrictEqual(groups, ['onlyLeft', 'onlyRight', 'data']);
    const rows = top.flatMap((item) => [item, ...view.getChildren(item)]).map((item) => view.getTreeItem(item));
    for (const row of rows) {
      assert.ok(!RAW_HIDDEN.test(labelOf(row)) && !RAW_HIDDEN.test(String(row.description ?? '')), `inert: ${JSON.stringify(labelOf(row))}`);
    }
    const dataRow = rows.find((row) => labelOf(row).startsWith('/invoice-'));
    assert.strictEqual(labelOf(dataRow!), '/invoice-[U+202E]gnp.exe');
    assert.strictEqual((dataRow!.iconPath as vscode.ThemeIcon).id, 'diff-modified');

    // The row's own command, as a click runs it.
    await vscode.commands.executeCommand(dataRow!.command!.command, ...(dataRow!.command!.arguments ?? []));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.ok(!RAW_HIDDEN.test(tab.label), `title inert: ${JSON.stringify(tab.label)}`);
    assert.match(tab.label, /invoice-\[U\+202E\]gnp\.exe \(Compare left: .* ↔ Compare right: .*\)/);
    const input = tab.input;
    assert.strictEqual(input.original.scheme, 'zooscope-compare');
    const [original, modified] = await Promise.all([vscode.workspace.openTextDocument(input.original), vscode.workspace.openTextDocument(input.modified)]);
    assert.strictEqual(original.getText(), 'port=1\nhost=a\n');
    assert.strictEqual(modified.getText(), 'port=2\nhost=a\n');
    // Read-only: no file system may write the scheme (a content provider's documents cannot be saved).
    assert.notStrictEqual(vscode.workspace.fs.isWritableFileSystem('zooscope-compare'), true);
  });

  it('the plan views (copy, mirror, import) show a hostile path as one visible, inert line', () => {
    // Paths from an export file may hold what the server refuses (a line break); a live one may hold U+202E.
    const hostile = ['/t/a\n## Forged\n- /victim', '/t/invoice-\u202Egnp.exe', '/t/$(error) spoof', '/t/[x](command:y)'];
    const counts = { create: hostile.length, setData: 0, setAcl: 0, delete: 1, skip: 0, unchanged: 0 };
    const plan: CopyPlan = {
      sourceRoot: '/s', targetRoot: '/t', mirror: true, acls: false, aclChanges: [], skipped: [], counts,
      writes: hostile.map((path) => ({ action: 'create', path, data: null })), deletes: [{ action: 'delete', path: '/t/old\u202E', version: 0 }],
    };
    // An import's plan names the export file as its source.
    for (const text of [planDocument(plan, 'left: /s', 'right: /t\u202E'), planDocument({ ...plan, mirror: false }, 'export\n- /forged.json', '/t')]) {
      const lines = text.split('\n');
      for (const line of lines) {
        assert.ok(!RAW_HIDDEN.test(line), `no raw hidden character: ${JSON.stringify(line)}`);
        assert.ok(!VSCODE_LINK.test(line), `no link: ${JSON.stringify(line)}`);
      }
      assert.ok(!lines.includes('- /victim') && !lines.includes('## Forged') && !lines.includes('- /forged.json'), text);
      assert.ok(lines.some((l) => l.startsWith('- /t/a[U+000A]## Forged[U+000A]- /victim')), text);
      assert.ok(lines.some((l) => l.startsWith('- /t/invoice-[U+202E]gnp.exe')), text);
      assert.ok(lines.some((l) => l.startsWith('- /t/$(error) spoof')), text);
    }
  });

  it('Mirror To… a second connection to the same server, spelled another way, into its own source is refused; nothing written', async () => {
    const spelled = testZk().startsWith('127.0.0.1:') ? testZk().replace('127.0.0.1:', 'localhost:') : testZk().replace(/^localhost:/, '127.0.0.1:');
    assert.notStrictEqual(spelled, testZk());
    await s.commands.addConnection({ id: SPELLED, name: 'Compare spelled', connectString: spelled });
    try {
      const refused = (await s.commands.mirrorTo({ connectionId: LEFT, path: `${BASE}/app` }, { target: { connectionId: SPELLED, path: `${BASE}/app/inner` }, confirmed: true }))!;
      assert.strictEqual(refused.plan.problem?.code, 'overlap');
      assert.strictEqual(refused.report, undefined);
      assert.strictEqual(await existsVia(left, `${BASE}/app/inner`), false);
    } finally {
      await s.commands.removeConnection(SPELLED, true);
    }
  });

  it('Copy To… another connection applies its plan; the two then compare equal', async () => {
    const copied = (await s.commands.copyTo({ connectionId: LEFT, path: `${BASE}/app` }, { target: { connectionId: RIGHT, path: `${BASE}/copy` }, confirmed: true }))!;
    assert.strictEqual(copied.report?.created, 4);
    const again = (await s.commands.compareWith({ connectionId: LEFT, path: `${BASE}/app` }, { other: { connectionId: RIGHT, path: `${BASE}/copy` } }))!;
    assert.strictEqual(again.equal, true);
  });
});
