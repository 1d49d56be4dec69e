// The lock panel's timeline as a person sees it in code-server: a real queue, the holder's session ends and the
// next waiter takes over; the timeline (a canvas two iframes deep) draws both participants' bars, the keyboard
// reaches a bar and it tells its times, and a screenshot shows it (test-results/screenshots/lock-timeline.png).
import * as assert from 'node:assert';
import { LockQueueClients, startLockQueue } from '../support/lockQueueClients';
import { connectOtherClient } from '../support/zkClient';
import { lockPanel, waitForParticipants } from './lockPanel';
import { E2eTest } from './workbench';

export const tests: E2eTest[] = [
  {
    name: 'lock timeline: a real hand-over drawn in the panel, a bar\'s times by keyboard, screenshot',
    timeoutMs: 240000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const base = `/e2e-timeline-${Date.now().toString(36)}`;
      let queue: LockQueueClients | undefined;
      try {
        queue = await startLockQueue(ctx.zk, `${base}/orders`, 3);
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-timeline', name: 'E2E Timeline', connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.runCommand('ZooScope: Show Lock Queue');
        await wb.answerInput(/Path of the lock/, `${base}/orders`);
        const frame = lockPanel(wb);
        await waitForParticipants(frame, (r) => r.length === 3, 'three participants', 60000);
        queue.leave(queue.contenders[0]);
        await waitForParticipants(frame, (r) => r.length === 2 && /holder/.test(r[0]), 'the next waiter holding');
        const canvas = frame.locator('.timeline-canvas');
        // The released hold, and the new holder's wait then hold: at least three bars on three lanes.
        const deadline = Date.now() + 30000;
        while (Date.now() < deadline && !(Number(await canvas.getAttribute('data-bars')) >= 4 && (await canvas.getAttribute('data-lanes')) === '3')) {
          await new Promise((r) => setTimeout(r, 200));
        }
        assert.ok(Number(await canvas.getAttribute('data-bars')) >= 4, `bars: ${await canvas.getAttribute('data-bars')}`);
        assert.strictEqual(await canvas.getAttribute('data-lanes'), '3');
        // The keyboard reaches the bars: the first lane's interval shows its times.
        await canvas.focus();
        await wb.page.keyboard.press('ArrowDown');
        const tooltip = frame.locator('.timeline-tooltip');
        await tooltip.waitFor({ state: 'visible', timeout: 10000 });
        assert.match((await tooltip.textContent()) ?? '', /hold|wait/);
        await wb.screenshot('lock-timeline');
      } finally {
        queue?.close();
        const cleanup = await connectOtherClient(ctx.zk!);
        await cleanup.removeRecursive(base).catch(() => undefined);
        cleanup.close();
      }
    },
  },
];
