// Bench: a frame of the lock panel's timeline (src/webview/lockQueue/timelineView.ts) with 100,000 recorded
// intervals, as a ratio to the same frame with 1,000, in the bundled front-end in headless Debian Chromium. The
// history is a hand-over chain on one lock taken in turn by 20 sessions, shown as a replay (the timeline fills the
// page) with one lane per session, zoomed out so every interval is in the window: each lane holds 1/20 of them. A
// frame is triggered by a pan (Shift+→ then Shift+←) and timed inside the page around the draw (data-draw-ms);
// the 1,000 and 100,000 pages are measured back to back in every run (paired). Goal: < 16 ms at 100,000. Also
// per participant (a lane per node: only the lanes on screen are drawn) and the host's timelineData + JSON.
// Standalone: node out/bench/timelineBench.js [runs]
import * as os from 'node:os';
import type { Browser } from 'playwright-core';
import { timelineData } from '../src/zk/history/timeline';
import { toJsonText } from '../src/shared/lockQueueMessages';
import { chromiumPath, launchChromium } from '../test/support/servers/chromium';
import { chainHistory, T0 } from '../test/support/fixtures/timelineFixtures';
import { bundleFrontEnd, FrontEnd, openFrontEnd, testStrings } from '../test/support/fixtures/webviewPage';
import { formatTable, now, Row, summarize } from './stats';

const SMALL = 1_000;
const LARGE = 100_000;
const SESSIONS = 20;
const GOAL_MS = 16;

/** A chain of about `intervals` waits and holds (every node but the first waits, then holds). */
function history(intervals: number) {
  return chainHistory({ nodes: Math.ceil((intervals + 1) / 2), sessions: SESSIONS, holdMs: 10 });
}

async function page(browser: Browser, code: string, intervals: number, perSession: boolean): Promise<FrontEnd> {
  const fe = await openFrontEnd({ browser, code, width: 1400, height: 900 });
  await fe.send({ type: 'init', state: { connectionId: 'bench', root: '/', mode: 'queue' }, connectionName: 'bench', strings: testStrings(), capabilities: { canAcquire: false, canRelease: false, canForceRelease: false }, replay: { file: 'bench.jsonl' } });
  const data = timelineData(history(intervals));
  if (data.start.length < intervals) throw new Error(`only ${data.start.length} intervals`);
  await fe.send({ type: 'timeline', seq: 1, timelineJson: toJsonText(data), live: false, now: T0 + intervals * 10 });
  await fe.page.waitForFunction(() => Number(document.querySelector<HTMLCanvasElement>('.timeline-canvas')?.dataset.bars) > 0, undefined, { timeout: 120_000 });
  if (perSession) {
    await fe.page.locator('.timeline .action').nth(3).click();
    await fe.page.waitForFunction(() => document.querySelector<HTMLCanvasElement>('.timeline-canvas')?.dataset.lanes === '20');
  }
  return fe;
}

/** One frame, triggered by a pan there and back; the draw's own time (ms) and what it drew. */
function frame(fe: FrontEnd, step: number): Promise<{ ms: number; bars: number; merged: number; lanes: number }> {
  return fe.page.evaluate((key) => new Promise((resolve) => {
    const canvas = document.querySelector<HTMLCanvasElement>('.timeline-canvas')!;
    canvas.focus();
    canvas.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey: true, bubbles: true }));
    requestAnimationFrame(() => requestAnimationFrame(() => resolve({
      ms: Number(canvas.dataset.drawMs), bars: Number(canvas.dataset.bars), merged: Number(canvas.dataset.merged), lanes: Number(canvas.dataset.lanes),
    })));
  }), step % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
}

export async function timelineBench(runs: number): Promise<{ rows: Row[]; notes: string[] }> {
  try {
    chromiumPath();
  } catch (error) {
    return { rows: [], notes: [`timeline: not measured (${(error as Error).message})`] };
  }
  const browser = await launchChromium();
  const rows: Row[] = [];
  try {
    const code = await bundleFrontEnd();
    for (const perSession of [true, false]) {
      const small = await page(browser, code, SMALL, perSession);
      const large = await page(browser, code, LARGE, perSession);
      try {
        const smallMs: number[] = [];
        const largeMs: number[] = [];
        const load: number[] = [];
        let drawn = { bars: 0, merged: 0, lanes: 0 };
        for (let run = 0; run < runs + 2; run++) {
          // Alternating order; the first two runs warm up (the page compiles the drawing code).
          const [a, b] = run % 2 === 0 ? [await frame(small, run), await frame(large, run)] : [await frame(large, run), await frame(small, run)].reverse();
          if (run < 2) continue;
          smallMs.push(a.ms);
          largeMs.push(b.ms);
          load.push(os.loadavg()[0]);
          drawn = b;
        }
        const how = perSession ? `${SESSIONS} lanes (per session), all in view` : 'a lane per node, the lanes on screen';
        rows.push({
          bench: 'timeline', case: `frame of 100,000 intervals: ${how}`, unit: 'ms', summary: summarize(largeMs), samples: largeMs, load,
          baseline: { label: 'the same frame of 1,000 intervals', summary: summarize(smallMs) }, ratios: largeMs.map((l, i) => l / Math.max(0.01, smallMs[i])),
          goal: { op: '<', value: GOAL_MS }, note: `${drawn.bars} bars drawn, ${drawn.merged} merged into drawn pixels, ${drawn.lanes} lanes`,
        });
      } finally {
        await small.close();
        await large.close();
      }
    }
  } finally {
    await browser.close();
  }
  const host: number[] = [];
  const big = history(LARGE);
  for (let run = 0; run < runs; run++) {
    const t0 = now();
    if (JSON.stringify(timelineData(big)).length === 0) throw new Error('empty timeline');
    host.push(now() - t0);
  }
  rows.push({ bench: 'timeline', case: 'host: timelineData + JSON of 100,000 intervals', unit: 'ms', summary: summarize(host), samples: host, note: 'what the panel sends, at most every 0.5 s (less often when it takes longer)' });
  return { rows, notes: [] };
}

if (require.main === module) {
  const runs = Math.max(5, Number(process.argv[2] ?? 9));
  timelineBench(runs).then(({ rows, notes }) => {
    console.log(formatTable(rows));
    notes.forEach((n) => console.log(`note: ${n}`));
  }, (error: unknown) => {
    console.error('timeline bench failed:', error);
    process.exit(1);
  });
}
