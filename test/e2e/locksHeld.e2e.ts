// Locks held by hand as a person takes them: Acquire Lock from a znode's context menu, the lock in the Held Locks
// view and the status bar, waiting behind another client's holder with the place in the queue shown, the warning
// when another client deletes our node, Release from the Held Locks view, and a held lock shown unsure while its
// connection is down. Screenshots of each step.
import * as assert from 'node:assert';
import * as zookeeper from 'node-zookeeper-client';
import type { Locator } from 'playwright-core';
import { children, ownerOf } from '../support/clients/lockHelpers';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { connectOtherClient, eventually } from '../support/clients/zkClient';
import { contextSubmenu } from './menus';
import { E2eTest, escapeRegExp, Workbench } from './workbench';

const CONNECTION = 'E2E Held Locks';

/** The Held Locks row of `path` whose accessible name (path, description) matches `description`. */
function heldRow(wb: Workbench, path: string, description: RegExp): Locator {
  return wb.page.getByRole('treeitem', { name: new RegExp(`^${escapeRegExp(path)}, ${description.source}`) }).first();
}

export const tests: E2eTest[] = [
  {
    name: 'held locks: acquire from the tree, wait behind another holder, see the loss, release',
    timeoutMs: 240000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const base = `/e2e-held-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      try {
        await other.mkdirp(`${base}/jobs`);
        await other.mkdirp(`${base}/orders`);
        const holder = await other.create(`${base}/orders/lock-`, 'other holder', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-held', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.page.locator('.part.sidebar .pane-header', { hasText: 'Held Locks' }).first().waitFor({ timeout: 20000 });
        // Empty at first: the view's welcome text says how to take a lock.
        await wb.page.locator('.part.sidebar .welcome-view-content', { hasText: 'takes part in no locks' }).waitFor({ timeout: 20000 });
        await wb.connectRow(CONNECTION);
        await wb.expandRow(base.slice(1));

        // 1. Acquire Lock from the tree's context menu: held at once, listed, counted in the status bar.
        await contextSubmenu(wb, wb.explorerRow('jobs'), 'Locks', 'Acquire Lock', 'locks-submenu');
        await heldRow(wb, `${base}/jobs`, /held · exclusive lock · since/).waitFor({ timeout: 30000 });
        const status = wb.page.locator('.statusbar-item', { hasText: /1 held/ }).first();
        await status.waitFor({ timeout: 10000 });
        const [ours] = await children(other, `${base}/jobs`);
        assert.match(ours, /^[0-9a-f]{32}-lock-\d{10}$/, 'our node in the plain recipe');
        // Its facts: our node and the lock session that owns it (not the explorer's session).
        await heldRow(wb, `${base}/jobs`, /held/).locator('.monaco-tl-twistie').click();
        await wb.page.getByRole('treeitem', { name: `Own node: ${base}/jobs/${ours}` }).waitFor({ timeout: 10000 });
        const owner = await ownerOf(other, `${base}/jobs/${ours}`);
        assert.ok(owner, 'our node exists');
        await wb.page.getByRole('treeitem', { name: `Session: ${owner}` }).waitFor({ timeout: 10000 });
        // The explorer's session id is in the connection entry's accessible label.
        const explorerLabel = await wb.statusBarItem(CONNECTION).locator('[aria-label]').first().getAttribute('aria-label');
        assert.match(explorerLabel ?? '', /Session 0x[0-9a-f]+/);
        assert.ok(!explorerLabel!.includes(owner), 'the lock session is not the explorer\'s');
        await wb.screenshot('held-locks-view');
        await heldRow(wb, `${base}/jobs`, /held/).locator('.monaco-tl-twistie').click();

        // 2. Behind another client's holder: the notification shows the place in the queue and the node waited for.
        await contextSubmenu(wb, wb.explorerRow('orders'), 'Locks', 'Acquire Lock');
        const holderName = holder.split('/').pop()!;
        const waiting = wb.notification(new RegExp(`Waiting for the lock ${escapeRegExp(base)}/orders`));
        await waiting.filter({ hasText: `2nd of 2, waiting for ${holderName}` }).waitFor({ timeout: 30000 });
        await heldRow(wb, `${base}/orders`, new RegExp(`2nd of 2, waiting for ${holderName} · exclusive lock · since`)).waitFor({ timeout: 10000 });
        await wb.settled(waiting);
        await wb.screenshot('held-locks-waiting');
        await other.remove(holder);
        await wb.notification(new RegExp(`You hold the lock ${escapeRegExp(base)}/orders now`)).waitFor({ timeout: 30000 });
        await waiting.waitFor({ state: 'hidden', timeout: 10000 });
        await wb.page.locator('.statusbar-item', { hasText: /2 held/ }).first().waitFor({ timeout: 10000 });

        // 3. Another client deletes our node: a warning at once, the row marked lost.
        await other.remove(`${base}/jobs/${ours}`);
        const lost = wb.notification(new RegExp(`Lost the lock ${escapeRegExp(base)}/jobs on "${CONNECTION}": its node ${escapeRegExp(ours)} was deleted by someone else`));
        await lost.waitFor({ timeout: 15000 });
        await heldRow(wb, `${base}/jobs`, /lost · exclusive lock · since/).waitFor({ timeout: 10000 });
        await wb.page.locator('.statusbar-item', { hasText: /1 held/ }).first().waitFor({ timeout: 10000 });
        await wb.settled(lost);
        await wb.screenshot('held-locks-lost');

        // 4. Release from the Held Locks view: the node is deleted and the status bar item goes away.
        await wb.contextMenu(heldRow(wb, `${base}/orders`, /held · exclusive lock/), 'Release Lock');
        await heldRow(wb, `${base}/orders`, /released · exclusive lock · since/).waitFor({ timeout: 15000 });
        assert.deepStrictEqual(await children(other, `${base}/orders`), [], 'our node is deleted');
        await wb.page.locator('.statusbar-item', { hasText: /\d+ held/ }).first().waitFor({ state: 'detached', timeout: 10000 });
        await wb.screenshot('held-locks-released');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
  {
    name: 'held locks: unsure on a warning background while the connection is down, held again when it returns',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const path = `/e2e-held-unsure-${Date.now().toString(36)}`;
      const proxy = await startProxy(Number(ctx.zk.split(':').pop()));
      try {
        const connection = { id: 'e2e-held-proxy', name: CONNECTION, connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 30000 };
        const wb = await ctx.open({ settings: { 'zooscope.connections': [connection] } });
        await wb.openZooScope();
        await wb.runCommand('ZooScope: Acquire Lock');
        await wb.answerInput(/Path of the lock/, path);
        await wb.page.locator('.statusbar-item', { hasText: /1 held/ }).first().waitFor({ timeout: 30000 });
        await proxy.refuse(true);
        proxy.cutAll();
        const unsure = wb.page.locator('.statusbar-item', { hasText: /1 unsure/ }).first();
        await unsure.waitFor({ timeout: 20000 });
        await heldRow(wb, path, /suspended \(connection lost, unsure\)/).waitFor({ timeout: 10000 });
        const background = await unsure.evaluate((e) => getComputedStyle(e).backgroundColor);
        assert.notStrictEqual(background, 'rgba(0, 0, 0, 0)', 'the unsure count sits on the warning background');
        await wb.screenshot('held-locks-unsure');
        await proxy.refuse(false);
        await wb.page.locator('.statusbar-item', { hasText: /1 held/ }).first().waitFor({ timeout: 30000 });
        await heldRow(wb, path, /held/).waitFor({ timeout: 10000 });
      } finally {
        await proxy.close();
      }
    },
  },
  {
    name: 'held locks: from the palette, and reloading the window releases them at once',
    timeoutMs: 240000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const path = `/e2e-held-reload-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      try {
        // A long session timeout: the node must go because the session is closed, not because it expired.
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-held', name: CONNECTION, connectString: ctx.zk, sessionTimeoutMs: 60000 }] } });
        await wb.openZooScope();
        await wb.runCommand('ZooScope: Acquire Lock');
        await wb.answerInput(/Path of the lock/, path);
        await wb.page.locator('.statusbar-item', { hasText: /1 held/ }).first().waitFor({ timeout: 30000 });
        assert.strictEqual((await children(other, path)).length, 1, 'our node exists');
        await wb.runCommand('Developer: Reload Window');
        const started = Date.now();
        while ((await children(other, path)).length > 0) {
          if (Date.now() - started > 20000) throw new Error('the lock node outlived the window by 20 s');
          await new Promise((r) => setTimeout(r, 100));
        }
        console.log(`  lock node gone ${Date.now() - started} ms after the reload`);
        await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60000 });
      } finally {
        await other.removeRecursive(path).catch(() => undefined);
        other.close();
      }
    },
  },
  {
    name: 'held locks: a window gone without closing (network lost) releases them after the chosen time, and says so when back',
    timeoutMs: 360000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const path = `/e2e-held-gone-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      let proxy: TcpProxy | undefined;
      try {
        const wb = await ctx.open({
          settings: {
            'zooscope.connections': [{ id: 'e2e-held', name: CONNECTION, connectString: ctx.zk, sessionTimeoutMs: 60000 }],
            'zooscope.locks.releaseWhenWindowClosedSeconds': 10,
          },
        });
        // The window talks to code-server through a proxy the test can cut, as a lost network or a sleeping laptop
        // does. (A tab closed cleanly ends its extension host, and its locks with it, at once.)
        const serverUrl = new URL(wb.server.url);
        proxy = await startProxy(Number(serverUrl.port));
        await wb.closeTab();
        serverUrl.port = String(proxy.port);
        await wb.reopenTab(serverUrl.toString());
        await wb.openZooScope();
        await wb.runCommand('ZooScope: Acquire Lock');
        await wb.answerInput(/Path of the lock/, path);
        await wb.page.locator('.statusbar-item', { hasText: /1 held/ }).first().waitFor({ timeout: 30000 });
        assert.strictEqual((await children(other, path)).length, 1, 'our node exists');
        // Gone without a word: code-server keeps the window's extension host (and its lock session) for hours.
        await proxy.refuse(true);
        proxy.cutAll();
        await eventually(async () => (await children(other, path)).length === 0, 180000, 'the lock node deleted while the window was gone');
        await proxy.refuse(false);
        await wb.notification(new RegExp(`ZooScope released the locks of a window that was gone for \\d+ s: ${escapeRegExp(path)}\\.`)).waitFor({ timeout: 120000 });
        await wb.screenshot('held-locks-released-while-window-gone');
      } finally {
        await proxy?.close();
        await other.removeRecursive(path).catch(() => undefined);
        other.close();
      }
    },
  },
];
