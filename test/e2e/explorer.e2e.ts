// The explorer as a person uses it: open the container, connect, expand, watch another client's change appear,
// hover for the stat tooltip, go to a path, open details. Screenshots of each view go to test-results/screenshots.
import * as assert from 'node:assert';
import * as zookeeper from 'node-zookeeper-client';
import type { Locator } from 'playwright-core';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { E2eTest, Workbench } from './workbench';

const CONNECTION = 'E2E ZooKeeper';

const row = (wb: Workbench, name: string): Locator => wb.explorerRow(name);
const expand = (wb: Workbench, name: string): Promise<void> => wb.expandRow(name);

/** Seeds a fresh subtree per test (`/e2e-<tag>`), so tests never see each other's leftovers. */
async function seed(zk: string, tag: string): Promise<{ other: OtherClient; BASE: string }> {
  const BASE = `/e2e-${tag}-${Date.now().toString(36)}`;
  const other = await connectOtherClient(zk);
  await other.mkdirp(`${BASE}/items`);
  for (let i = 1; i <= 12; i++) await other.create(`${BASE}/items/item-${i}`, `value ${i}`);
  await other.mkdirp(`${BASE}/config`);
  await other.create(`${BASE}/config/app.json`, JSON.stringify({ featureFlags: { search: true }, replicas: 3 }, null, 2));
  await other.mkdirp(`${BASE}/locks/orders`);
  for (let i = 0; i < 3; i++) await other.create(`${BASE}/locks/orders/lock-`, `worker-${i}`, zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
  return { other, BASE };
}

function settings(zk: string) {
  return { 'zooscope.connections': [{ id: 'e2e', name: CONNECTION, connectString: zk }] };
}

// Each test seeds its own subtree and leaves only what resetForNextTest undoes: the tests with the connection share
// one workbench (the welcome test, with none, has its own).
export const shareWorkbench = true;

export const tests: E2eTest[] = [
  {
    name: 'welcome view offers "Add Connection" when there is none',
    async run(ctx) {
      const wb = await ctx.open({ settings: { 'zooscope.connections': [] } });
      await wb.openZooScope();
      const button = wb.page.locator('.part.sidebar .welcome-view-content a.monaco-button', { hasText: 'Add Connection' });
      await button.waitFor({ timeout: 20000 });
      await wb.screenshot('explorer-welcome');
    },
  },
  {
    name: 'connect, expand in natural order, and see another client\'s change appear live',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const { other, BASE } = await seed(ctx.zk, 'live');
      try {
        const wb = await ctx.open({ settings: settings(ctx.zk) });
        await wb.openZooScope();
        await expand(wb, CONNECTION);
        await expand(wb, BASE.slice(1));
        await expand(wb, 'items');
        await row(wb, 'item-12').waitFor({ timeout: 20000 });
        const y = async (name: string) => (await row(wb, name).boundingBox())?.y ?? NaN;
        assert.ok(await y('item-2') < await y('item-10'), 'item-2 is listed before item-10');
        assert.ok(await y('item-9') < await y('item-10'), 'item-9 is listed before item-10');
        const statusBar = wb.page.locator('.statusbar-item', { hasText: CONNECTION }).first();
        await statusBar.waitFor({ timeout: 10000 });
        const status = await statusBar.innerText();
        assert.match(status, /connected/);
        assert.match(status, /127\.0\.0\.1:\d+/);
        // The session id is in the entry's accessible label (and tooltip), not its text, which must stay short.
        const label = await statusBar.locator('[aria-label]').first().getAttribute('aria-label');
        assert.match(label ?? '', /Session 0x[0-9a-f]+/);
        await wb.screenshot('explorer-tree');

        const started = Date.now();
        await other.create(`${BASE}/items/item-13`, 'new');
        await row(wb, 'item-13').waitFor({ timeout: 10000 });
        await other.remove(`${BASE}/items/item-1`);
        await row(wb, 'item-1').waitFor({ state: 'detached', timeout: 10000 });
        console.log(`  live update shown after ${Date.now() - started} ms`);
        await wb.screenshot('explorer-live-update');
      } finally {
        other.close();
      }
    },
  },
  {
    name: 'tooltip shows the stat, Go to Path reveals, Show Details opens the data',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const { other, BASE } = await seed(ctx.zk, 'goto');
      try {
        const wb = await ctx.open({ settings: settings(ctx.zk) });
        await wb.openZooScope();
        // The connection is not even expanded yet: Go to Path connects and opens every ancestor.
        await wb.explorerRow(CONNECTION).waitFor({ timeout: 30000 });
        await wb.runCommand('ZooScope: Go to Path…');
        const input = wb.page.locator('.quick-input-widget input');
        await input.waitFor({ timeout: 10000 });
        await input.fill('relative/path');
        await wb.page.locator('.quick-input-widget', { hasText: 'must start with "/"' }).waitFor({ timeout: 10000 });
        await wb.screenshot('go-to-path-invalid');
        await input.fill(`${BASE}/locks/orders/lock-0000000001`);
        await wb.page.keyboard.press('Enter');
        const lockRow = row(wb, 'lock-0000000001');
        await lockRow.waitFor({ timeout: 20000 });
        await wb.page.locator('.part.sidebar .monaco-list-row[aria-selected="true"]')
          .filter({ has: wb.page.locator('.label-name', { hasText: /^lock-0000000001$/ }) }).first().waitFor({ timeout: 10000 });

        await lockRow.hover();
        const hover = wb.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'ephemeralOwner' }).first();
        await hover.waitFor({ timeout: 15000 });
        const text = await hover.innerText();
        for (const field of ['czxid', 'mzxid', 'pzxid', 'ctime', 'mtime', 'cversion', 'aversion', 'dataLength', 'numChildren']) {
          assert.ok(text.includes(field), `tooltip lacks ${field}`);
        }
        const owner = '0x' + other.client.getSessionId().readBigUInt64BE(0).toString(16);
        assert.ok(text.includes(owner), `tooltip lacks the owner session ${owner}`);
        await wb.screenshot('explorer-tooltip');

        await wb.page.mouse.move(700, 600);
        await wb.runCommand('ZooScope: Go to Path…');
        await input.fill(`${BASE}/config/app.json`);
        await wb.page.keyboard.press('Enter');
        const configRow = row(wb, 'app.json');
        await configRow.waitFor({ timeout: 20000 });
        await configRow.click({ button: 'right' });
        // Focus the menu entry and activate it with the keyboard: a click racing the menu's opening is lost.
        const menuEntry = wb.page.locator('.monaco-menu .action-label', { hasText: 'Show Details' }).first();
        await menuEntry.waitFor({ timeout: 10000 });
        await menuEntry.hover();
        await wb.page.keyboard.press('Enter');
        await wb.page.locator('.monaco-editor .view-lines', { hasText: 'featureFlags' }).first().waitFor({ timeout: 20000 });
        await wb.page.locator('.monaco-editor .view-lines', { hasText: 'dataLength' }).first().waitFor({ timeout: 5000 });
        await wb.screenshot('details');
      } finally {
        other.close();
      }
    },
  },
  {
    name: 'a click previews a leaf\'s data (the next click replaces it, focus stays in the tree), a double click keeps it',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const { other, BASE } = await seed(ctx.zk, 'click');
      try {
        const wb = await ctx.open({ settings: settings(ctx.zk) });
        await wb.openZooScope();
        await expand(wb, CONNECTION);
        await expand(wb, BASE.slice(1));
        await expand(wb, 'config');
        await expand(wb, 'items');
        const tabs = wb.page.locator('.editor-group-container .tabs-container .tab');
        const activeTab = wb.page.locator('.editor-group-container.active .tabs-container .tab.active');
        const inSideBar = () => wb.page.evaluate(() => !!document.activeElement?.closest('.part.sidebar'));

        await row(wb, 'app.json').click();
        await wb.page.locator('.monaco-editor .view-lines', { hasText: 'featureFlags' }).first().waitFor({ timeout: 20000 });
        await activeTab.filter({ hasText: 'app.json' }).locator('.monaco-icon-label.italic').waitFor({ timeout: 10000 });
        assert.ok(await inSideBar(), 'the preview left keyboard focus in the tree');
        await wb.screenshot('explorer-click-preview');

        await row(wb, 'item-3').click();
        await wb.page.locator('.monaco-editor .view-lines', { hasText: 'value 3' }).first().waitFor({ timeout: 20000 });
        await activeTab.filter({ hasText: 'item-3' }).waitFor({ timeout: 10000 });
        assert.strictEqual(await tabs.count(), 1, 'the second click replaced the preview');
        assert.ok(await inSideBar(), 'focus stayed in the tree');

        await row(wb, 'item-4').dblclick();
        await activeTab.filter({ hasText: 'item-4' }).waitFor({ timeout: 20000 });
        await wb.page.locator('.editor-group-container.active .tabs-container .tab.active .monaco-icon-label:not(.italic)', { hasText: 'item-4' })
          .waitFor({ timeout: 10000 });
        await wb.page.locator('.monaco-editor .view-lines', { hasText: 'value 4' }).first().waitFor({ timeout: 20000 });
        await wb.screenshot('explorer-double-click-kept');

        // A node without data shows its stat.
        await row(wb, 'items').locator('.monaco-tl-twistie').click();
        await row(wb, 'locks').waitFor({ timeout: 10000 });
        await other.create(`${BASE}/config/empty`);
        await row(wb, 'empty').click();
        await wb.page.locator('.monaco-editor .view-lines', { hasText: 'numChildren' }).first().waitFor({ timeout: 20000 });
        await wb.screenshot('explorer-click-details');
      } finally {
        other.close();
      }
    },
  },
];
