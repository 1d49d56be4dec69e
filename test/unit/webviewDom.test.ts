// The bundled lock-queue front-end in headless Chromium (no VS Code): handshake and saved state, rows in queue
// order, ZooKeeper text never becoming markup, virtualization of 10,000 waiters, keyed updates that keep
// unchanged rows, keyboard navigation, and actions hidden by capability.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { toJsonText, type HostMessage, type LockQueuePanelState, type PanelCapabilities, type WebviewMessage } from '../../src/shared/lockQueueMessages';
import type { LockAnalysis } from '../../src/shared/lockAnalysis';
import { launchChromium } from '../support/servers/chromium';
import { fixtureAnalysis, fixtureQueue } from '../support/fixtures/webviewFixtures';
import { ModelSender } from '../../src/shared/lockQueueSync';
import { randomChange, seeded } from '../support/fixtures/webviewDeltaModels';
import { bundleFrontEnd, FrontEnd, openFrontEnd, testStrings } from '../support/fixtures/webviewPage';

const STATE: LockQueuePanelState = { connectionId: 'c1', root: '/locks/orders', mode: 'queue' };
const ALL: PanelCapabilities = { canAcquire: true, canRelease: true, canForceRelease: true };
const XSS = '<img src=x onerror="window.__xss=1">';

function init(capabilities: PanelCapabilities = ALL): HostMessage {
  return { type: 'init', state: STATE, connectionName: 'Test <b>conn</b>', strings: testStrings(), capabilities };
}

let seq = 0;
function model(analysis: LockAnalysis): Extract<HostMessage, { type: 'model' }> {
  return { type: 'model', seq: ++seq, analysisJson: toJsonText(analysis), anomalyTexts: {} };
}

describe('lock-queue webview (bundled, in Chromium)', () => {
  let browser: Browser;
  let code: string;
  before(async () => {
    browser = await launchChromium();
    code = await bundleFrontEnd();
  });
  after(async () => { await browser?.close(); });

  async function open(capabilities?: PanelCapabilities, height = 700): Promise<FrontEnd> {
    const fe = await openFrontEnd({ browser, code, height });
    await fe.send(init(capabilities));
    return fe;
  }

  const rowTexts = (fe: FrontEnd) => fe.page.$$eval('.row', (rows) => rows
    .sort((a, b) => parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top))
    .map((r) => r.textContent ?? ''));

  it('says ready, saves its state for the serializer, and renders holder first then waiters in order', async () => {
    const fe = await open();
    try {
      assert.deepEqual((await fe.posted())[0], { type: 'ready' });
      assert.deepEqual(await fe.page.evaluate(() => (window as unknown as { __state: unknown }).__state), STATE);
      await fe.timeModel(model(fixtureAnalysis(4)));
      const texts = await rowTexts(fe);
      assert.match(texts[0], /\/locks\/orders/);
      assert.match(texts[0], /1 holding/);
      const people = texts.filter((t) => /#\d/.test(t));
      assert.deepEqual(people.map((t) => /#(\d+)/.exec(t)?.[1]), ['0', '1', '2', '3']);
      assert.match(people[0], /holder/);
      assert.match(people[0], /session 0x1000/);
      assert.match(people[0], /client 10\.0\.0\.0:40000/);
      assert.match(people[0], /held 1m 4s|held \d/);
      assert.match(people[1], /waiting/);
      assert.match(people[2], /ours/);
      assert.equal(await fe.page.locator('.row.edge-above-server').count(), 2);
      assert.equal(await fe.page.locator('.row.edge-above-inferred').count(), 1);
      assert.equal(await fe.page.locator('.edge-server').count(), 2);
      assert.equal(await fe.page.locator('.edge-inferred').count(), 1);
      const title = await fe.page.locator('h1').textContent();
      assert.equal(title, 'Lock queue /locks/orders — Test <b>conn</b>');
    } finally {
      await fe.close();
    }
  });

  it('draws a watch on its own node as "own node" after what it waits for, and keeps many chips inside the row', async () => {
    const fe = await openFrontEnd({ browser, code, width: 1500, height: 700 });
    try {
      await fe.send(init());
      const analysis = fixtureAnalysis(3);
      const waiter = analysis.queues[0].participants[1];
      const predecessor = analysis.queues[0].participants[0];
      waiter.watches = [{ path: waiter.path, source: 'server' }, { path: predecessor.path, source: 'server' },
        ...Array.from({ length: 40 }, (_, i) => ({ path: `/elsewhere/watched-node-${i}`, source: 'server' as const }))];
      await fe.timeModel(model(analysis));
      const row = fe.page.locator('.row', { hasText: waiter.name }).first();
      const chips = row.locator('.edge');
      assert.equal(await chips.first().textContent(), `#0 ${predecessor.name}`, 'what it waits for comes first');
      assert.equal(await row.locator('.edge-own').count(), 1);
      assert.equal(await row.locator('.edge-own').textContent(), 'ownNode');
      assert.ok(!(await chips.allTextContents()).some((text) => text.includes(`#1 ${waiter.name}`)), 'never drawn as waiting on itself');
      const rowBox = (await row.boundingBox())!;
      const edgesBox = (await row.locator('.edges').boundingBox())!;
      assert.ok(edgesBox.x + edgesBox.width <= rowBox.x + rowBox.width + 0.5, `chips end at ${edgesBox.x + edgesBox.width}, the row at ${rowBox.x + rowBox.width}`);
    } finally {
      await fe.close();
    }
  });

  it('shows names, data and connection names from ZooKeeper as text, never as markup', async () => {
    const fe = await open();
    try {
      const analysis = fixtureAnalysis(3, { holderName: XSS });
      analysis.queues[0].participants[1].label = '<script>window.__xss=2</script><b>bold</b>';
      await fe.timeModel(model(analysis));
      assert.equal(await fe.page.locator('img').count(), 0);
      assert.equal(await fe.page.locator('.row b, .row script').count(), 0);
      assert.equal(await fe.page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
      const names = await fe.page.locator('.row-participant .name').allTextContents();
      assert.equal(names[0], XSS);
      const labels = await fe.page.locator('.row-participant .label').allTextContents();
      assert.equal(labels[1], '<script>window.__xss=2</script><b>bold</b>');
      assert.match(await fe.page.locator('.row-participant').first().getAttribute('aria-label') ?? '', /<img src=x/);
    } finally {
      await fe.close();
    }
  });

  it('writes out bidi and zero-width characters of names, labels and the title, and isolates names from their neighbours', async () => {
    const fe = await open();
    try {
      const analysis = fixtureAnalysis(3, { holderName: `invoice-\u202Egnp.exe` });
      analysis.root = `/locks/\u202Eorders`;
      analysis.queues[0].participants[1].label = `adm\u200Bin \u2066x\u2069`;
      await fe.send({ type: 'init', state: { ...STATE, root: analysis.root }, connectionName: 'c\u202Eonn', strings: testStrings(), capabilities: ALL });
      await fe.timeModel(model(analysis));
      const text = await fe.page.locator('body').innerText();
      assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/, 'no raw bidi or zero-width character on screen');
      const names = await fe.page.locator('.row-participant .name').allTextContents();
      assert.equal(names[0], 'invoice-[U+202E]gnp.exe');
      const labels = await fe.page.locator('.row-participant .label').allTextContents();
      assert.equal(labels[1], 'adm[U+200B]in [U+2066]x[U+2069]');
      assert.match(await fe.page.locator('h1.title').innerText(), /\[U\+202E\]orders/);
      assert.equal(await fe.page.locator('.row-participant .name').first().evaluate((n) => getComputedStyle(n).unicodeBidi), 'isolate');
    } finally {
      await fe.close();
    }
  });

  it('keeps only the rows on screen in the DOM for 10,000 waiters, and renders the end when scrolled there', async () => {
    const fe = await open();
    try {
      await fe.timeModel(model(fixtureAnalysis(10000)));
      const count = await fe.page.locator('.row').count();
      assert.ok(count > 5 && count < 60, `${count} rows in the DOM`);
      const rendered = (await fe.posted()).filter((m): m is Extract<WebviewMessage, { type: 'rendered' }> => m.type === 'rendered').pop();
      assert.equal(rendered?.rows, 10002);
      await fe.page.locator('.scroller').evaluate((s) => { s.scrollTop = s.scrollHeight; });
      await fe.page.locator('.row-participant', { hasText: '#9999' }).waitFor({ timeout: 5000 });
      assert.equal(await fe.page.locator('.row-participant', { hasText: /#0 / }).count(), 0);
      assert.ok(await fe.page.locator('.row').count() < 60);
    } finally {
      await fe.close();
    }
  });

  it('an update re-renders only the changed row and keeps the other elements', async () => {
    const fe = await open();
    try {
      await fe.timeModel(model(fixtureAnalysis(1000)));
      await fe.page.evaluate(() => document.querySelectorAll('.row').forEach((r) => { (r as HTMLElement & { __mark?: boolean }).__mark = true; }));
      await fe.timeModel(model(fixtureAnalysis(1000, { changed: [5], labelSuffix: ' (changed)' })));
      const rows = await fe.page.$$eval('.row-participant', (list) => list.map((r) => ({
        text: r.querySelector('.label')?.textContent ?? '', kept: (r as HTMLElement & { __mark?: boolean }).__mark === true,
      })));
      const five = rows.find((r) => r.text.startsWith('worker-5'));
      assert.equal(five?.text, 'worker-5 (changed)');
      assert.ok(five?.kept, 'the changed row keeps its element');
      assert.ok(rows.filter((r) => r.text !== 'worker-5 (changed)').every((r) => r.kept), 'unchanged rows are the same elements');
    } finally {
      await fe.close();
    }
  });

  it('moves through rows with the arrow keys, Home/End, and reveals the focused node with Enter', async () => {
    const fe = await open(ALL, 400);
    try {
      await fe.timeModel(model(fixtureAnalysis(500)));
      await fe.page.locator('.row-participant').first().focus();
      for (let i = 0; i < 3; i++) await fe.page.keyboard.press('ArrowDown');
      const focused = () => fe.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.key);
      const analysis = fixtureAnalysis(500);
      assert.equal(await focused(), `p:${analysis.queues[0].participants[3].path}`);
      await fe.page.keyboard.press('End');
      assert.equal(await focused(), `p:${analysis.queues[0].participants[499].path}`);
      await fe.page.keyboard.press('ArrowUp');
      await fe.page.keyboard.press('Enter');
      const reveal = (await fe.posted()).find((m) => m.type === 'reveal');
      assert.ok(reveal?.type === 'reveal');
      assert.equal(reveal.path, analysis.queues[0].participants[498].path);
      await fe.page.keyboard.press('Home');
      assert.equal(await focused(), 'q:/locks/orders');
      assert.equal(await fe.page.locator('[role=list] [role=listitem][aria-posinset="1"]').count(), 1);
    } finally {
      await fe.close();
    }
  });

  it('offers force-release on holders that are not ours, release on ours, acquire only when the command exists', async () => {
    const fe = await open({ canAcquire: false, canRelease: true, canForceRelease: true });
    try {
      const analysis = fixtureAnalysis(4);
      await fe.timeModel(model(analysis));
      assert.equal(await fe.page.locator('.action-acquire').count(), 0);
      assert.equal(await fe.page.locator('.action-forceRelease').count(), 1);
      assert.equal(await fe.page.locator('.action-release').count(), 1);
      const holder = fe.page.locator('.row-participant').first();
      await holder.hover();
      await holder.locator('.action-forceRelease').click();
      const request = (await fe.posted()).find((m) => m.type === 'forceRelease');
      assert.ok(request?.type === 'forceRelease');
      assert.equal(request.path, analysis.queues[0].participants[0].path);
      await fe.send({ type: 'capabilities', capabilities: { canAcquire: true, canRelease: false, canForceRelease: false } });
      await fe.page.locator('.action-acquire').waitFor({ state: 'attached', timeout: 5000 });
      assert.equal(await fe.page.locator('.action-forceRelease').count(), 0);
      assert.equal(await fe.page.locator('.action-release').count(), 0);
    } finally {
      await fe.close();
    }
  });

  it('reports the rows as shown with each render', async () => {
    const fe = await open();
    try {
      const message = model(fixtureAnalysis(2));
      await fe.timeModel(message);
      const rendered = (await fe.posted()).filter((m): m is Extract<WebviewMessage, { type: 'rendered' }> => m.type === 'rendered').pop();
      assert.equal(rendered?.seq, message.seq);
      assert.equal(rendered.rows, 4);
      const domText = await fe.page.$$eval('.row', (rows) => rows
        .sort((a, b) => parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top))
        .map((r) => r.textContent ?? ''));
      assert.deepEqual(rendered.shown, domText);
      assert.match(rendered.shown[2], /#0/);
    } finally {
      await fe.close();
    }
  });

  /** What the rows are, top to bottom: their whole markup (text, classes, accessible names, titles, place). */
  /**
   * The rows on screen once the page has settled: a page's first layout (its size observed) asks for one more render
   * in the next frame, which under load can come after the `rendered` report (run T3: one page still showed the rows
   * of its fallback height). Two frames later it has run: render, layout, observer, render.
   */
  const shownRows = async (fe: FrontEnd) => {
    await fe.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    return fe.page.$$eval('.row', (rows) => rows
      .sort((a, b) => parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top))
      .map((r) => r.outerHTML));
  };

  it('after a sequence of deltas it shows exactly what a page given the whole latest model shows, scrolled or not', async () => {
    const byDelta = await open(ALL, 500);
    const whole = await open(ALL, 500);
    try {
      const r = seeded(7);
      const sender = new ModelSender();
      let latest = fixtureAnalysis(300);
      let deltas = 0;
      for (let step = 0; step < 30; step++) {
        if (step > 0) latest = randomChange(r, latest);
        const message = sender.next(latest, {});
        if (message.type === 'delta') deltas++;
        await byDelta.timeModel(message);
        if (step % 10 === 9) {
          await whole.timeModel({ type: 'model', seq: step, analysisJson: toJsonText(latest), anomalyTexts: {} });
          assert.deepEqual(await shownRows(byDelta), await shownRows(whole), `step ${step}`);
        }
      }
      assert.ok(deltas >= 20, `${deltas} deltas`);
      // A long queue at the end, then one more change, so there is something to scroll through.
      latest = { ...latest, queues: [...latest.queues, fixtureQueue(300, { root: '/locks/long' })] };
      latest = randomChange(r, latest);
      for (const [fe, message] of [[byDelta, sender.next(latest, {})], [whole, { type: 'model', seq: 99, analysisJson: toJsonText(latest), anomalyTexts: {} }]] as const) {
        await fe.timeModel(message);
      }
      for (const fe of [byDelta, whole]) {
        await fe.page.locator('.scroller').evaluate((s) => new Promise((done) => {
          s.scrollTop = s.scrollHeight / 2;
          requestAnimationFrame(() => requestAnimationFrame(done));
        }));
      }
      assert.ok(await byDelta.page.locator('.scroller').evaluate((s) => s.scrollTop > 0), 'scrolled');
      assert.deepEqual(await shownRows(byDelta), await shownRows(whole), 'scrolled');
      assert.equal(await byDelta.page.locator('.row b').count(), 0, 'new names and data stay text');
    } finally {
      await byDelta.close();
      await whole.close();
    }
  });

  it('the holder released in 10,000 waiters: rows on screen move up one place, keep their elements, and show their new positions', async () => {
    const fe = await open();
    try {
      const sender = new ModelSender();
      const before = fixtureAnalysis(10000);
      await fe.timeModel(sender.next(before, {}));
      await fe.page.evaluate(() => document.querySelectorAll('.row, .row .pos').forEach((r) => { (r as HTMLElement & { __mark?: boolean }).__mark = true; }));
      const after = fixtureAnalysis(10000);
      const q = after.queues[0];
      q.participants = q.participants.slice(1).map((p, i) => ({ ...p, position: i }));
      q.participants[0] = { ...q.participants[0], role: 'holder', watches: [], waitsFor: [] };
      q.anomalies = [];
      const message = sender.next(after, {});
      assert.equal(message.type, 'delta');
      await fe.timeModel(message);
      const rows = await fe.page.$$eval('.row-participant', (list) => list
        .sort((x, y) => parseFloat((x as HTMLElement).style.top) - parseFloat((y as HTMLElement).style.top))
        .map((r) => ({
          text: r.textContent ?? '', kept: (r as HTMLElement & { __mark?: boolean }).__mark === true,
          posKept: (r.querySelector('.pos') as (HTMLElement & { __mark?: boolean }) | null)?.__mark === true,
        })));
      assert.match(rows[0].text, /^#0holder.*worker-1$/);
      assert.match(rows[1].text, /^#1waiting.*worker-2(?!\d)/);
      // The holder's and its anomaly's rows left the top: what comes into view at the bottom is new, nothing else.
      const created = rows.filter((r) => !r.kept).length;
      assert.ok(created <= 3 && rows.slice(0, rows.length - created).every((r) => r.kept), 'rows that stay on screen keep their elements');
      // Waiters whose position alone changed are patched in place, not rebuilt; the new holder is rebuilt.
      assert.ok(!rows[0].posKept, 'the new holder is rendered anew');
      assert.ok(rows.slice(1, rows.length - created).every((r) => r.posKept), 'the other rows keep their content');
      assert.match(rows[2].text, /^#2waiting.*#1 _c_/);
      const whole = await open();
      try {
        await whole.timeModel({ type: 'model', seq: 1, analysisJson: toJsonText(after), anomalyTexts: {} });
        assert.deepEqual(await shownRows(fe), await shownRows(whole), 'the same markup as a page given the whole model');
      } finally {
        await whole.close();
      }
      const rendered = (await fe.posted()).filter((m): m is Extract<WebviewMessage, { type: 'rendered' }> => m.type === 'rendered').pop();
      assert.equal(rendered?.seq, message.seq);
      assert.equal(rendered?.rows, 1 + 9999, 'the queue row and 9,999 participants');
    } finally {
      await fe.close();
    }
  });

  it('asks the host for the whole model when a delta does not follow the one it shows', async () => {
    const fe = await open();
    try {
      const sender = new ModelSender();
      await fe.timeModel(sender.next(fixtureAnalysis(5), {}));
      sender.next(fixtureAnalysis(5, { changed: [1] }), {}); // never delivered
      await fe.send(sender.next(fixtureAnalysis(5, { changed: [2], labelSuffix: ' changed' }), {}));
      await fe.page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'resync'));
      const resync = (await fe.posted()).find((m) => m.type === 'resync');
      assert.deepEqual(resync, { type: 'resync', seq: 1 });
      assert.ok((await rowTexts(fe)).every((t) => !/changed/.test(t)), 'nothing of the delta was shown');
    } finally {
      await fe.close();
    }
  });

  it('a fixed leader\'s contenders (no node of their own, one path) get a row each, and leave without a trace', async () => {
    const fe = await open();
    try {
      const fixed = (sessions: string[]): LockAnalysis => {
        const a = fixtureAnalysis(1, { root: '/controller' });
        const leader = { ...a.queues[0].participants[0], path: '/controller', name: 'controller', kind: 'candidate' as const, role: 'leader' as const };
        a.queues[0] = { path: '/controller', recipe: 'fixed-leader', anomalies: [], participants: [leader, ...sessions.map((session, i) => ({
          path: '/controller', name: 'controller', kind: 'candidate' as const, role: 'waiter' as const, position: i + 1, session, since: 0,
          waitsFor: ['/controller'], watches: [{ path: '/controller', source: 'server' as const }], nodeless: true,
        }))] };
        return a;
      };
      const sender = new ModelSender();
      await fe.timeModel(sender.next(fixed(['0xa1', '0xa2', '0xa3']), {}));
      const sessions = async () => (await rowTexts(fe)).filter((t) => /^#\d/.test(t)).map((t) => /session (0x[0-9a-f]+)/.exec(t)?.[1]);
      assert.deepEqual(await sessions(), ['0x1000', '0xa1', '0xa2', '0xa3']);
      await fe.timeModel(sender.next(fixed(['0xa1', '0xa3']), {}));
      assert.deepEqual(await sessions(), ['0x1000', '0xa1', '0xa3']);
    } finally {
      await fe.close();
    }
  });
});
