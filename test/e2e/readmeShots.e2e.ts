// The README's screenshots, taken from the demo (its seed data and live Curator/kazoo lock clients) so they show
// the product as it is: the tree with a node's tooltip, the lock-queue panel on the demo's queues, the Held
// Locks view with a lock taken by hand, and the lock timeline after a few hand-overs. Each shot first checks what it shows. They go to
// test-results/screenshots/readme/; with ZOOSCOPE_README_IMAGES=1 to docs/images/ (committed) instead:
//   ZOOSCOPE_README_IMAGES=1 ZOOSCOPE_E2E_GREP='^readme:' node out/test/e2e/run.js   (see scripts/host/run-ui-tests.sh)
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DemoLockClients, startDemoLockClients } from '../../scripts/demo/lockClients';
import { DEMO_ROOT, seedDemoData } from '../../scripts/demo/seed';
import { waitFor } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { lockPanel, timelineRange, waitForParticipants } from './lockPanel';
import { contextSubmenu } from './menus';
import { E2eTest, escapeRegExp, repoRoot, screenshotDir, Workbench } from './workbench';

const CONNECTION = 'Local ZooKeeper';
/** Small enough for a README, large enough to read the tree and the panel. */
const VIEWPORT = { width: 1180, height: 720 };
const imageDir = process.env.ZOOSCOPE_README_IMAGES === '1' ? path.join(repoRoot, 'docs', 'images') : path.join(screenshotDir, 'readme');
/** Lock taken by hand for the Held Locks shot (a node of its own, beside the demo's queues). */
const HAND_LOCK = `${DEMO_ROOT}/locks/nightly-report`;

type Area = { x: number; y: number; width: number; height: number };

async function shoot(wb: Workbench, name: string, clip?: Area): Promise<void> {
  fs.mkdirSync(imageDir, { recursive: true });
  // Once any hover or notification has finished fading in.
  await wb.page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('.monaco-hover, .workbench-hover, .notification-toast')]
    .every((e) => getComputedStyle(e).opacity === '1'));
  await wb.page.screenshot({ path: path.join(imageDir, `${name}.png`), clip });
}

/** The side bar's area, `extraWidth` wider (for a tooltip beside it). */
async function sideBarArea(wb: Workbench, extraWidth: number): Promise<Area> {
  const box = await wb.page.locator('.part.sidebar').boundingBox();
  assert.ok(box, 'side bar shown');
  return { x: 0, y: 0, width: Math.min(VIEWPORT.width, box.x + box.width + extraWidth), height: VIEWPORT.height };
}

export const tests: E2eTest[] = [
  {
    name: 'readme: the tree with a tooltip, the lock-queue panel on the demo\'s queues, the Held Locks view',
    timeoutMs: 300000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      // `wide` is not in any picture: a tenth of its 20,000 children saves the seeding time.
      await seedDemoData(ctx.zk, { wideCount: 2000 });
      // Holders keep the lock for the whole test: the queues stay as the checks found them.
      const locks: DemoLockClients = await startDemoLockClients(ctx.zk, { holdMs: { min: 600000, max: 600000 } });
      const other = await connectOtherClient(ctx.zk);
      try {
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'local', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.page.setViewportSize(VIEWPORT);
        await wb.openZooScope();
        await wb.widenSideBar(420);
        await wb.connectRow(CONNECTION);

        // 1. The tree, revealed down to the kazoo queue's holder, with its tooltip open.
        const kazoo = await queueOf(other, locks.lockPaths.kazoo, 3);
        await wb.runCommand('ZooScope: Go to Path…');
        const input = wb.page.locator('.quick-input-widget input');
        await input.fill(`${locks.lockPaths.kazoo}/${kazoo[0]}`);
        await input.press('Enter');
        const holderRow = wb.explorerRow(kazoo[0]);
        await holderRow.waitFor({ timeout: 20000 });
        for (const name of kazoo) await wb.explorerRow(name).waitFor({ timeout: 20000 });
        // Near the row's right end (left of its inline action): the tooltip opens beside the pointer, clear of the names.
        const rowBox = await holderRow.boundingBox();
        assert.ok(rowBox, 'holder row shown');
        await holderRow.hover({ position: { x: rowBox.width - 44, y: rowBox.height / 2 } });
        const hover = wb.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'ephemeralOwner' }).first();
        await hover.waitFor({ timeout: 15000 });
        assert.match(await hover.innerText(), /ephemeralOwner\s*0x[0-9a-f]+/);
        const hoverBox = await hover.boundingBox();
        const treeArea = await sideBarArea(wb, 40);
        await shoot(wb, 'tree-tooltip', { ...treeArea, width: Math.min(VIEWPORT.width, Math.max(treeArea.width, (hoverBox?.x ?? 0) + (hoverBox?.width ?? 0) + 16)) });
        await wb.page.mouse.move(VIEWPORT.width - 20, VIEWPORT.height / 2);

        // 2. Show Locks Under… on the demo's locks: both queues, a holder each and five waiters in all.
        await wb.page.keyboard.press('Escape');
        const locksRow = wb.explorerRow('locks');
        await locksRow.waitFor({ timeout: 20000 });
        await contextSubmenu(wb, locksRow, 'Locks', 'Show Locks Under…');
        const panel = lockPanel(wb);
        await panel.locator('h1', { hasText: `Locks under ${DEMO_ROOT}/locks` }).waitFor({ timeout: 60000 });
        const rows = await waitForParticipants(panel, (r) => r.length === 7 && r.filter((t) => /holder/.test(t)).length === 2, 'both demo queues');
        for (const lockPath of Object.values(locks.lockPaths)) {
          assert.strictEqual(await panel.locator('.row-queue', { hasText: lockPath }).count(), 1, `${lockPath} listed`);
        }
        assert.strictEqual(rows.filter((t) => /waiting/.test(t)).length, 5, rows.join('\n'));
        await wb.page.mouse.move(VIEWPORT.width - 20, VIEWPORT.height - 40);
        await shoot(wb, 'lock-queue-panel');

        // 3. A lock taken by hand, in the Held Locks view with its facts, and counted in the status bar.
        await wb.runCommand('View: Close All Editors');
        await wb.runCommand('ZooScope: Acquire Lock');
        await wb.answerInput(/Path of the lock/, HAND_LOCK);
        const held = wb.page.getByRole('treeitem', { name: new RegExp(`^${escapeRegExp(HAND_LOCK)}, held · exclusive lock · since`) }).first();
        await held.waitFor({ timeout: 30000 });
        await wb.page.locator('.statusbar-item', { hasText: /1 held/ }).first().waitFor({ timeout: 10000 });
        await held.locator('.monaco-tl-twistie').click();
        const [ours] = await other.children(HAND_LOCK);
        await wb.page.getByRole('treeitem', { name: `Own node: ${HAND_LOCK}/${ours}` }).waitFor({ timeout: 10000 });
        await wb.page.mouse.move(VIEWPORT.width - 20, VIEWPORT.height / 2);
        await shoot(wb, 'held-locks', await sideBarArea(wb, 0));
      } finally {
        await locks.stop();
        await other.removeRecursive(HAND_LOCK).catch(() => undefined);
        other.close();
      }
    },
  },
  {
    name: 'readme: the lock timeline on the demo\'s queues after a few hand-overs',
    timeoutMs: 300000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const releases: number[] = [];
      // The demo's lock clients, taking turns every few seconds (the demo's own take 20–40 s).
      const locks = await startDemoLockClients(ctx.zk, {
        holdMs: { min: 2000, max: 5000 }, rejoinDelayMs: 1000,
        log: (line) => { if (/: released /.test(line)) releases.push(Date.now()); },
      });
      try {
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'local', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.page.setViewportSize(VIEWPORT);
        await wb.openZooScope();
        const openedAt = Date.now();
        await wb.runCommand('ZooScope: Show Locks Under…');
        await wb.answerInput(/Path of the subtree/, `${DEMO_ROOT}/locks`);
        const panel = lockPanel(wb);
        await waitForParticipants(panel, (r) => r.length === 7, 'both demo queues', 60000);
        const shownAt = Date.now();
        await waitFor('six hand-overs drawn', async () => releases.filter((t) => t > shownAt).length >= 6 && (await timelineRange(panel)).bars >= 12, 120000, 250);
        // The whole editor for the panel: the queues above, the timeline and its figures below.
        await wb.runCommand('View: Toggle Primary Side Bar Visibility');
        await panel.locator('.timeline-canvas').scrollIntoViewIfNeeded();
        const range = await timelineRange(panel);
        assert.ok(range.from >= openedAt && range.firstTick >= range.from, `the view starts ${new Date(range.from).toISOString()}`);
        await wb.page.mouse.move(VIEWPORT.width - 20, VIEWPORT.height - 40);
        await shoot(wb, 'lock-timeline');
      } finally {
        await locks.stop();
      }
    },
  },
];

/** The queue's node names in sequence order, once it has `size` of them. */
function queueOf(other: OtherClient, lockPath: string, size: number): Promise<string[]> {
  const sequenceOf = (name: string) => Number(/(\d{10})$/.exec(name)?.[1] ?? NaN);
  return waitFor(`${lockPath} with ${size} nodes`, async () => {
    const names = await other.children(lockPath).catch(() => []);
    return names.length === size && names.sort((a, b) => sequenceOf(a) - sequenceOf(b));
  }, 30000, 200);
}
