// The explorer shows the server's truth after collapse and re-expand: VS Code keeps a collapsed element's children
// and would show them again without asking; the rows under a re-expanded node are what the server has now, and the
// node's child count agrees with them. Screenshot: test-results/screenshots/tree-reexpanded.png.
import * as assert from 'node:assert';
import { connectOtherClient } from '../support/clients/zkClient';
import { E2eTest, escapeRegExp } from './workbench';

const CONNECTION = 'E2E Tree Truth';

export const tests: E2eTest[] = [
  {
    name: 'tree: a re-expanded node lists the server\'s children, and its count agrees with the rows',
    timeoutMs: 240000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const base = `/e2e-tree-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      try {
        await other.mkdirp(`${base}/queue/lock-a`);
        await other.mkdirp(`${base}/queue/lock-b`);
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-tree', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.connectRow(CONNECTION);
        await wb.expandRow(base.slice(1));
        await wb.expandRow('queue');
        await wb.explorerRow('lock-a').waitFor({ timeout: 20000 });
        await wb.explorerRow('lock-b').waitFor({ timeout: 20000 });

        // Collapse: the watch on the queue is dropped; the queue moves on meanwhile.
        await wb.explorerRow('queue').click();
        await wb.page.locator('.part.sidebar .monaco-list-row[aria-expanded="false"]', { has: wb.page.locator('.label-name', { hasText: /^queue$/ }) })
          .first().waitFor({ timeout: 10000 });
        await other.removeRecursive(`${base}/queue/lock-a`);
        await other.mkdirp(`${base}/queue/lock-c`);
        await other.mkdirp(`${base}/queue/lock-d`);

        await wb.expandRow('queue');
        for (const name of ['lock-b', 'lock-c', 'lock-d']) await wb.explorerRow(name).waitFor({ timeout: 15000 });
        await wb.explorerRow('lock-a').waitFor({ state: 'detached', timeout: 15000 });
        const queueRow = wb.page.locator('.part.sidebar .monaco-list-row', { has: wb.page.locator('.label-name', { hasText: /^queue$/ }) }).first();
        await queueRow.locator('.label-description', { hasText: new RegExp(`${escapeRegExp('3 children')}`) }).waitFor({ timeout: 15000 });
        await wb.screenshot('tree-reexpanded');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        other.close();
      }
    },
  },
];
