// The Watch Census as a person takes it: connect, run "Take Watch Census", and the view lists the member, the session
// with the most watches (with its client address) and the most watched paths; a path is a click away from the tree.
// Screenshot: watch-census.
import * as assert from 'node:assert';
import { connectOtherClient } from '../support/clients/zkClient';
import type { E2eTest } from './workbench';

const CONNECTION = 'E2E census';
const WATCHES = 40;

export const tests: E2eTest[] = [
  {
    name: 'watch census: the leaking session on top with its client address, its paths a click from the tree',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const base = `/e2e-census-${Date.now().toString(36)}`;
      const leaky = await connectOtherClient(ctx.zk);
      try {
        await leaky.mkdirp(`${base}/config`);
        for (let i = 0; i < WATCHES; i++) await leaky.watch(`${base}/config/key-${i}`, 'exists');
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-census', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.connectRow(CONNECTION);
        await wb.runCommand('ZooScope: Take Watch Census');
        const view = wb.page.locator('.pane').filter({ has: wb.page.locator('.pane-header', { hasText: 'Watch Census' }) });
        // The members are shown open, the sessions as a group to open.
        const sessions = view.locator('.monaco-list-row', { hasText: 'Sessions with the most watches' }).first();
        await sessions.waitFor({ timeout: 60000 });
        await sessions.click();
        const session = view.locator('.monaco-list-row', { hasText: leaky.sessionId }).first();
        await session.waitFor({ timeout: 30000 });
        assert.match(await session.innerText(), new RegExp(`${WATCHES} watches · 127\\.0\\.0\\.1:\\d+`));
        // As a user reading a census would: the Held Locks view folded away, the census given the room.
        await wb.page.locator('.pane-header', { hasText: 'Held Locks' }).first().click();
        await wb.screenshot('watch-census');
        await session.click();
        await wb.explorerRow('config').waitFor({ timeout: 30000 });
      } finally {
        await leaky.removeRecursive(base).catch(() => undefined);
        leaky.close();
      }
    },
  },
];
