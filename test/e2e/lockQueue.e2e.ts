// The lock-queue panel and the Ensemble view as a person sees them: a real queue (separate sessions, waiters with
// exists watches on their predecessor) opened from the palette; the webview's text read through its nested
// iframes (order, roles, sessions, labels, watch edges), a node name that is markup shown as text, live changes,
// the keyboard, and screenshots of the panel and the Ensemble view.
import * as assert from 'node:assert';
import { LockQueueClients, startLockQueue } from '../support/clients/lockQueueClients';
import { connectOtherClient } from '../support/clients/zkClient';
import { lockPanel, waitForParticipants } from './lockPanel';
import { contextSubmenu } from './menus';
import { E2eTest } from './workbench';

const CONNECTION = 'E2E Locks';
// Markup and a right-to-left override (U+202E) in one name: shown as text, the override written out.
const XSS_NAME = '<img src=x onerror=alert(1)>\u202Elock-';

export const tests: E2eTest[] = [
  {
    name: 'lock queue panel: holders and waiters of a real queue, live changes, markup names as text, keyboard, Ensemble view',
    timeoutMs: 240000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      const base = `/e2e-locks-${Date.now().toString(36)}`;
      let queue: LockQueueClients | undefined;
      try {
        queue = await startLockQueue(ctx.zk, `${base}/orders`, 3);
        await queue.join('<b>not bold</b>', XSS_NAME);
        const wb = await ctx.open({ settings: { 'zooscope.connections': [{ id: 'e2e-locks', name: CONNECTION, connectString: ctx.zk }] } });
        await wb.openZooScope();
        await wb.runCommand('ZooScope: Show Lock Queue');
        await wb.answerInput(/Path of the lock/, `${base}/orders`);
        const frame = lockPanel(wb);
        await frame.locator('h1', { hasText: `${base}/orders` }).waitFor({ timeout: 60000 });

        const rows = await waitForParticipants(frame, (r) => r.length === 4, 'four participants');
        rows.forEach((text, i) => assert.match(text, new RegExp(`^#${i}`), `row ${i}: ${text}`));
        assert.match(rows[0], /holder/);
        for (const i of [1, 2, 3]) assert.match(rows[i], /waiting/);
        queue.contenders.forEach((c, i) => {
          assert.ok(rows[i].includes(c.session), `row ${i} names session ${c.session}`);
          assert.ok(rows[i].includes(c.data), `row ${i} shows data ${c.data}`);
        });
        assert.match(rows[1], /#0 lock-0000000000/, 'the first waiter points at the holder');
        assert.match(rows[2], /#1 lock-0000000001/);
        // The name that is markup is shown as text, and no element came of it.
        assert.ok(rows[3].includes('<img src=x onerror=alert(1)>[U+202E]lock-0000000003'), rows[3]);
        assert.doesNotMatch(await frame.locator('body').innerText(), /[\u202a-\u202e\u2066-\u2069]/, 'no raw bidi control in the panel');
        assert.ok(rows[3].includes('<b>not bold</b>'), rows[3]);
        assert.strictEqual(await frame.locator('img').count(), 0);
        assert.strictEqual(await frame.locator('.row b').count(), 0);
        assert.strictEqual(await frame.locator('.edge').count() >= 3, true, 'watch edges are drawn');
        await wb.screenshot('lock-queue-panel');

        // Live: a waiter joins, then the holder's session ends.
        await queue.join('late-joiner');
        await waitForParticipants(frame, (r) => r.length === 5 && r[4].includes('late-joiner'), 'the new waiter');
        queue.leave(queue.contenders[0]);
        const after = await waitForParticipants(frame, (r) => r.length === 4 && r[0].includes('worker-1') && /holder/.test(r[0]), 'worker-1 holding');
        assert.match(after[0], /^#0/);
        await wb.screenshot('lock-queue-panel-after-release');

        // Keyboard: arrows move through the rows, Enter reveals the node in the ZooKeeper tree. (The connection is
        // expanded first: a reveal into a tree whose connection was never expanded shows nothing in code-server yet.)
        await wb.connectRow(CONNECTION);
        await frame.locator('.row-participant').first().focus();
        await wb.page.keyboard.press('ArrowDown');
        const focused = await frame.locator('.row-participant:focus').textContent();
        assert.match(String(focused), /^#1/);
        await wb.page.keyboard.press('Enter');
        const revealedRow = wb.explorerRow('lock-0000000002');
        await revealedRow.waitFor({ timeout: 20000 }).catch(async (error: unknown) => {
          await wb.screenshot('lock-queue-reveal-missing');
          throw error;
        });
        await wb.screenshot('lock-queue-reveal');
        await wb.page.waitForFunction(() => Array.from(document.querySelectorAll('.part.sidebar .monaco-list-row.selected, .part.sidebar .monaco-list-row[aria-selected="true"]'))
          .some((r) => r.querySelector('.label-name')?.textContent === 'lock-0000000002'), undefined, { timeout: 20000 });

        // The Ensemble view (collapsed by default: it polls while visible): the test server with its mode and
        // version. The other views fold away so its figures fit.
        const pane = (title: RegExp) => wb.page.locator('.part.sidebar .pane').filter({ has: wb.page.locator('.pane-header', { hasText: title }) }).first();
        const setPane = async (title: RegExp, expanded: boolean) => {
          const header = pane(title).locator('.pane-header');
          await header.waitFor({ timeout: 20000 });
          if (((await header.getAttribute('aria-expanded')) === 'true') !== expanded) await header.click();
          await pane(title).locator(`.pane-header[aria-expanded="${expanded}"]`).waitFor({ timeout: 10000 });
        };
        const ensemble = pane(/^Ensemble/i);
        await setPane(/^ZooKeeper/i, false);
        await setPane(/^Held Locks/i, false);
        await setPane(/^Ensemble/i, true);
        const serverRow = ensemble.locator('.monaco-list-row[aria-level="2"]', { hasText: ctx.zk.split(',')[0] }).first();
        await serverRow.waitFor({ timeout: 30000 });
        assert.match(await serverRow.innerText(), /standalone|leader|follower/);
        if ((await serverRow.getAttribute('aria-expanded')) !== 'true') await serverRow.click();
        for (const figure of ['Mode', 'Version', 'Connections', 'Znodes', 'Watches']) {
          await ensemble.locator('.monaco-list-row', { hasText: figure }).first().waitFor({ timeout: 20000 });
        }
        await wb.screenshot('ensemble-view');
        await setPane(/^Ensemble/i, false);
        await setPane(/^Held Locks/i, true);
        await setPane(/^ZooKeeper/i, true);

        // A window reload brings the panel back (serializer) on the same connection and path, live again.
        await wb.page.reload();
        await wb.page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60000 });
        const restored = lockPanel(wb);
        await restored.locator('h1', { hasText: `${base}/orders` }).waitFor({ timeout: 60000 });
        await waitForParticipants(restored, (r) => r.length === 4 && /holder/.test(r[0]) && r[0].includes('worker-1'), 'the queue after a reload');
        await wb.screenshot('lock-queue-panel-restored');

        // From the tree's context menu (keyed on contextValue): "Show Locks Under…" on the test's base node.
        await wb.openZooScope();
        // Which views were folded is restored lazily by the workbench: open the explorer view for sure.
        await setPane(/^ZooKeeper/i, true);
        const baseRow = wb.explorerRow(base.slice(1));
        // The workbench may fold the connection again as it restores the tree's state after the reload: expand it
        // until its child stays in view.
        for (let attempt = 1; ; attempt++) {
          await wb.connectRow(CONNECTION);
          try {
            await baseRow.waitFor({ timeout: 5000 });
            break;
          } catch (error) {
            if (attempt === 4) throw error;
          }
        }
        await contextSubmenu(wb, baseRow, 'Locks', 'Show Locks Under…');
        const subtree = lockPanel(wb);
        await subtree.locator('h1', { hasText: `Locks under ${base} — ${CONNECTION}` }).waitFor({ timeout: 60000 });
        await waitForParticipants(subtree, (r) => r.length === 4, 'the subtree\'s queue');
        assert.strictEqual(await subtree.locator('.row-queue', { hasText: `${base}/orders` }).count(), 1);
      } finally {
        queue?.close();
        const cleanup = await connectOtherClient(ctx.zk);
        await cleanup.removeRecursive(base).catch(() => undefined);
        cleanup.close();
      }
    },
  },
];
