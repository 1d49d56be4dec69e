// Smoke: the packaged ZooScope shows its activity-bar entry, and clicking it opens the ZooScope side bar.
import * as assert from 'node:assert';
import { E2eTest, ZOOSCOPE_TITLE } from './workbench';

export const tests: E2eTest[] = [
  {
    name: 'activity-bar entry opens the ZooScope explorer (no connections)',
    async run(ctx) {
      const wb = await ctx.open({ settings: { 'zooscope.connections': [] } });
      await wb.openZooScope();
      const title = (await wb.sideBarTitle().innerText()).trim();
      assert.match(title, new RegExp(`^${ZOOSCOPE_TITLE}\\b`, 'i'), `side bar title is "${title}"`);
      assert.strictEqual(await wb.activityBarEntry().getAttribute('aria-expanded'), 'true', 'ZooScope entry is not the selected one');
      await wb.screenshot('explorer-empty');
    },
  },
];
