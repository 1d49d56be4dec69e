// The lock panel's timeline as a person sees it in code-server: a real queue, the holder's session ends and the
// next waiter takes over; the timeline (a canvas two iframes deep) draws both participants' bars, the keyboard
// reaches a bar and it tells its times, and a screenshot shows it (test-results/screenshots/lock-timeline.png).
// On the demo's own lock clients, handing over for a while, the axis shows the recorded window (not 1970 to now).
import * as assert from 'node:assert';
import { startDemoLockClients } from '../../scripts/demo/lockClients';
import { LockQueueClients, startLockQueue } from '../support/clients/lockQueueClients';
import { waitFor } from '../support/waiting';
import { connectOtherClient } from '../support/clients/zkClient';
import { lockPanel, timelineRange, waitForParticipants } from './lockPanel';
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
  {
    name: 'lock timeline: on the demo\'s lock clients, after a while the axis shows the recorded window, not 1970',
    timeoutMs: 300000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const root = `/e2e-demo-timeline-${Date.now().toString(36)}`;
      const releases: number[] = [];
      // The demo's clients (a Curator-style and a kazoo-style queue, seven sessions), handing over every few seconds.
      const locks = await startDemoLockClients(ctx.zk, {
        root, holdMs: { min: 1500, max: 3000 }, rejoinDelayMs: 500,
        log: (line) => { if (/: released /.test(line)) releases.push(Date.now()); },
      });
      try {
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-demo-timeline', name: 'E2E Demo Timeline', connectString: ctx.zk }] } });
        await wb.openZooScope();
        const openedAt = Date.now();
        await wb.runCommand('ZooScope: Show Locks Under…');
        await wb.answerInput(/Path of the subtree/, `${root}/locks`);
        const frame = lockPanel(wb);
        await waitForParticipants(frame, (r) => r.length === 7, 'the demo\'s seven participants', 60000);
        const shownAt = Date.now();
        // Open a while, with hand-overs seen meanwhile: until the view has grown past its first 30 s with the recording.
        let range = await timelineRange(frame);
        await waitFor('four hand-overs and a view of 40 s', async () => {
          range = await timelineRange(frame);
          return releases.filter((t) => t > shownAt).length >= 4 && range.to - range.from >= 40_000;
        }, 180000, 500);
        const readAt = Date.now();
        const when = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms));
        const shown = `${when(range.from)} … ${when(range.to)}, first tick ${when(range.firstTick)}`;
        assert.ok(range.bars > 0 && range.lanes >= 7, `bars ${range.bars} on ${range.lanes} lanes`);
        // It starts where recording began: after the panel was asked for, before its rows first showed.
        assert.ok(range.from >= openedAt && range.from <= shownAt, `the view ${shown}; panel asked for ${when(openedAt)}, shown ${when(shownAt)}`);
        assert.ok(range.firstTick >= range.from && range.firstTick <= range.to, `the first tick: ${shown}`);
        // It is the recorded window (to now, with a small margin), not more.
        assert.ok(range.to - range.from <= (readAt - range.from) * 1.02 + 1000, `the view ${shown}, read at ${when(readAt)}`);
        await wb.screenshot('lock-timeline-demo');
      } finally {
        await locks.stop();
        const cleanup = await connectOtherClient(ctx.zk!);
        await cleanup.removeRecursive(root).catch(() => undefined);
        cleanup.close();
      }
    },
  },
];
