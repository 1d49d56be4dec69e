// The hostile fixture as a person sees it in a real VS Code: names with links, icon syntax and bidi controls show as
// text in the tree, the notification after Delete Recursively (no link to click), the status bar after Create
// Node (no icon drawn from a name); and Enter alone never deletes other sessions' live nodes. Screenshots:
// test-results/screenshots/hostile-*.png.
import * as assert from 'node:assert';
import * as zookeeper from 'node-zookeeper-client';
import { visibleText } from '../../src/shared/visibleText';
import { HOSTILE_NAMES } from '../support/fixtures/hostileFixture';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { E2eTest, Workbench } from './workbench';

const CONNECTION = 'E2E Hostile';
const RAW_BIDI = /[\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/;

const exists = (other: OtherClient, path: string) => new Promise<boolean>((resolve, reject) =>
  other.client.exists(path, (e, stat) => (e ? reject(e) : resolve(!!stat))));

async function open(ctx: Parameters<E2eTest['run']>[0], tag: string, seed: (other: OtherClient, base: string) => Promise<void>):
  Promise<{ wb: Workbench; other: OtherClient; base: string }> {
  assert.ok(ctx.zk, 'no test ZooKeeper');
  const base = `/e2e-hostile-${tag}-${Date.now().toString(36)}`;
  const other = await connectOtherClient(ctx.zk);
  await other.mkdirp(base);
  await seed(other, base);
  const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-hostile', name: CONNECTION, connectString: ctx.zk }] } });
  await wb.openZooScope();
  await wb.connectRow(CONNECTION);
  await wb.expandRow(base.slice(1));
  return { wb, other, base };
}

// Each test seeds its own subtree and leaves only what resetForNextTest undoes: one workbench for all of them.
export const shareWorkbench = true;

export const tests: E2eTest[] = [
  {
    name: 'hostile: names stay text in the tree, the delete notification and the status bar',
    timeoutMs: 240000,
    async run(ctx) {
      const names = [HOSTILE_NAMES.rtlOverride, HOSTILE_NAMES.icons, HOSTILE_NAMES.markup];
      const { wb, other, base } = await open(ctx, 'text', async (o, b) => {
        for (const name of names) await o.mkdirp(`${b}/${name}`);
        await o.mkdirp(`${b}/${HOSTILE_NAMES.commandLink}/child`);
      });
      try {
        const sidebar = wb.page.locator('.part.sidebar');
        for (const name of [...names, HOSTILE_NAMES.commandLink]) await wb.explorerRow(visibleText(name)).waitFor({ timeout: 20000 });
        assert.doesNotMatch(await sidebar.innerText(), RAW_BIDI, 'no raw bidi character in the side bar');
        assert.strictEqual(await sidebar.locator('.monaco-list-row .label-name .codicon, .monaco-list-row .label-description .codicon').count(), 0, 'no icon drawn from a name');
        assert.strictEqual(await sidebar.locator('.monaco-list-row img, .monaco-list-row script, .monaco-list-row svg[onload]').count(), 0, 'no markup rendered');
        await wb.screenshot('hostile-tree');

        await wb.contextMenu(wb.explorerRow(HOSTILE_NAMES.commandLink), 'Delete Recursively…');
        const dialog = wb.page.locator('.monaco-dialog-box');
        await dialog.waitFor({ timeout: 15000 });
        await wb.screenshot('hostile-delete-dialog');
        await dialog.locator('a.monaco-button', { hasText: /^Delete/ }).first().click();
        const toast = wb.page.locator('.notifications-toasts .notification-list-item', { hasText: /\(command/ }).first();
        await toast.waitFor({ timeout: 20000 });
        assert.strictEqual(await toast.locator('.notification-list-item-message a').count(), 0, 'the notification holds no link');
        assert.match(await toast.innerText(), /\[run\]\u2060?\(command:workbench\.action\.terminal\.new\)/, 'the name reads literally');
        await wb.screenshot('hostile-delete-notification');
        assert.strictEqual(await exists(other, `${base}/${HOSTILE_NAMES.commandLink}`), false);

        await wb.contextMenu(wb.explorerRow(base.slice(1)), 'Create Node…');
        await wb.answerInput(/Name of the new node/, `made ${HOSTILE_NAMES.icons}`);
        await wb.pickItem('Persistent');
        await wb.answerInput(/Initial data of/, '');
        const message = wb.page.locator('.part.statusbar .statusbar-item', { hasText: /spoof/ }).first();
        await message.waitFor({ timeout: 20000 });
        assert.strictEqual(await message.locator('.codicon-error, .codicon-shield').count(), 0, 'no icon drawn from the name in the status bar');
        assert.match(await message.innerText(), /\$\(error\) \$\(shield\) spoof/);
        await wb.screenshot('hostile-status-bar');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
  {
    name: 'hostile: quick-input titles, prompts and quick-pick items show names and ACL ids as text',
    timeoutMs: 240000,
    async run(ctx) {
      const parent = `${HOSTILE_NAMES.commandLink} ${HOSTILE_NAMES.icons}`;
      const { wb, other, base } = await open(ctx, 'quick', async (o, b) => {
        await o.mkdirp(`${b}/${parent}`);
        const acl = [
          new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id('world', 'anyone')),
          new zookeeper.ACL(zookeeper.Permission.READ, new zookeeper.Id('digest', '$(error) spoof:AAAAAAAAAAAAAAAAAAAAAAAAAAA=')),
        ];
        await new Promise<void>((resolve, reject) => o.client.setACL(`${b}/${parent}`, acl, -1, (e) => (e ? reject(e) : resolve())));
      });
      const widget = wb.page.locator('.quick-input-widget');
      const noActiveContent = async (what: string) => {
        assert.strictEqual(await widget.locator('.quick-input-title .codicon-error, .quick-input-message .codicon-error, .quick-input-list .codicon-error, .quick-input-list .codicon-shield').count(), 0, `${what}: no icon drawn from a name`);
        assert.strictEqual(await widget.locator('.quick-input-message a, .quick-input-title a').count(), 0, `${what}: no link`);
        assert.doesNotMatch(await widget.innerText(), RAW_BIDI);
      };
      try {
        const row = wb.explorerRow(visibleText(parent));
        await wb.contextMenu(row, 'Create Node…');
        await widget.filter({ hasText: /Name of the new node/ }).waitFor({ timeout: 15000 });
        assert.match(await widget.locator('.quick-input-title').innerText(), /\$\(error\) \$\(shield\) spoof/);
        await noActiveContent('Create Node title');
        await wb.screenshot('hostile-quick-input-title');
        await wb.answerInput(/Name of the new node/, 'child');
        await wb.pickItem('Persistent');
        await widget.filter({ hasText: /Initial data of/ }).waitFor({ timeout: 15000 });
        assert.match(await widget.locator('.quick-input-message').innerText(), /\[run\]\u2060?\(command:workbench\.action\.terminal\.new\) \$\(error\)/);
        await noActiveContent('data prompt');
        await wb.screenshot('hostile-quick-input-prompt');
        await wb.answerInput(/Initial data of/, '');
        await wb.explorerRow('child').waitFor({ timeout: 20000 });

        await wb.contextMenu(wb.explorerRow(visibleText(parent)), 'Edit ACL…');
        await widget.locator('.quick-input-list .monaco-list-row', { hasText: /digest:\$\(error\) spoof/ }).first().waitFor({ timeout: 15000 });
        await noActiveContent('ACL quick pick');
        await wb.screenshot('hostile-quick-pick');
        await wb.page.keyboard.press('Escape');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
  {
    name: 'hostile: Enter alone does not delete a subtree holding another session\'s live lock',
    timeoutMs: 240000,
    async run(ctx) {
      const { wb, other, base } = await open(ctx, 'enter', async (o, b) => {
        await o.mkdirp(`${b}/locks`);
        await new Promise<void>((resolve, reject) => o.client.create(`${b}/locks/lock-0000000001`, Buffer.alloc(0), zookeeper.CreateMode.EPHEMERAL, (e) => (e ? reject(e) : resolve())));
      });
      try {
        await wb.contextMenu(wb.explorerRow('locks'), 'Delete Recursively…');
        const dialog = wb.page.locator('.monaco-dialog-box');
        await dialog.waitFor({ timeout: 15000 });
        await wb.page.keyboard.press('Enter');
        const box = wb.page.locator('.quick-input-widget').filter({ hasText: /Type 1 to delete them anyway/ });
        await box.waitFor({ timeout: 15000 });
        await wb.screenshot('hostile-typed-confirmation');
        // A wrong answer is refused in place; Enter on an empty box keeps everything.
        await wb.page.keyboard.type('2');
        await wb.page.locator('.quick-input-widget .quick-input-message', { hasText: /Type 1 to confirm, or press Escape/ }).first().waitFor({ timeout: 10000 });
        await wb.page.keyboard.press('Enter');
        await wb.screenshot('hostile-typed-confirmation-wrong');
        await wb.page.keyboard.press('Control+A');
        await wb.page.keyboard.press('Backspace');
        await wb.page.keyboard.press('Enter');
        await box.waitFor({ state: 'hidden', timeout: 10000 });
        assert.strictEqual(await exists(other, `${base}/locks/lock-0000000001`), true, 'the live lock is still there');
        assert.strictEqual(await exists(other, `${base}/locks`), true);
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
];
