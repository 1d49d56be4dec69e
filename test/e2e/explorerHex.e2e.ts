// Open Data's hex view as a person sees it after a click on a binary node: offsets and an ASCII column.
import * as assert from 'node:assert';
import { connectOtherClient } from '../support/clients/zkClient';
import { E2eTest } from './workbench';

const CONNECTION = 'E2E ZooKeeper';

export const tests: E2eTest[] = [
  {
    name: 'hex view: a binary node opens with offsets and an ASCII column',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const BASE = `/e2e-hex-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      try {
        await other.mkdirp(BASE);
        await other.create(`${BASE}/logo.png`, Buffer.concat([Buffer.from([0x89]), Buffer.from('PNG\r\n\x1a\n'), Buffer.from(Array.from({ length: 40 }, (_, i) => i * 7))]));
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.connectRow(CONNECTION);
        await wb.expandRow(BASE.slice(1));
        await wb.explorerRow('logo.png').click();
        const lines = wb.page.locator('.monaco-editor .view-lines');
        await lines.filter({ hasText: '00000000: 89 50 4e 47' }).first().waitFor({ timeout: 20000 });
        await lines.filter({ hasText: '|.PNG' }).first().waitFor({ timeout: 5000 });
        await lines.filter({ hasText: '00000020:' }).first().waitFor({ timeout: 5000 });
        await wb.screenshot('hex-view');
      } finally {
        await other.removeRecursive(BASE).catch(() => undefined);
        other.close();
      }
    },
  },
];
