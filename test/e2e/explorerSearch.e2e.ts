// Search results as a person reads them: two data matches with the same name told apart by their paths relative
// to the search root, name matches in natural order, the matched part of the data highlighted.
import * as assert from 'node:assert';
import { connectOtherClient } from '../support/clients/zkClient';
import { E2eTest } from './workbench';

const CONNECTION = 'E2E ZooKeeper';

export const tests: E2eTest[] = [
  {
    name: 'search results: relative paths, natural order, the matched data highlighted',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const BASE = `/e2e-search-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      try {
        await other.mkdirp(`${BASE}/config`);
        await other.mkdirp(`${BASE}/services/billing`);
        await other.create(`${BASE}/config/settings.json`, '{"region": "eu-west-1", "timeoutMs": 3000}');
        await other.create(`${BASE}/services/billing/settings.json`, '{"currency": "EUR", "region": "eu-central-1"}');
        await other.mkdirp(`${BASE}/jobs`);
        for (const n of [19999, 19997, 19998]) await other.create(`${BASE}/jobs/job-${n}`, 'queued');
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.connectRow(CONNECTION);
        await wb.contextMenu(wb.explorerRow(BASE.slice(1)), 'Search…');
        await wb.answerInput(/Node names to find/, '');
        await wb.answerInput(/Text to find in the data/, 'region');
        await wb.explorerRow('config/settings.json').waitFor({ timeout: 30000 });
        await wb.explorerRow('services/billing/settings.json').waitFor({ timeout: 10000 });
        const highlighted = wb.page.locator('.part.sidebar .monaco-list-row .label-name .highlight', { hasText: /^region$/ });
        await highlighted.first().waitFor({ timeout: 10000 });
        assert.strictEqual(await highlighted.count(), 2, 'each data match shows its matched part highlighted');
        await wb.screenshot('search-results-data');

        await wb.contextMenu(wb.explorerRow(BASE.slice(1)), 'Search…');
        await wb.answerInput(/Node names to find/, 'job-*');
        await wb.answerInput(/Text to find in the data/, '');
        await wb.explorerRow('jobs/job-19999').waitFor({ timeout: 30000 });
        const y = async (name: string) => (await wb.explorerRow(`jobs/${name}`).boundingBox())?.y ?? NaN;
        assert.ok(await y('job-19997') < await y('job-19998') && await y('job-19998') < await y('job-19999'), 'natural order');
        await wb.screenshot('search-results-names');
      } finally {
        await other.removeRecursive(BASE).catch(() => undefined);
        other.close();
      }
    },
  },
];
