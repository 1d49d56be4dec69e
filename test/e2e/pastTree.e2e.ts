// The tree at a past moment as a person opens it: on a connection's Server History menu, Open Tree at a Past
// Moment…, a time control that says what the logs cover and offers their boundaries, refuses a typed text that is no
// moment (one line saying why) and takes a typed zxid; the tree as it was then appears in the explorer as a root of
// its own, marked read-only, with a node deleted since; its rows' menus have no write command; a click opens a
// node's data as it was. Screenshots: server-history-moment-picker, server-history-past-tree.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectOtherClient } from '../support/clients/zkClient';
import { startStandalone } from '../support/servers/zkServer';
import { contextSubmenu } from './menus';
import type { E2eTest } from './workbench';

const CONNECTION = 'E2E past tree';

export const tests: E2eTest[] = [
  {
    name: 'server history: the tree at a past moment browsed read-only in the explorer',
    timeoutMs: 180000,
    async run(ctx) {
      const zk = await startStandalone({ adminServer: false, systemProperties: { 'zookeeper.snapCount': '8' } });
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-e2e-moment-'));
      try {
        const writer = await connectOtherClient(zk.connectString);
        let moment: string;
        try {
          await writer.mkdirp('/app/services');
          await writer.create('/app/db.properties', 'url=jdbc:postgresql://db-1/app\npool=10\n');
          await writer.create('/app/feature-flags', 'checkout=on\n');
          for (const name of ['billing', 'search', 'orders']) await writer.create(`/app/services/${name}`, `${name}.internal:8080`);
          const stat = (await writer.exists('/app/services/orders'))!;
          moment = `0x${BigInt(`0x${stat.czxid.toString('hex')}`).toString(16)}`;
          await writer.setData('/app/db.properties', 'url=jdbc:postgresql://db-2/app\npool=40\n');
          await writer.remove('/app/feature-flags');
          await writer.create('/app/new-service', '');
        } finally {
          writer.close();
        }
        const dataDir = path.join(zk.members[0].dir, 'data');
        const wb = await ctx.open({ workspaceFolder: folder, settings: { 'zooscope.connections': [{ id: 'e2e-moment', name: CONNECTION, connectString: zk.connectString }] } });
        await wb.openZooScope();
        const row = wb.explorerRow(CONNECTION);
        await row.waitFor({ timeout: 30000 });
        await contextSubmenu(wb, row, 'Server History', 'Choose Where the Server Logs Are…');
        await wb.pickItem('Folders on This Machine…');
        await wb.answerFileDialog(/Server Logs of/, dataDir);
        await wb.notification(/Server history of .* reads/).waitFor({ timeout: 30000 });

        await contextSubmenu(wb, row, 'Server History', 'Open Tree at a Past Moment…');
        const picker = wb.page.locator('.quick-input-widget');
        await picker.locator('.quick-input-title', { hasText: /the logs cover \d{4}-\d\d-\d\d .* UTC/ }).waitFor({ timeout: 30000 });
        const rows = picker.locator('.quick-input-list .monaco-list-row');
        await rows.filter({ hasText: 'Last transaction in the logs' }).waitFor({ timeout: 15000 });
        await rows.filter({ hasText: 'First transaction in the logs' }).waitFor({ timeout: 15000 });
        await rows.filter({ hasText: /Snapshot 0x/ }).first().waitFor({ timeout: 15000 });
        const input = picker.locator('input').first();
        await input.fill('last tuesday');
        await rows.filter({ hasText: 'Not a moment: type an ISO time' }).waitFor({ timeout: 15000 });
        await input.press('Enter');
        assert.ok(await picker.isVisible(), 'a text that is no moment is not taken');
        await input.fill(moment);
        await rows.filter({ hasText: 'the tree as it was then' }).waitFor({ timeout: 15000 });
        await wb.screenshot('server-history-moment-picker');
        await input.press('Enter');
        await picker.waitFor({ state: 'hidden', timeout: 15000 });

        const rootLabel = new RegExp(`^${CONNECTION} @ \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} UTC \\(${moment}\\)$`);
        const root = wb.page.locator('.part.sidebar .monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: rootLabel }) }).first();
        await root.waitFor({ timeout: 30000 });
        assert.match(await root.innerText(), /read-only, from the server logs/);
        await root.locator('.codicon-history').waitFor({ timeout: 5000 });
        await wb.expandRow('app');
        await wb.expandRow('services');
        await wb.explorerRow('feature-flags').waitFor({ timeout: 15000 });
        assert.strictEqual(await wb.explorerRow('new-service').count(), 0, 'not yet created then');

        // A past row's menu reads and never writes.
        await wb.explorerRow('db.properties').click({ button: 'right' });
        const menu = wb.page.locator('.monaco-menu .action-label');
        await menu.filter({ hasText: /^Show Details$/ }).first().waitFor({ timeout: 10000 });
        const entries = await menu.allInnerTexts();
        assert.ok(entries.includes('Open Data (Read-Only)'), entries.join(' | '));
        assert.ok(!entries.some((e) => /^(Delete|Create|Edit ACL|Rename|Lock|Import)/.test(e)), `no write entry: ${entries.join(' | ')}`);
        await wb.page.keyboard.press('Escape');

        await wb.explorerRow('db.properties').click();
        const editor = wb.page.locator('.editor-group-container.active .monaco-editor .view-lines');
        await editor.filter({ hasText: 'pool=10' }).waitFor({ timeout: 15000 });
        // Show Details says which moment the node is of, beside its Stat as a client was told it then (Monaco draws
        // its spaces as no-break spaces: \s matches both).
        await wb.contextMenu(wb.explorerRow('feature-flags'), 'Show Details');
        await editor.filter({ hasText: /Rebuilt\sfrom\sthe\sserver\slogs/ }).waitFor({ timeout: 15000 });
        await wb.runCommand('Notifications: Clear All Notifications');
        await wb.widenSideBar(620);
        await wb.page.mouse.move(900, 600);
        await wb.screenshot('server-history-past-tree');
      } finally {
        await zk.stop();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  },
];
