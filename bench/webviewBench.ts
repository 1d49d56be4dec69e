// Bench: the lock-queue webview's update time for queues of 100, 1,000 and 10,000 participants. The front-end is
// bundled as shipped and loaded into headless Debian Chromium (playwright-core); the messages the host sends (made
// by the host's own ModelSender: the whole model first, then deltas) are posted with window.postMessage, like a
// real webview receives them, and timed in the page until the front-end reports `rendered` (applied, rows updated,
// the rows on screen patched and laid out). Cases per size: first render into an empty panel (the whole model),
// one waiter's data changed, and the holder releasing (every position shifts by one) (deltas). The host's
// JSON.stringify of the whole model, and its diff for the holder released, are timed apart (extension host).
// Baseline (same page, same run): a trivial message's trip through the page's message queue (posted, received).
// End to end (the goal: < 50 ms at 10,000): from the host's model object in Node, through ModelSender.next (the
// diff against what the page was last sent, into a `delta` message), across a process boundary into the page
// (playwright's protocol serialises the message, as VS Code's IPC does), posted to the front-end, until it reports
// `rendered` and the answer is back in Node; paired per run with a tiny message's trip over the same route.
// Standalone: node out/bench/webviewBench.js [runs]
import * as os from 'node:os';
import type { Browser } from 'playwright-core';
import type { LockQueuePanelState } from '../src/shared/lockQueueMessages';
import { diffAnalysis } from '../src/shared/lockQueueDelta';
import { DeltaMessage, ModelMessage, ModelSender } from '../src/shared/lockQueueSync';
import type { LockAnalysis } from '../src/shared/lockAnalysis';
import { chromiumPath, launchChromium } from '../test/support/servers/chromium';
import { fixtureAnalysis } from '../test/support/fixtures/webviewFixtures';
import { bundleFrontEnd, FrontEnd, openFrontEnd, testStrings } from '../test/support/fixtures/webviewPage';
import { formatTable, now, Row, summarize } from './stats';

export const WEBVIEW_SIZES = [100, 1000, 10000];
const GOAL_MS = 50;
const STATE: LockQueuePanelState = { connectionId: 'bench', root: '/locks/orders', mode: 'queue' };

/** The holder released: the first waiter holds, everyone moves up one position. */
function released(size: number): LockAnalysis {
  const a = fixtureAnalysis(size);
  const q = a.queues[0];
  q.participants = q.participants.slice(1).map((p, i) => ({ ...p, position: i }));
  if (q.participants[0]) q.participants[0] = { ...q.participants[0], role: 'holder', watches: [], waitsFor: [] };
  q.anomalies = [];
  return a;
}

/** The host's messages for these models in turn (the first whole, then deltas), stored in the page. */
async function loadModels(fe: FrontEnd, sender: ModelSender, models: LockAnalysis[]): Promise<void> {
  const messages = models.map((analysis) => sender.next(analysis, {}));
  if (messages.slice(1).some((m) => m.type !== 'delta')) throw new Error('an update went as a whole model');
  await fe.page.evaluate((list) => { (window as unknown as { __models: unknown[] }).__models = list; }, messages);
}

/** Posts stored message `index` (in order: each delta follows the one before) and returns the in-page time until rendered. */
function timeStored(fe: FrontEnd, index: number): Promise<number> {
  return fe.page.evaluate((i) => {
    const w = window as unknown as { __models: (ModelMessage | DeltaMessage)[]; __timeModel: (m: unknown) => Promise<number> };
    return w.__timeModel(w.__models[i]);
  }, index);
}

/** Host → page → rendered, timed in Node: the host's diff into a delta message, the message passing, apply and render. */
async function timeEndToEnd(fe: FrontEnd, sender: ModelSender, analysis: LockAnalysis): Promise<number> {
  const t0 = now();
  const message = sender.next(analysis, {});
  await fe.page.evaluate((m) => (window as unknown as { __timeModel: (m: unknown) => Promise<number> }).__timeModel(m), message);
  const elapsed = now() - t0;
  if (message.type !== 'delta') throw new Error('an update went as a whole model');
  return elapsed;
}

/** A tiny message over the same route (Node → page → Node): what any message costs. */
async function timeTinyTrip(fe: FrontEnd): Promise<number> {
  const t0 = now();
  await fe.page.evaluate((m) => m.type, { type: 'ping' });
  return now() - t0;
}

function timeMessageTrip(fe: FrontEnd): Promise<number> {
  return fe.page.evaluate(() => new Promise<number>((resolve) => {
    const t0 = performance.now();
    // The front-end gets it too and, not knowing the type, does nothing.
    const received = (event: MessageEvent<{ type: string }>) => {
      if (event.data.type !== 'ping') return;
      window.removeEventListener('message', received);
      resolve(performance.now() - t0);
    };
    window.addEventListener('message', received);
    window.postMessage({ type: 'ping' }, '*');
  }));
}

export async function webviewBench(runs: number): Promise<{ rows: Row[]; notes: string[] }> {
  try {
    chromiumPath();
  } catch (error) {
    return { rows: [], notes: [`webview: not measured (${(error as Error).message})`] };
  }
  const browser: Browser = await launchChromium();
  const rows: Row[] = [];
  try {
    const code = await bundleFrontEnd();
    for (const size of WEBVIEW_SIZES) {
      const base = fixtureAnalysis(size);
      const oneChanged = fixtureAnalysis(size, { changed: [Math.min(5, size - 1)], labelSuffix: ' (changed)' });
      const shifted = released(size);
      const first: number[] = [];
      const update: number[] = [];
      const shift: number[] = [];
      const messageTrip: number[] = [];
      const e2eUpdate: number[] = [];
      const e2eShift: number[] = [];
      const tiny: number[] = [];
      const load: number[] = [];
      let domRows = 0;
      for (let run = 0; run < runs + 1; run++) {
        const fe = await openFrontEnd({ browser, code, width: 1200, height: 800 });
        try {
          await fe.send({ type: 'init', state: STATE, connectionName: 'bench', strings: testStrings(), capabilities: { canAcquire: true, canRelease: true, canForceRelease: true } });
          // One sender for the page, as the panel has one per webview: the page ends the stored ones at `shifted`.
          const sender = new ModelSender();
          await loadModels(fe, sender, [base, oneChanged, base, shifted]);
          const samples = [await timeStored(fe, 0), await timeStored(fe, 1), await timeStored(fe, 2), await timeStored(fe, 3), await timeMessageTrip(fe)];
          domRows = await fe.page.locator('.row').count();
          await timeEndToEnd(fe, sender, base);
          const e2e = [await timeEndToEnd(fe, sender, oneChanged), await timeEndToEnd(fe, sender, base), await timeEndToEnd(fe, sender, shifted), await timeTinyTrip(fe)];
          if (run === 0) continue; // warm-up: the page's first compile of the bundle
          load.push(os.loadavg()[0]);
          e2eUpdate.push(e2e[0]);
          e2eShift.push(e2e[2]);
          tiny.push(e2e[3]);
          first.push(samples[0]);
          update.push(samples[1]);
          shift.push(samples[3]);
          messageTrip.push(samples[4]);
        } finally {
          await fe.close();
        }
      }
      const label = `${size.toLocaleString('en-US')} participants`;
      const stringify: number[] = [];
      const diff: number[] = [];
      for (let run = 0; run < runs; run++) {
        let t0 = now();
        if (JSON.stringify(shifted).length === 0) throw new Error('empty model');
        stringify.push(now() - t0);
        t0 = now();
        if (!diffAnalysis(base, shifted)) throw new Error('no delta');
        diff.push(now() - t0);
      }
      const baseline = { label: 'in-page message trip', summary: summarize(messageTrip) };
      const goal = size === 10000 ? { op: '<' as const, value: GOAL_MS } : undefined;
      const trip = { label: 'tiny message trip', summary: summarize(tiny) };
      rows.push(
        { bench: 'webview', case: `${label}: end to end, one waiter changed`, unit: 'ms', summary: summarize(e2eUpdate), samples: e2eUpdate, load,
          baseline: trip, ratios: e2eUpdate.map((e, i) => e / tiny[i]), goal },
        { bench: 'webview', case: `${label}: end to end, holder released (all shift)`, unit: 'ms', summary: summarize(e2eShift), samples: e2eShift, load,
          baseline: trip, ratios: e2eShift.map((e, i) => e / tiny[i]), goal },
        { bench: 'webview', case: `${label}:   in page: first render`, unit: 'ms', summary: summarize(first), samples: first, load,
          baseline, ratios: first.map((f, i) => f / messageTrip[i]), note: `${domRows} rows in the DOM` },
        { bench: 'webview', case: `${label}:   in page: update, one waiter changed`, unit: 'ms', summary: summarize(update), samples: update, load,
          baseline, ratios: update.map((u, i) => u / messageTrip[i]) },
        { bench: 'webview', case: `${label}:   in page: update, holder released`, unit: 'ms', summary: summarize(shift), samples: shift, load,
          baseline, ratios: shift.map((u, i) => u / messageTrip[i]) },
        { bench: 'webview', case: `${label}:   host JSON.stringify of the model`, unit: 'ms', summary: summarize(stringify), samples: stringify, load,
          note: 'the whole model: first show, resync' },
        { bench: 'webview', case: `${label}:   host diff, holder released`, unit: 'ms', summary: summarize(diff), samples: diff, load },
      );
    }
  } finally {
    await browser.close();
  }
  return { rows, notes: [] };
}

if (require.main === module) {
  const runs = Math.max(5, Number(process.argv[2] ?? 9));
  webviewBench(runs).then(({ rows, notes }) => {
    console.log(formatTable(rows));
    notes.forEach((n) => console.log(`note: ${n}`));
  }, (error: unknown) => {
    console.error('webview bench failed:', error);
    process.exit(1);
  });
}
