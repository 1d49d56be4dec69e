// Connections as a person manages them: the add and edit forms, a failed connect with Retry / Edit Connection,
// and a connection that loses contact (status bar states, the Keep Trying / Disconnect prompt, a renewed session
// after expiry). Faults come from a TCP proxy between VS Code and the real server.
import * as assert from 'node:assert';
import { fourLetterWord } from '../support/ports';
import { startProxy } from '../support/fakes/tcpProxy';
import { eventually } from '../support/clients/zkClient';
import { E2eTest, Workbench } from './workbench';

const zkPort = (zk: string) => Number(zk.split(',')[0].split(':').pop());

/** Waits until the status bar entry of `name` shows `state` (regex) and returns its text and accessible label. */
async function statusShows(wb: Workbench, name: string, state: RegExp, timeoutMs = 30000): Promise<string> {
  const item = wb.statusBarItem(name);
  await item.filter({ hasText: state }).waitFor({ timeout: timeoutMs });
  const label = await item.locator('[aria-label]').first().getAttribute('aria-label').catch(() => null);
  return `${await item.innerText()}\n${label ?? ''}`;
}

const sessionIdIn = (text: string) => /0x[0-9a-f]+/.exec(text)?.[0];

export const tests: E2eTest[] = [
  {
    name: 'adds a connection through the form, then edits its name and makes it read-only',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const wb = await ctx.open({ settings: { 'zooscope.connections': [] } });
      await wb.openZooScope();
      await wb.page.locator('.part.sidebar .welcome-view-content a.monaco-button', { hasText: 'Add Connection' }).click();
      // An invalid connect string is refused in place, with a reason.
      const widget = wb.page.locator('.quick-input-widget').filter({ hasText: /Servers: host:port/ });
      await widget.locator('input').fill('127.0.0.1:notaport');
      await wb.page.locator('.quick-input-widget').filter({ hasText: /port/i }).locator('.quick-input-message').first()
        .filter({ hasText: /notaport|port/ }).waitFor({ timeout: 10000 });
      await wb.screenshot('connection-form-invalid');
      await wb.page.locator('.quick-input-widget input').first().fill(ctx.zk);
      await wb.answerInput(/Servers: host:port/, ctx.zk);
      await wb.answerInput(/A name for this connection/, 'Form ZooKeeper');
      await wb.answerInput(/Chroot/, '');
      await wb.answerInput(/Digest user/, '');
      // The Security section: TLS or plain, then SASL.
      await wb.pickItem('Plain TCP');
      await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'DIGEST-MD5' }).first().waitFor({ timeout: 15000 });
      await wb.screenshot('connection-form-security-sasl');
      await wb.pickItem('No SASL');
      // The Route: direct, or through an SSH bastion.
      await wb.pickItem('Direct');
      await wb.pickItem('Read and write');
      // Added connections connect at once and are revealed.
      await wb.explorerRow('Form ZooKeeper').waitFor({ timeout: 30000 });
      await wb.explorerRow('zookeeper').waitFor({ timeout: 30000 });
      await statusShows(wb, 'Form ZooKeeper', /connected/);

      await wb.runCommand('ZooScope: Edit Connection');
      const connectInput = wb.page.locator('.quick-input-widget').filter({ hasText: /Servers: host:port/ }).locator('input').first();
      await connectInput.waitFor({ timeout: 15000 });
      assert.equal(await connectInput.inputValue(), ctx.zk, 'the form starts from the saved connect string');
      await wb.answerInput(/Servers: host:port/, ctx.zk);
      await wb.answerInput(/A name for this connection/, 'Renamed ZooKeeper');
      await wb.answerInput(/Chroot/, '');
      await wb.answerInput(/Digest user/, '');
      await wb.pickItem('Plain TCP');
      await wb.pickItem('No SASL');
      await wb.pickItem('Direct');
      await wb.pickItem('Read-only');
      await wb.explorerRow('Renamed ZooKeeper').waitFor({ timeout: 30000 });
      await wb.explorerRow('Form ZooKeeper').waitFor({ state: 'detached', timeout: 10000 });
      // The edited connection reconnects, and says it is read-only.
      // Both at once: it says "connecting · read-only" first (run S5 read the status then).
      const status = await statusShows(wb, 'Renamed ZooKeeper', /\bconnected\b.*read-only/);
      assert.match(status, /read-only/);
      await wb.screenshot('connection-edited-read-only');

      // Removing asks first (Cancel keeps it), then leaves nothing behind: the welcome view is back.
      const dialog = wb.page.locator('.monaco-dialog-box').filter({ hasText: /Remove the connection "Renamed ZooKeeper"\?/ });
      await wb.runCommand('ZooScope: Remove Connection');
      await dialog.waitFor({ timeout: 15000 });
      await wb.screenshot('connection-remove-confirm');
      await dialog.locator('a.monaco-button', { hasText: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden', timeout: 10000 });
      await wb.explorerRow('Renamed ZooKeeper').waitFor({ timeout: 10000 });
      await wb.runCommand('ZooScope: Remove Connection');
      await dialog.locator('a.monaco-button', { hasText: 'Remove' }).click();
      await wb.page.locator('.part.sidebar .welcome-view-content a.monaco-button', { hasText: 'Add Connection' }).waitFor({ timeout: 15000 });
      await wb.statusBarItem('Renamed ZooKeeper').waitFor({ state: 'hidden', timeout: 10000 });
    },
  },
  {
    name: 'a failed connect explains itself and offers Retry and Edit Connection',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const proxy = await startProxy(zkPort(ctx.zk));
      try {
        await proxy.refuse(true);
        const connectString = `127.0.0.1:${proxy.port}`;
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'flaky', name: 'Flaky ZooKeeper', connectString }] } });
        await wb.openZooScope();
        await wb.explorerRow('Flaky ZooKeeper').click();
        const failure = /Could not connect to "Flaky ZooKeeper"|Flaky ZooKeeper/;
        const toast = wb.notification(/refused/i);
        await toast.waitFor({ timeout: 60000 });
        assert.match(await toast.innerText(), failure);
        // A failed connection leaves no status bar entry behind ("connecting" would be a lie).
        await wb.statusBarItem('Flaky ZooKeeper').waitFor({ state: 'hidden', timeout: 10000 });
        // And nothing tries again behind the user's back (the expanded root used to ask again, and connect again).
        await wb.page.waitForTimeout(2000);
        assert.equal(await wb.statusBarItem('Flaky ZooKeeper').isVisible(), false, 'no connect attempt after the failure');
        await wb.screenshot('connection-failed');
        // The server comes back: Retry connects.
        await proxy.refuse(false);
        await wb.clickNotificationButton(/refused/i, 'Retry');
        await statusShows(wb, 'Flaky ZooKeeper', /connected/, 60000);
        await wb.expandRow('Flaky ZooKeeper');
        await wb.explorerRow('zookeeper').waitFor({ timeout: 30000 });

        // Down again and disconnected: a new attempt fails, and Edit Connection opens the form on it.
        await wb.runCommand('ZooScope: Disconnect');
        await proxy.refuse(true);
        await wb.runCommand('ZooScope: Connect');
        await wb.clickNotificationButton(/refused/i, 'Edit Connection');
        const input = wb.page.locator('.quick-input-widget').filter({ hasText: /Servers: host:port/ }).locator('input').first();
        await input.waitFor({ timeout: 15000 });
        assert.equal(await input.inputValue(), connectString);
        await wb.screenshot('connection-failed-edit');
        await wb.page.keyboard.press('Escape');
      } finally {
        await proxy.close();
      }
    },
  },
  {
    name: 'lost contact: the status bar says so, Keep Trying waits, an expired session is renewed, Disconnect ends it',
    timeoutMs: 240000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const proxy = await startProxy(zkPort(ctx.zk));
      try {
        const name = 'Remote ZooKeeper';
        // 4 s is the smallest session timeout the test server grants (2 × tickTime).
        const connection = { id: 'remote', name, connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 4000 };
        const wb = await ctx.open({ settings: { 'zooscope.connections': [connection] } });
        await wb.openZooScope();
        await wb.expandRow(name);
        const first = sessionIdIn(await statusShows(wb, name, /connected/));
        assert.ok(first, 'the status bar\'s accessible label has the session id');

        // The network goes: suspended at once, lost after a session timeout, with a prompt.
        await proxy.refuse(true);
        proxy.cutAll();
        await statusShows(wb, name, /suspended/);
        await wb.screenshot('status-suspended');
        await statusShows(wb, name, /lost contact/);
        const lost = /Lost contact with "Remote ZooKeeper"/;
        await wb.notification(lost).waitFor({ timeout: 30000 });
        await wb.screenshot('status-lost-prompt');
        await wb.clickNotificationButton(lost, 'Keep Trying');

        // The network returns after the server expired the session (its session tracker no longer lists it; the
        // server expires on tick boundaries, so up to a tick after the timeout): a warning, and a new session.
        const port = zkPort(ctx.zk);
        await eventually(async () => !(await fourLetterWord(port, 'dump', 2000)).includes(first), 30000, 'the server expires the session');
        await proxy.refuse(false);
        await wb.notification(/session of "Remote ZooKeeper" expired/).waitFor({ timeout: 60000 });
        const renewed = sessionIdIn(await statusShows(wb, name, /connected/, 60000));
        assert.ok(renewed && renewed !== first, `a new session replaces the expired one (${first} → ${renewed})`);
        await wb.explorerRow('zookeeper').waitFor({ timeout: 30000 });

        // Lost again: this time the user disconnects.
        await proxy.refuse(true);
        proxy.cutAll();
        await wb.clickNotificationButton(lost, 'Disconnect');
        await wb.statusBarItem(name).waitFor({ state: 'hidden', timeout: 30000 });
        await wb.explorerRow('zookeeper').waitFor({ state: 'detached', timeout: 30000 });
        await wb.screenshot('status-disconnected');
      } finally {
        await proxy.close();
      }
    },
  },
];
