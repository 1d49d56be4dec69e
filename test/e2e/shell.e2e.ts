// zkCli in the editor, used as a person would: Open ZooKeeper Shell from a node's context menu, type a `create`
// in front of the path already on the line's end, see the node appear in the tree; Set Quota… from the context
// menu marks the node over its soft quota. Screenshots of each step go to test-results/screenshots.
import * as assert from 'node:assert';
import { connectOtherClient, eventually } from '../support/clients/zkClient';
import { E2eTest } from './workbench';

const CONNECTION = 'E2E Shell';

export const tests: E2eTest[] = [
  {
    name: 'shell: a terminal opened on a node runs create and the tree shows the node; Set Quota marks it',
    timeoutMs: 240000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const base = `/e2e-shell-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      await other.mkdirp(`${base}/app/existing`);
      try {
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-shell', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.connectRow(CONNECTION);
        await wb.expandRow(base.slice(1));
        await wb.expandRow('app');
        await wb.explorerRow('existing').waitFor({ timeout: 20000 });

        await wb.contextMenu(wb.explorerRow('app'), 'Open ZooKeeper Shell');
        const terminal = wb.page.locator('.terminal-wrapper .xterm').first();
        await terminal.waitFor({ timeout: 30000 });
        await wb.page.locator('.terminal-tab, .terminal-tabs-entry, .single-terminal-tab', { hasText: /ZooKeeper Shell/ }).first().waitFor({ timeout: 30000 })
          .catch(() => undefined); // the tab's look differs between versions: the node appearing below is what counts
        await terminal.click();
        // The prompt arrives with the node's path on the line and the cursor before it.
        await eventually(async () => (await terminal.innerText().catch(() => '')).includes('Opened on'), 20000, 'the shell greets')
          .catch(() => undefined); // a canvas renderer has no text to read
        await wb.page.keyboard.type('create ');
        await wb.page.keyboard.press('End');
        await wb.page.keyboard.type('/made-in-shell');
        await wb.page.keyboard.press('Enter');
        await wb.explorerRow('made-in-shell').waitFor({ timeout: 30000 });
        assert.ok(await other.exists(`${base}/app/made-in-shell`), 'created on the server');
        await wb.screenshot('shell-create');

        await wb.contextMenu(wb.explorerRow('app'), 'Set Quota…');
        await wb.pickItem('Nodes, soft limit');
        await wb.answerInput(/whole number/, '1');
        await wb.explorerRow('app').locator('.label-description', { hasText: /over soft quota/ }).waitFor({ timeout: 30000 });
        await wb.explorerRow('app').hover();
        await wb.page.locator('.monaco-hover, .workbench-hover', { hasText: /soft limit 1/ }).first().waitFor({ timeout: 20000 })
          .catch(() => undefined); // hover timing is the workbench's; the mark above is the check
        await wb.screenshot('shell-quota-marked');
      } finally {
        await other.removeRecursive(base).catch(() => undefined);
        await other.removeRecursive(`/zookeeper/quota${base}`).catch(() => undefined);
        other.close();
      }
    },
  },
];
