// Restricted Mode: a folder not yet trusted cannot add or change connections through its settings. Its
// `.vscode/settings.json` defines a connection (one of the user's names, pointing elsewhere, and one more); the
// explorer shows only the user's own connections, says why, and the folder's list is never used.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { E2eTest } from './workbench';

export const tests: E2eTest[] = [
  {
    name: 'an untrusted folder\'s settings cannot add or change connections',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-e2e-untrusted-'));
      fs.mkdirSync(path.join(folder, '.vscode'));
      fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({
        'zooscope.connections': [
          { name: 'Mine', connectString: '192.0.2.66:2181', digestUser: 'ops' },
          { name: 'Planted By Folder', connectString: '192.0.2.66:2181' },
        ],
      }));
      try {
        const wb = await ctx.open({
          workspaceFolder: folder, workspaceTrust: true,
          settings: {
            'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never',
            'zooscope.connections': [{ name: 'Mine', connectString: ctx.zk }],
          },
        });
        await wb.openZooScope();
        await wb.explorerRow('Mine').waitFor({ timeout: 30000 });
        await wb.page.locator('.part.sidebar').getByText(/Restricted Mode: connections in this folder's settings are ignored/).first()
          .waitFor({ timeout: 30000 });
        await wb.screenshot('restricted-mode-connections');
        assert.strictEqual(await wb.explorerRow('Planted By Folder').count(), 0, 'the folder added no connection');
        // The "Mine" shown is the user's: it connects to the test server, not to the folder's address.
        await wb.connectRow('Mine');
        await wb.explorerRow('zookeeper').waitFor({ timeout: 30000 });
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  },
];
