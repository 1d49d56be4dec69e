// Server history as a person uses it: on a connection's Server History menu, choose the server's data directory,
// then Node History from Server Logs… for a node that no longer exists: the versions, newest first, with who made
// each change and the delete; a change opens VS Code's diff editor on what it did. Screenshots: server-history-menu,
// server-history-node, server-history-diff.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectOtherClient } from '../support/clients/zkClient';
import { startStandalone } from '../support/servers/zkServer';
import { contextSubmenu } from './menus';
import type { E2eTest } from './workbench';

const CONNECTION = 'E2E server history';

export const tests: E2eTest[] = [
  {
    name: 'server history: a deleted node\'s versions from the server\'s logs, and a change opened as a diff',
    timeoutMs: 180000,
    async run(ctx) {
      const zk = await startStandalone({ adminServer: false, systemProperties: { 'zookeeper.snapCount': '8' } });
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-e2e-past-'));
      try {
        const writer = await connectOtherClient(zk.connectString);
        const deleter = await connectOtherClient(zk.connectString);
        try {
          await writer.mkdirp('/app');
          await writer.create('/app/db.properties', 'url=jdbc:postgresql://db-1/app\npool=10\n');
          await writer.setData('/app/db.properties', 'url=jdbc:postgresql://db-2/app\npool=10\n');
          await writer.setData('/app/db.properties', 'url=jdbc:postgresql://db-2/app\npool=40\n');
          await deleter.remove('/app/db.properties');
        } finally {
          writer.close();
          deleter.close();
        }
        const dataDir = path.join(zk.members[0].dir, 'data');
        const wb = await ctx.open({ workspaceFolder: folder, settings: { 'zooscope.connections': [{ id: 'e2e-past', name: CONNECTION, connectString: zk.connectString }] } });
        await wb.openZooScope();
        const row = wb.explorerRow(CONNECTION);
        await row.waitFor({ timeout: 30000 });

        await contextSubmenu(wb, row, 'Server History', 'Choose Where the Server Logs Are…', 'server-history-menu');
        // Both ways in, as a newcomer sees them: a copy on this machine, or the members themselves over SSH.
        await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'The Members over SSH…' }).waitFor({ timeout: 30000 });
        await wb.screenshot('server-history-where');
        await wb.pickItem('Folders on This Machine…');
        await wb.answerFileDialog(/Server Logs of/, dataDir);
        await wb.notification(/Server history of .* reads/).waitFor({ timeout: 30000 });

        await contextSubmenu(wb, row, 'Server History', 'Node History from Server Logs…');
        await wb.answerInput(/deleted nodes too/, '/app/db.properties');
        const list = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
        await list.filter({ hasText: 'deleted by this session' }).first().waitFor({ timeout: 30000 });
        // Each row's label (its detail line, the data's start, has the same class).
        const labels = (await list.locator('.label-name').allInnerTexts()).filter((l) => /^(create|setData|delete)\b/.test(l));
        assert.deepStrictEqual(labels.map((l) => l.split(':')[0].trim()), ['delete', 'setData · version 2', 'setData · version 1', 'create · version 0']);
        await wb.screenshot('server-history-node');

        await wb.pickItem('setData · version 2');
        const diff = wb.page.locator('.editor-group-container.active .monaco-diff-editor');
        await diff.waitFor({ timeout: 30000 });
        await wb.page.locator('.monaco-diff-editor .line-delete, .monaco-diff-editor .char-delete').first().waitFor({ timeout: 15000 });
        const text = await diff.innerText();
        assert.match(text, /pool=10/);
        assert.match(text, /pool=40/);
        await wb.screenshot('server-history-diff');
      } finally {
        await zk.stop();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  },
];
