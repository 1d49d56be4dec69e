// The lock-queue panel on queues written by the real libraries: a Curator InterProcessMutex (Java) and a kazoo
// Lock (Python), each contender on a session of its own (test/support/thirdParty). "Show Locks Under…" finds both,
// recognises their recipes, orders holders and waiters as the libraries do, and follows a release live.
import * as assert from 'node:assert';
import type { FrameLocator } from 'playwright-core';
import { startCurator } from '../support/thirdParty/curator';
import type { DriverEvent, ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo } from '../support/thirdParty/kazoo';
import { connectOtherClient } from '../support/clients/zkClient';
import { E2eTest } from './workbench';

const CONNECTION = 'E2E Libraries';

/** Participant rows of one queue (by its path), top to bottom. */
async function queueRows(frame: FrameLocator, queuePath: string): Promise<string[]> {
  const rows = await frame.locator('.row').evaluateAll((list) => list
    .sort((a, b) => parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top))
    .map((r) => ({ queue: r.classList.contains('row-queue'), text: r.textContent ?? '', participant: r.classList.contains('row-participant') })));
  const result: string[] = [];
  let inside = false;
  for (const r of rows) {
    if (r.queue) inside = r.text.includes(queuePath) && !r.text.includes(`${queuePath}/`);
    else if (inside && r.participant) result.push(r.text);
  }
  return result;
}

async function waitForQueue(frame: FrameLocator, queuePath: string, check: (rows: string[]) => boolean, what: string): Promise<string[]> {
  const deadline = Date.now() + 40000;
  let rows: string[] = [];
  while (Date.now() < deadline) {
    rows = await queueRows(frame, queuePath).catch(() => []);
    if (check(rows)) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`webview: ${what} not shown; rows of ${queuePath}: ${JSON.stringify(rows).slice(0, 800)}`);
}

async function contend(driver: ThirdPartyClient, ids: string[], lockPath: string): Promise<DriverEvent[]> {
  const events: DriverEvent[] = [];
  for (const [i, id] of ids.entries()) {
    driver.acquire(id, 'mutex', lockPath);
    events.push(await driver.waitForEvent(id, i === 0 ? 'acquired' : 'waiting', 60000));
  }
  return events;
}

export const tests: E2eTest[] = [
  {
    name: 'lock queue panel: Curator and kazoo queues from the real libraries, in their order, live',
    timeoutMs: 300000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const base = `/e2e-libs-${Date.now().toString(36)}`;
      const [curator, kazoo] = await Promise.all([startCurator(ctx.zk), startKazoo(ctx.zk)]);
      try {
        const curatorEvents = await contend(curator, ['c0', 'c1', 'c2'], `${base}/curator`);
        const kazooEvents = await contend(kazoo, ['k0', 'k1'], `${base}/kazoo`);
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-libs', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.runCommand('ZooScope: Show Locks Under…');
        await wb.answerInput(/Path of the subtree/, base);
        const frame = wb.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
        await frame.locator('.row-queue', { hasText: 'curator-mutex' }).waitFor({ timeout: 60000 });
        await frame.locator('.row-queue', { hasText: 'kazoo-lock' }).waitFor({ timeout: 20000 });

        const c = await waitForQueue(frame, `${base}/curator`, (r) => r.length === 3, 'three Curator contenders');
        curatorEvents.forEach((e, i) => {
          assert.match(c[i], new RegExp(`^#${i}`));
          assert.match(c[i], i === 0 ? /holder/ : /waiting/);
          assert.ok(c[i].includes(String(e.session)), `Curator row ${i} names session ${e.session}: ${c[i]}`);
          assert.ok(c[i].includes(String(e.node).split('/').pop()!), `Curator row ${i} is ${e.node}`);
        });
        // Curator waits on its predecessor with a getData watch: the servers list it.
        assert.match(c[1], /#0 _c_/);
        assert.match(c[2], /#1 _c_/);
        const k = await waitForQueue(frame, `${base}/kazoo`, (r) => r.length === 2, 'two kazoo contenders');
        kazooEvents.forEach((e, i) => assert.ok(k[i].includes(String(e.session)), `kazoo row ${i} names session ${e.session}`));
        assert.match(k[0], /holder/);
        assert.match(k[1], /#0 [0-9a-f]{32}__lock__/);
        await wb.screenshot('lock-queue-libraries');

        curator.release('c0');
        await curator.waitForEvent('c1', 'acquired', 30000);
        const after = await waitForQueue(frame, `${base}/curator`, (r) => r.length === 2 && /holder/.test(r[0]) && r[0].includes(String(curatorEvents[1].session)),
          'c1 holding after c0 released');
        assert.match(after[1], /waiting/);
      } finally {
        await Promise.all([curator.close(), kazoo.close()]);
        const cleanup = await connectOtherClient(ctx.zk);
        await cleanup.removeRecursive(base).catch(() => undefined);
        cleanup.close();
      }
    },
  },
];
