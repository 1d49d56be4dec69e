// Export and import as a person does them: Export Subtree… through the save dialog, then Import… through the open
// dialog (VS Code's simple file dialog: a quick input that takes a path), re-applying the exported ACLs. The dry
// run's preview lists one line per change (creates, data changes, ACL changes) before anything is written; the
// import then writes exactly that (the plan of Copy To…, with the file as its source). Screenshot: import-preview.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { E2eTest, escapeRegExp, Workbench } from './workbench';

const CONNECTION = 'E2E ZooKeeper';
const { Permission } = zookeeper;

function setAcl(other: OtherClient, path: string, acls: zookeeper.ACL[]): Promise<void> {
  return new Promise((resolve, reject) => other.client.setACL(path, acls, -1, (e) => (e ? reject(e) : resolve())));
}

function getAcl(other: OtherClient, path: string): Promise<string[]> {
  return new Promise((resolve, reject) => other.client.getACL(path, (e, acls) => (e ? reject(e) : resolve(acls.map((a) => {
    const { permission, id } = a as unknown as { permission: number; id: { scheme: string; id: string } };
    return `${id.scheme}:${id.id}:${permission}`;
  }).sort()))));
}

/** The active editor's lines, top to bottom (the view renders them in any order). */
async function editorLines(wb: Workbench): Promise<string[]> {
  return wb.page.evaluate(() => {
    const lines = [...document.querySelectorAll<HTMLElement>('.editor-group-container.active .monaco-editor .view-lines .view-line')];
    return lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' '));
  });
}

/** The lines of section `## <heading> (n)` of a Markdown report, and n. */
function section(lines: string[], heading: string): { count: number; items: string[] } {
  const at = lines.findIndex((l) => new RegExp(`^## ${escapeRegExp(heading)} \\(\\d+\\)$`).test(l));
  assert.ok(at >= 0, `no section "${heading}" in:\n${lines.join('\n')}`);
  const items: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.startsWith('## ')) break;
    if (line.startsWith('- ')) items.push(line.slice(2));
  }
  return { count: Number(/\((\d+)\)$/.exec(lines[at])?.[1]), items };
}

export const tests: E2eTest[] = [
  {
    name: 'transfer: export a subtree through the save dialog, import it elsewhere with its ACLs: the preview lists each change, then the import makes them',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-e2e-transfer-'));
      const BASE = `/e2e-transfer-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      const local = new zookeeper.Id('ip', '127.0.0.1');
      const anyone = new zookeeper.Id('world', 'anyone');
      try {
        // The source: an open node, a read-only one (for everybody but this machine) and one only this machine sees.
        await other.mkdirp(`${BASE}/src`);
        await other.create(`${BASE}/src/app.cfg`, 'a=1');
        await other.create(`${BASE}/src/ro`, 'frozen');
        await setAcl(other, `${BASE}/src/ro`, [new zookeeper.ACL(Permission.READ, anyone), new zookeeper.ACL(Permission.ALL, local)]);
        await other.create(`${BASE}/src/admin`, 'secret');
        await setAcl(other, `${BASE}/src/admin`, [new zookeeper.ACL(Permission.ALL, local)]);
        // The target already holds an older, open `ro`.
        await other.mkdirp(`${BASE}/copy`);
        await other.create(`${BASE}/copy/ro`, 'old');

        const wb = await ctx.open({ workspaceFolder: folder, settings: { 'zooscope.connections': [{ id: 'e2e', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.connectRow(CONNECTION);
        await wb.expandRow(BASE.slice(1));

        // Export: the save dialog proposes a folder outside the workspace; the test answers with one inside it.
        const file = path.join(folder, 'src.zooscope.json');
        await wb.contextMenu(wb.explorerRow('src'), 'Export Subtree…');
        await wb.answerFileDialog(new RegExp(`Export ${escapeRegExp(BASE)}/src`), file);
        await wb.notification(/Exported 4 nodes from/).waitFor({ timeout: 30000 });
        const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: { path: string; acl?: unknown[] }[] };
        assert.deepStrictEqual(exported.nodes.map((n) => n.path).sort(), [`${BASE}/src`, `${BASE}/src/admin`, `${BASE}/src/app.cfg`, `${BASE}/src/ro`]);

        // Import into BASE/copy, re-applying the ACLs.
        await wb.contextMenu(wb.explorerRow('copy'), 'Import…');
        await wb.answerFileDialog(/Import into ZooKeeper/, file);
        await wb.answerInput(/Where the export's root/, `${BASE}/copy`);
        await wb.pickItem('Re-apply the exported ACLs');

        const dialog = wb.page.locator('.monaco-dialog-box').filter({ hasText: `Import into ${BASE}/copy?` });
        await dialog.waitFor({ timeout: 30000 });
        await wb.page.locator('.editor-group-container.active .tab.active', { hasText: 'Import preview' }).waitFor({ timeout: 10000 });
        await wb.page.locator('.monaco-editor .view-lines', { hasText: 'Nothing has been written yet.' }).first().waitFor({ timeout: 10000 });
        const lines = await editorLines(wb);
        console.log(`  preview:\n${lines.map((l) => `    ${l}`).join('\n')}`);
        assert.ok(lines[0].startsWith('# Import plan: ') && lines[0].endsWith(`src.zooscope.json → ${BASE}/copy`), lines[0]);
        assert.ok(lines.includes('2 to create, 1 with data to set, 2 with ACLs to set, 0 skipped'), 'the counts line');
        const create = section(lines, 'Create');
        assert.deepStrictEqual(create.items.slice().sort(), [`${BASE}/copy/admin (6 bytes)`, `${BASE}/copy/app.cfg (3 bytes)`]);
        assert.strictEqual(create.count, 2);
        assert.deepStrictEqual(section(lines, 'Change data'), { count: 1, items: [`${BASE}/copy/ro: 3 bytes → 6 bytes`] });
        const acl = section(lines, 'Set ACL');
        assert.strictEqual(acl.count, 2, 'one ACL line per node whose ACL changes');
        assert.deepStrictEqual(acl.items.slice().sort(), [
          `${BASE}/copy/admin: world:anyone:cdrwa → ip:127.0.0.1:cdrwa`,
          `${BASE}/copy/ro: world:anyone:cdrwa → world:anyone:r, ip:127.0.0.1:cdrwa`,
        ]);
        const headings = lines.filter((l) => l.startsWith('## '));
        assert.deepStrictEqual(headings, ['## Create (2)', '## Change data (1)', '## Set ACL (2)'], 'only sections that list something');
        // The confirmation names the ACL changes too, not only the document behind it.
        assert.match(await dialog.innerText(), /2 to create, 1 with data to set, 2 with ACLs to set, 0 skipped/);
        await wb.screenshot('import-preview');

        await dialog.locator('a.monaco-button', { hasText: /^Import$/ }).click();
        await wb.notification(new RegExp(`${escapeRegExp(BASE)}/copy: 2 created, 1 data changed, 2 ACLs set, 0 deleted, 0 refused`)).waitFor({ timeout: 30000 });
        assert.strictEqual((await other.getData(`${BASE}/copy/ro`)).data.toString(), 'frozen');
        assert.deepStrictEqual(await getAcl(other, `${BASE}/copy/ro`), [`ip:127.0.0.1:${Permission.ALL}`, `world:anyone:${Permission.READ}`]);
        assert.deepStrictEqual(await getAcl(other, `${BASE}/copy/admin`), [`ip:127.0.0.1:${Permission.ALL}`]);
        assert.deepStrictEqual(await getAcl(other, `${BASE}/copy/app.cfg`), [`world:anyone:${Permission.ALL}`]);
        await wb.screenshot('import-done');
      } finally {
        await other.removeRecursive(BASE).catch(() => undefined);
        other.close();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  },
];
