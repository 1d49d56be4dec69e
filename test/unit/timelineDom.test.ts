// The lock history in the bundled webview, in headless Chromium: the timeline is drawn from a `timeline` message
// (lanes, bars), hovering and the keyboard show exact times and whether they are exact, hostile names stay inert text,
// a click reveals the node, the figures render, and a replay shows only the history.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { toJsonText, type HostMessage, type WebviewMessage } from '../../src/shared/lockQueueMessages';
import { lockFigures } from '../../src/zk/history/figures';
import { participantBounds } from '../../src/zk/history/figureBounds';
import { timelineData } from '../../src/zk/history/timeline';
import { LockHistory } from '../../src/zk/history/history';
import { launchChromium } from '../support/servers/chromium';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';
import { chainHistory, T0 } from '../support/fixtures/timelineFixtures';
import { bundleFrontEnd, FrontEnd, openFrontEnd, testStrings } from '../support/fixtures/webviewPage';

const XSS = '<img src=x onerror="window.__xss=1">';
const NAMES = [HOSTILE_NAMES.rtlOverride, XSS, HOSTILE_NAMES.zeroWidth];
const LABELS = 170;
const AXIS = 22;
const LANE = 20;

function init(replay?: { file: string }): HostMessage {
  return { type: 'init', state: { connectionId: 'c1', root: '/locks', mode: 'subtree' }, connectionName: 'c', strings: testStrings(), capabilities: { canAcquire: true, canRelease: true, canForceRelease: true }, ...(replay ? { replay } : {}) };
}

/** Three nodes of /locks/l0 holding 1 s each in turn (node 0 found already holding), with hostile names. */
function history() {
  return chainHistory({ nodes: 3, holdMs: 1000, name: (_, k) => NAMES[k] });
}

async function showHistory(fe: FrontEnd): Promise<void> {
  const h = history();
  const data = timelineData(h);
  await fe.send({ type: 'timeline', seq: 1, timelineJson: toJsonText(data), live: false, now: T0 + 3000, anomalies: [{ at: T0 + 1500, lock: '/locks/l0', severity: 'warning', title: `Held too long ${XSS}` }] });
  await fe.send({ type: 'figures', figuresJson: toJsonText(lockFigures(h, undefined, T0 + 3000)), participantBounds: participantBounds(h, undefined, T0 + 3000) });
  await fe.page.waitForFunction(() => Number(document.querySelector<HTMLCanvasElement>('.timeline-canvas')?.dataset.bars) > 0);
}

describe('lock history timeline (bundled webview, in Chromium)', () => {
  let browser: Browser;
  let code: string;
  before(async () => {
    browser = await launchChromium();
    code = await bundleFrontEnd();
  });
  after(async () => { await browser?.close(); });

  async function open(replay?: { file: string }): Promise<FrontEnd> {
    const fe = await openFrontEnd({ browser, code, width: 1000, height: 800 });
    await fe.send(init(replay));
    return fe;
  }

  /** Where on the page time `ms` (after T0) of lane `lane` is drawn: the window is 0…3060 ms (3 s, 2% margin). */
  async function pointAt(fe: FrontEnd, lane: number, ms: number): Promise<{ x: number; y: number }> {
    const box = (await fe.page.locator('.timeline-canvas').boundingBox())!;
    return { x: box.x + LABELS + (ms / 3060) * (box.width - LABELS), y: box.y + AXIS + lane * LANE + LANE / 2 };
  }

  const tooltip = (fe: FrontEnd) => fe.page.locator('.timeline-tooltip');

  it('draws a lane per participant and its bars, says "nothing recorded" before', async () => {
    const fe = await open();
    try {
      await fe.page.waitForFunction(() => document.querySelector<HTMLCanvasElement>('.timeline-canvas')?.dataset.bars === '0');
      await showHistory(fe);
      const canvas = fe.page.locator('.timeline-canvas');
      assert.equal(await canvas.getAttribute('data-lanes'), '3');
      // Node 0 holds; nodes 1 and 2 wait, then hold: 5 intervals, all in the window.
      assert.equal(await canvas.getAttribute('data-bars'), '5');
      // The per-session toggle: the chain's 3 nodes have 3 sessions, so still 3 lanes; its state is told.
      await fe.page.locator('.timeline .action').nth(3).click();
      assert.equal(await fe.page.locator('.timeline .action').nth(3).getAttribute('aria-pressed'), 'true');
    } finally {
      await fe.close();
    }
  });

  it('hover tells exact times and exact or bound; hostile names stay inert text', async () => {
    const fe = await open();
    try {
      await showHistory(fe);
      const first = await pointAt(fe, 0, 500);
      await fe.page.mouse.move(first.x, first.y);
      await tooltip(fe).waitFor({ state: 'visible' });
      const text = (await tooltip(fe).textContent()) ?? '';
      assert.match(text, /^tl\.hold · \/locks\/l0\/invoice-\[U\+202E\]gnp\.exe/);
      assert.match(text, /\d\d:\d\d:\d\d\.000 → (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d\.000 \(1\.000s\)/);
      assert.match(text, /tl\.startBound/, 'found already holding: its start is a bound');
      // Lines are the view's own (one fact a line); within them nothing hidden is raw.
      for (const line of text.split('\n')) assert.doesNotMatch(line, RAW_HIDDEN);
      const second = await pointAt(fe, 1, 1500);
      await fe.page.mouse.move(second.x, second.y);
      await fe.page.waitForFunction(() => /tl\.exact/.test(document.querySelector('.timeline-tooltip')?.textContent ?? ''));
      assert.match((await tooltip(fe).textContent()) ?? '', /<img src=x onerror/);
      assert.equal(await fe.page.locator('.timeline-tooltip *').count(), 0, 'the tooltip is text only');
      assert.equal(await fe.page.locator('img').count(), 0);
      assert.equal(await fe.page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
      // An anomaly is a mark on the axis where it appeared; hovering it says what it was, as text.
      const mark = await pointAt(fe, 0, 1500);
      await fe.page.mouse.move(mark.x, mark.y - LANE / 2 - 6);
      await fe.page.waitForFunction(() => /^Held too long/.test(document.querySelector('.timeline-tooltip')?.textContent ?? ''));
      assert.match((await tooltip(fe).textContent()) ?? '', /^Held too long <img src=x onerror="window.__xss=1"> · \/locks\/l0 · /);
      assert.equal(await fe.page.locator('img').count(), 0);
      // The figures: the lock, and the participants with their hostile names as visible text.
      const figures = (await fe.page.locator('.figures-table').textContent()) ?? '';
      assert.match(figures, /\/locks\/l0/);
      assert.match(figures, /fig\.bound/);
      // Each participant says exact or bound: the one found already holding is a bound.
      const marks = await fe.page.locator('.figures-participant td:last-child').allTextContents();
      assert.deepEqual([...marks].sort(), ['fig.bound', 'fig.exact', 'fig.exact']);
      assert.doesNotMatch(figures, RAW_HIDDEN);
    } finally {
      await fe.close();
    }
  });

  it('the keyboard reaches every interval; a click or Enter reveals the node', async () => {
    const fe = await open();
    try {
      await showHistory(fe);
      await fe.page.locator('.timeline-canvas').focus();
      await fe.page.keyboard.press('ArrowDown');
      await fe.page.keyboard.press('ArrowDown');
      // The tooltip follows the selection at the next frame, which may fall between the two presses: wait for the
      // second lane's text rather than reading whatever the first frame drew.
      await fe.page.waitForFunction(() => /\/locks\/l0\/<img/.test(document.querySelector('.timeline-tooltip')?.textContent ?? ''));
      assert.equal(await tooltip(fe).isVisible(), true);
      await fe.page.keyboard.press('Enter');
      const point = await pointAt(fe, 2, 2500);
      await fe.page.mouse.click(point.x, point.y);
      const reveals = (await fe.posted()).filter((m): m is Extract<WebviewMessage, { type: 'reveal' }> => m.type === 'reveal');
      assert.deepEqual(reveals.map((m) => m.path), [`/locks/l0/${XSS}`, `/locks/l0/${HOSTILE_NAMES.zeroWidth}`]);
    } finally {
      await fe.close();
    }
  });

  it('follows now while live, stops when the user looks back, and Follow Now (or Home) resumes', async () => {
    const fe = await open();
    try {
      const data = timelineData(history());
      await fe.send({ type: 'timeline', seq: 1, timelineJson: toJsonText(data), live: true, now: T0 + 3000 });
      const canvas = fe.page.locator('.timeline-canvas');
      const following = async (value: string) => {
        await fe.page.waitForFunction((v) => document.querySelector<HTMLCanvasElement>('.timeline-canvas')?.dataset.following === v, value);
      };
      await following('true');
      await canvas.focus();
      await fe.page.keyboard.press('Shift+ArrowLeft');
      await following('false');
      assert.equal(await fe.page.locator('.timeline .action').nth(2).getAttribute('aria-pressed'), 'false');
      await fe.page.locator('.timeline .action').nth(2).click();
      await following('true');
      await fe.page.mouse.move(0, 0);
      await canvas.focus();
      await fe.page.keyboard.press('Shift+ArrowLeft');
      await following('false');
      await fe.page.keyboard.press('Home');
      await following('true');
      // Zooming in while following keeps following (it zooms at now).
      await fe.page.locator('.timeline .action').nth(0).click();
      await following('true');
    } finally {
      await fe.close();
    }
  });

  /** The window the figures are asked over once "visible window" is chosen again: where the view stands now. */
  async function visibleWindowAsked(fe: FrontEnd): Promise<{ from: number; to: number }> {
    await fe.page.locator('.figures-scope').selectOption({ index: 0 });
    await fe.page.locator('.figures-scope').selectOption({ index: 1 });
    const asked = (await fe.posted()).filter((m): m is Extract<WebviewMessage, { type: 'figuresWindow' }> => m.type === 'figuresWindow');
    const window = asked[asked.length - 1].window;
    assert.ok(window, 'a window asked for');
    return window;
  }

  it('live: the first view is the recorded window, also when the first timeline is empty (never from 1970)', async () => {
    const fe = await open();
    try {
      const sentAt = Date.now();
      // What a panel sends before anything is recorded: an empty history, its origin 0.
      await fe.send({ type: 'timeline', seq: 1, timelineJson: toJsonText(timelineData(new LockHistory())), live: true, now: T0 });
      await fe.send({ type: 'timeline', seq: 2, timelineJson: toJsonText(timelineData(history())), live: true, now: T0 + 3000 });
      await fe.page.waitForFunction(() => Number(document.querySelector<HTMLCanvasElement>('.timeline-canvas')?.dataset.bars) > 0);
      const window = await visibleWindowAsked(fe);
      const elapsed = Date.now() - sentAt;
      assert.ok(window.from >= T0, `the view starts ${new Date(window.from).toISOString()}, before anything was recorded`);
      // The recording (3 s, and the time this test took) fills at least 30 s from its start, with a 2% margin.
      assert.ok(window.to - window.from <= Math.max(30_000, (3000 + elapsed) * 1.02) + 1, `a view of ${window.to - window.from} ms`);
      assert.ok(window.to - window.from >= 30_000, `a view of ${window.to - window.from} ms`);
      const firstTick = Number(await fe.page.locator('.timeline-canvas').getAttribute('data-first-tick'));
      assert.ok(firstTick >= T0 && firstTick % 1000 === 0, `first tick at ${firstTick}: on a whole second, after the recording began`);
    } finally {
      await fe.close();
    }
  });

  it('replay: the view stays on the same moments when the origin moves (a node found from earlier)', async () => {
    const fe = await open({ file: 'night.jsonl' });
    try {
      await showHistory(fe);
      assert.deepEqual(await visibleWindowAsked(fe), { from: T0, to: T0 + 3060 });
      await fe.page.locator('.timeline-canvas').focus();
      await fe.page.keyboard.press('+');
      const zoomedIn = await visibleWindowAsked(fe);
      assert.ok(zoomedIn.to - zoomedIn.from < 3060, JSON.stringify(zoomedIn));
      const earlier = history();
      earlier.addClosed({ id: earlier.newId(), kind: 'wait', lock: '/locks/l1', node: 'lock-0000000001', participant: 'exclusive', start: T0 - 60_000, startExact: true, end: T0 + 100, endExact: true, ended: 'gaveUp' });
      await fe.send({ type: 'timeline', seq: 2, timelineJson: toJsonText(timelineData(earlier)), live: false, now: T0 + 3000 });
      await fe.page.waitForFunction(() => document.querySelector<HTMLCanvasElement>('.timeline-canvas')?.dataset.lanes === '4');
      assert.deepEqual(await visibleWindowAsked(fe), zoomedIn);
    } finally {
      await fe.close();
    }
  });

  it('asks for the figures of the visible window when chosen', async () => {
    const fe = await open();
    try {
      await showHistory(fe);
      await fe.page.locator('.figures-scope').selectOption({ index: 1 });
      const asked = (await fe.posted()).filter((m) => m.type === 'figuresWindow');
      assert.deepEqual(asked, [{ type: 'figuresWindow', window: { from: T0, to: T0 + 3060 } }]);
      await fe.page.locator('.figures-scope').selectOption({ index: 0 });
      assert.deepEqual((await fe.posted()).filter((m) => m.type === 'figuresWindow').pop(), { type: 'figuresWindow' });
    } finally {
      await fe.close();
    }
  });

  it('a replay shows only the history, titled by its file, and asks nothing of a server', async () => {
    const fe = await open({ file: 'night.jsonl' });
    try {
      await showHistory(fe);
      assert.equal(await fe.page.locator('h1').textContent(), 'Lock history night.jsonl');
      assert.equal(await fe.page.locator('.scroller').isVisible(), false);
      const point = await pointAt(fe, 0, 500);
      await fe.page.mouse.click(point.x, point.y);
      assert.equal((await fe.posted()).filter((m) => m.type === 'reveal').length, 0);
      assert.equal(await fe.page.evaluate(() => (window as unknown as { __state?: unknown }).__state), undefined, 'nothing saved to restore');
    } finally {
      await fe.close();
    }
  });
});
