// Editing znodes as a person does: Create Node through the dialog, Open Data, edit and save; a save refused because
// another client changed the node (Compare shows a diff, Overwrite writes); Delete Recursively with its preview in
// the modal dialog and the report. Screenshots of each step go to test-results/screenshots/edit-*.png.
import * as assert from 'node:assert';
import * as zookeeper from 'node-zookeeper-client';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';
import { E2eTest, escapeRegExp, Workbench } from './workbench';

const CONNECTION = 'E2E Edit';

function dataOf(other: OtherClient, path: string): Promise<{ data: string; version: number } | undefined> {
  return new Promise((resolve, reject) => other.client.getData(path, (e, d, stat) => {
    if (e) return (e as { name?: string }).name === 'NO_NODE' ? resolve(undefined) : reject(e);
    resolve({ data: d ? d.toString('utf8') : '', version: stat.version });
  }));
}

/** The editor whose tab is `name` is active and shows `text`. When it is not, says what the workbench shows instead. */
async function editorShows(wb: Workbench, name: string, text: string | RegExp): Promise<void> {
  await wb.page.locator('.tabs-container .tab.active', { hasText: name }).first().waitFor({ timeout: 20000 })
    .catch(async (error: unknown) => { throw new Error(`no active tab "${name}": ${await onScreen(wb)}`, { cause: error }); });
  await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines', { hasText: text }).first().waitFor({ timeout: 20000 });
}

/** The tabs and the notifications on screen, for a failure's message. */
async function onScreen(wb: Workbench): Promise<string> {
  const texts = (selector: string) => wb.page.locator(selector).allInnerTexts().catch(() => ['?']);
  const tabs = await texts('.tabs-container .tab');
  const toasts = await texts('.notifications-toasts .notification-toast .notification-list-item-message');
  return `tabs [${tabs.join(' | ')}], notifications [${toasts.join(' | ')}]`;
}

/** What the product says when a row's menu command lost its row to a redraw (src/vscode/core/commands.ts). */
const ROW_REDRAWN = /The tree was redrawn as you chose this command/;

/**
 * Open Data from the row's menu, then its editor is active. The product refuses a row command whose row the tree
 * redrew between the right click and the choice, and says so: a person chooses it again, and so does this (once,
 * noted in the output); any other outcome fails here.
 */
async function openDataFromMenu(wb: Workbench, name: string): Promise<void> {
  const tab = wb.page.locator('.tabs-container .tab.active', { hasText: name }).first();
  const redrawn = wb.notification(ROW_REDRAWN);
  await wb.contextMenu(wb.explorerRow(name), 'Open Data');
  const outcome = await Promise.race([
    tab.waitFor({ timeout: 20000 }).then(() => 'opened'),
    redrawn.waitFor({ timeout: 20000 }).then(() => 'redrawn'),
  ]).catch(() => 'nothing');
  if (outcome === 'redrawn') {
    console.log(`#   note: Open Data on ${name}: the product said its row was redrawn; chosen again`);
    await wb.screenshot('edit-open-data-row-redrawn');
    await wb.runCommand('Notifications: Clear All Notifications');
    await wb.contextMenu(wb.explorerRow(name), 'Open Data');
  }
}

async function replaceEditorText(wb: Workbench, text: string): Promise<void> {
  await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await wb.page.keyboard.press('Control+A');
  await wb.page.keyboard.type(text);
}

/** Seeds `/e2e-edit-<tag>-…` (before the workbench lists it), opens the workbench and expands the connection. */
async function open(ctx: Parameters<E2eTest['run']>[0], tag: string, seed: (other: OtherClient, base: string) => Promise<void> = async () => undefined):
  Promise<{ wb: Workbench; other: OtherClient; base: string }> {
  assert.ok(ctx.zk, 'no test ZooKeeper');
  const base = `/e2e-edit-${tag}-${Date.now().toString(36)}`;
  const other = await connectOtherClient(ctx.zk);
  await other.mkdirp(base);
  await seed(other, base);
  const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-edit', name: CONNECTION, connectString: ctx.zk }], 'workbench.editor.enablePreview': false } });
  await wb.openZooScope();
  await wb.connectRow(CONNECTION);
  return { wb, other, base };
}

// Each test seeds its own subtree and leaves only what resetForNextTest undoes: one workbench for all of them.
export const shareWorkbench = true;

export const tests: E2eTest[] = [
  {
    name: 'edit: create a node through the dialog, open its data, edit and save',
    timeoutMs: 240000,
    async run(ctx) {
      const { wb, other, base } = await open(ctx, 'create');
      try {
        await wb.contextMenu(wb.explorerRow(base.slice(1)), 'Create Node…');
        const nameInput = wb.page.locator('.quick-input-widget').filter({ hasText: /Name of the new node/ }).locator('input').first();
        await nameInput.fill('bad/name');
        // Checked as typed: the message replaces the prompt.
        await wb.page.locator('.quick-input-widget .quick-input-message', { hasText: /The character "\/" at position 4/ }).first().waitFor({ timeout: 10000 });
        await wb.screenshot('edit-create-name-invalid');
        await wb.page.locator('.quick-input-widget input').first().fill('feature.cfg');
        await wb.page.locator('.quick-input-widget .quick-input-message', { hasText: /Name of the new node/ }).first().waitFor({ timeout: 10000 });
        await wb.page.locator('.quick-input-widget input').first().press('Enter');
        await wb.page.locator('.quick-input-widget', { hasText: /vanishes when the connection closes/ }).waitFor({ timeout: 10000 });
        await wb.screenshot('edit-create-mode');
        await wb.pickItem('Persistent');
        await wb.page.locator('.quick-input-widget').filter({ hasText: /Initial data of/ }).waitFor({ timeout: 10000 });
        await wb.answerInput(/Initial data of/, 'enabled=false');
        // Revealed and selected.
        await wb.page.locator('.part.sidebar .monaco-list-row[aria-selected="true"]')
          .filter({ has: wb.page.locator('.label-name', { hasText: /^feature\.cfg$/ }) }).first().waitFor({ timeout: 20000 });
        assert.deepStrictEqual(await dataOf(other, `${base}/feature.cfg`), { data: 'enabled=false', version: 0 });
        await wb.screenshot('edit-created');

        await openDataFromMenu(wb, 'feature.cfg');
        await editorShows(wb, 'feature.cfg', 'enabled=false');
        await wb.screenshot('edit-open-data');
        await replaceEditorText(wb, 'enabled=true');
        await wb.page.keyboard.press('Control+S');
        await eventually(async () => (await dataOf(other, `${base}/feature.cfg`))?.data === 'enabled=true', 15000, 'saved to ZooKeeper');
        await wb.page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached', timeout: 10000 });
        await wb.screenshot('edit-saved');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
  {
    name: 'edit: a save after another client changed the node is refused; Compare shows a diff, Overwrite writes',
    timeoutMs: 240000,
    async run(ctx) {
      const { wb, other, base } = await open(ctx, 'conflict');
      try {
        await other.create(`${base}/settings`, 'owner=alice');
        await wb.runCommand('ZooScope: Open Data');
        await wb.answerInput(/Absolute znode path/, `${base}/settings`);
        await editorShows(wb, 'settings', 'owner=alice');
        await replaceEditorText(wb, 'owner=mine');
        // The same size as the edit: VS Code's own check (mtime and size) would let this through.
        await other.setData(`${base}/settings`, 'owner=bob!');
        await wb.page.keyboard.press('Control+S');
        const conflict = new RegExp(`${escapeRegExp(base)}/settings was changed by another client since version 0.*Compare shows`);
        await wb.notification(conflict).waitFor({ timeout: 20000 });
        await wb.settled(wb.notification(conflict));
        assert.strictEqual((await dataOf(other, `${base}/settings`))?.data, 'owner=bob!', 'nothing overwritten');
        await wb.screenshot('edit-conflict');

        await wb.clickNotificationButton(conflict, 'Compare');
        const diff = wb.page.locator('.monaco-diff-editor').first();
        await diff.waitFor({ timeout: 20000 });
        await diff.locator('.editor.original .view-lines', { hasText: 'owner=bob!' }).first().waitFor({ timeout: 20000 });
        await diff.locator('.editor.modified .view-lines', { hasText: 'owner=mine' }).first().waitFor({ timeout: 20000 });
        await wb.screenshot('edit-conflict-compare');

        // Back in the document, save again and choose Overwrite this time.
        await wb.page.keyboard.press('Control+W');
        await editorShows(wb, 'settings', 'owner=mine');
        await wb.page.keyboard.press('Control+S');
        await wb.clickNotificationButton(conflict, 'Overwrite');
        await eventually(async () => (await dataOf(other, `${base}/settings`))?.data === 'owner=mine', 15000, 'overwritten after the choice');
        assert.strictEqual((await dataOf(other, `${base}/settings`))?.version, 2);
        await wb.screenshot('edit-conflict-overwritten');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
  {
    name: 'edit: delete recursively with a preview in the modal dialog, then a report',
    timeoutMs: 240000,
    async run(ctx) {
      let lock = '';
      const { wb, other, base } = await open(ctx, 'delete', async (o, b) => {
        await o.mkdirp(`${b}/doomed/a/deep`);
        await o.mkdirp(`${b}/doomed/b`);
        lock = await o.create(`${b}/doomed/b/lock-`, 'held', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
      });
      try {
        const owner = '0x' + other.client.getSessionId().readBigUInt64BE(0).toString(16);
        await wb.expandRow(base.slice(1));
        await wb.contextMenu(wb.explorerRow('doomed'), 'Delete Recursively…');
        const dialog = wb.page.locator('.monaco-dialog-box').filter({ hasText: /and everything below it: 5 nodes\?/ });
        await dialog.waitFor({ timeout: 20000 });
        const text = await dialog.innerText();
        assert.ok(text.includes(`${lock} (owner session ${owner})`), text);
        assert.match(text, /ephemeral node of ANOTHER session/);
        // The detail's lines are ours: real line breaks, not written out as hidden characters.
        assert.ok(!text.includes('[U+000A]'), text);
        await wb.screenshot('edit-delete-preview');
        await dialog.locator('a.monaco-button', { hasText: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden', timeout: 10000 });
        assert.ok(await dataOf(other, `${base}/doomed`), 'Cancel deletes nothing');

        await wb.contextMenu(wb.explorerRow('doomed'), 'Delete Recursively…');
        await dialog.waitFor({ timeout: 20000 });
        await dialog.locator('a.monaco-button', { hasText: 'Delete 5 Nodes' }).click();
        // Another session's live lock is among them: the number of such nodes must be typed.
        await wb.page.locator('.quick-input-widget', { hasText: /Other sessions hold 1 of these nodes right now/ }).waitFor({ timeout: 15000 });
        await wb.screenshot('edit-delete-typed-confirmation');
        await wb.answerInput(/Type 1 to delete them anyway/, '1');
        const done = /Deleted .*doomed and everything below it: 5 nodes/;
        await wb.notification(done).waitFor({ timeout: 30000 });
        await wb.settled(wb.notification(done));
        await wb.explorerRow('doomed').waitFor({ state: 'detached', timeout: 15000 });
        assert.strictEqual(await dataOf(other, `${base}/doomed`), undefined);
        await wb.screenshot('edit-deleted');
        await wb.clickNotificationButton(done, 'Show Report');
        await wb.page.locator('.monaco-editor .view-lines', { hasText: 'Deleted: 5' }).first().waitFor({ timeout: 20000 });
        await wb.screenshot('edit-delete-report');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
  {
    name: 'edit: ACL through the quick inputs, a NoAuth save offering Add Credentials…, and Search',
    timeoutMs: 240000,
    async run(ctx) {
      const { wb, other, base } = await open(ctx, 'acl', async (o, b) => {
        await o.create(`${b}/guarded`, 'v1');
      });
      try {
        await wb.expandRow(base.slice(1));
        // 1. Edit ACL: everyone keeps read + admin, alice (digest from user + password) gets everything.
        await wb.contextMenu(wb.explorerRow('guarded'), 'Edit ACL…');
        await wb.pickItem('world:anyone');
        await wb.pickItem('Change Permissions…');
        await wb.answerInput(/Letters of cdrwa/, 'ra');
        await wb.pickItem('Add Entry…');
        await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'a user and password' }).first().click();
        await wb.answerInput(/Digest user name/, 'alice');
        await wb.answerInput(/Password of alice/, 'pw');
        await wb.answerInput(/Letters of cdrwa/, 'cdrwa');
        await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: /digest:alice:/ }).first().waitFor({ timeout: 10000 });
        await wb.screenshot('edit-acl-list');
        await wb.pickItem('Save ACL');
        await eventually(async () => {
          const acl = await new Promise<{ id: { scheme: string; id: string } }[]>((resolve, reject) =>
            other.client.getACL(`${base}/guarded`, (e, a) => (e ? reject(e) : resolve(a as never))));
          return acl.length === 2 && acl.some((a) => a.id.scheme === 'digest' && a.id.id.startsWith('alice:'));
        }, 15000, 'ACL saved');

        // 2. Saving without alice's credentials: refused, with "Add Credentials…" on the message; with them it saves.
        await wb.contextMenu(wb.explorerRow('guarded'), 'Open Data');
        await editorShows(wb, 'guarded', 'v1');
        await replaceEditorText(wb, 'v2');
        await wb.page.keyboard.press('Control+S');
        const noAuth = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Not authorized to setData/ })
          .filter({ has: wb.page.locator('a.monaco-button', { hasText: 'Add Credentials…' }) }).first();
        await noAuth.waitFor({ timeout: 20000 });
        await wb.settled(noAuth);
        await wb.screenshot('edit-noauth');
        const button = noAuth.locator('a.monaco-button', { hasText: 'Add Credentials…' }).first();
        await button.focus();
        await button.press('Enter');
        // Digest (addauth on this session) or SASL (saved, reconnects): digest comes first.
        await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'SASL DIGEST-MD5 user' }).first().waitFor({ timeout: 15000 });
        // After the widget's fade-in, so the screenshot shows it as it stays.
        await wb.page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('.quick-input-widget')].some((w) => getComputedStyle(w).opacity === '1' && w.offsetParent !== null));
        await wb.screenshot('edit-add-credentials-kind');
        await wb.pickItem('Digest user');
        await wb.answerInput(/Digest user name/, 'alice');
        await wb.answerInput(/Password of alice/, 'pw');
        await wb.notification(/Added credentials of "alice"/).waitFor({ timeout: 15000 });
        await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
        await wb.page.keyboard.press('Control+S');
        await eventually(async () => (await dataOf(other, `${base}/guarded`))?.data === 'v2', 15000, 'saved with the credentials');
        await wb.screenshot('edit-credentials-saved');

        // 3. Search by name under the base node: results in their view, a click reveals the node.
        await wb.contextMenu(wb.explorerRow(base.slice(1)), 'Search…');
        await wb.answerInput(/Node names to find/, 'guard*');
        await wb.answerInput(/Text to find in the data/, 'v2');
        const hit = wb.page.locator('.part.sidebar .pane', { hasText: 'Search Results' }).locator('.monaco-list-row', { hasText: 'guarded' }).first();
        await hit.waitFor({ timeout: 20000 });
        await wb.page.locator('.part.sidebar .pane', { hasText: 'Search Results' }).getByText(/^1 match in \d+ nodes under/).first().waitFor({ timeout: 20000 });
        await wb.screenshot('edit-search-results');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
];
