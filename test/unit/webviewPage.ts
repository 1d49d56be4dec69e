// Loads the lock-queue front-end, bundled as the extension ships it, into a headless Chromium page with a stand-in
// for VS Code's webview API: what it posts is recorded, host messages are delivered with window.postMessage (a
// structured clone, as in a real webview). Used by the webview DOM tests and bench/webviewBench.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import type { HostMessage, WebviewMessage, WebviewStrings } from '../../src/shared/lockQueueMessages';
import { STRING_KEYS } from '../../src/shared/lockQueueMessages';
import { launchChromium } from '../support/chromium';

const repoRoot = path.resolve(__dirname, '../../..');

/** English strings as the host would send them (the keys' own names where no template is needed). */
export function testStrings(): WebviewStrings {
  const s = Object.fromEntries(STRING_KEYS.map((k) => [k, k])) as WebviewStrings;
  Object.assign(s, {
    title: 'Lock queue {0} — {1}', subtreeTitle: 'Locks under {0} — {1}', heldFor: 'held {0}', waitingFor: 'waiting {0}',
    leadingFor: 'leading {0}', session: 'session {0}', client: 'client {0}', holders: '{0} holding', waiters: '{0} waiting',
    leases: '{0} leases', 'unit.d': '{0}d', 'unit.h': '{0}h', 'unit.m': '{0}m', 'unit.s': '{0}s', holder: 'holder', waiter: 'waiting',
    deadlockStep: '{0} waits for {1} on {2}', serverWatches: '{0}: {1}/{2} ({3})', serverWatchesNone: '{0}: none ({1})', updated: 'updated {0}',
    queueList: 'Lock queues under {0}', position: 'position {0}',
    'tl.span': '{0} → {1} ({2})', 'tl.ended': 'ended: {0}', 'tl.unseen': 'tl.unseen {0} {1}', 'unit.ms': '{0} ms', replayTitle: 'Lock history {0}',
    'fig.spread': 'median {0} · p95 {1} · max {2}', 'fig.gaveUp': '{0} gave up',
  });
  return s;
}

/** Bundles src/webview/lockQueue/main.ts the way scripts/build.mjs does (iife, browser). */
export async function bundleFrontEnd(): Promise<string> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-webview-')), 'lockQueue.js');
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'src/webview/lockQueue/main.ts')], bundle: true, platform: 'browser', format: 'iife',
    target: 'es2020', outfile: out, logLevel: 'warning', minify: true,
  });
  const code = fs.readFileSync(out, 'utf8');
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return code;
}

export interface FrontEnd {
  page: Page;
  /** Every message the webview posted, in order. */
  posted(): Promise<WebviewMessage[]>;
  send(message: HostMessage): Promise<void>;
  /** Sends a model (or delta) and resolves with the in-page time from posting it to the `rendered` answer (ms). */
  timeModel(message: Extract<HostMessage, { type: 'model' | 'delta' }>): Promise<number>;
  close(): Promise<void>;
}

const stub = `
  window.__posted = [];
  window.__state = undefined;
  window.__waiters = [];
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => { window.__posted.push(m); for (const w of window.__waiters.splice(0)) w(m); },
    setState: (s) => { window.__state = s; },
    getState: () => window.__state,
  });
  window.__timeModel = (message) => new Promise((resolve) => {
    const t0 = performance.now();
    const wait = (m) => {
      if (m.type === 'rendered' && m.seq === message.seq) resolve(performance.now() - t0);
      else window.__waiters.push(wait);
    };
    window.__waiters.push(wait);
    window.postMessage(message, '*');
  });
`;

export async function openFrontEnd(options: { browser?: Browser; width?: number; height?: number; code?: string } = {}): Promise<FrontEnd> {
  const browser = options.browser ?? await launchChromium();
  const page = await browser.newPage({ viewport: { width: options.width ?? 1000, height: options.height ?? 700 } });
  const code = options.code ?? await bundleFrontEnd();
  await page.setContent('<!DOCTYPE html><html><head></head><body></body></html>');
  await page.addStyleTag({ content: fs.readFileSync(path.join(repoRoot, 'media/lockQueue.css'), 'utf8') });
  await page.addScriptTag({ content: stub });
  await page.addScriptTag({ content: code });
  return {
    page,
    posted: () => page.evaluate(() => (window as unknown as { __posted: WebviewMessage[] }).__posted),
    send: async (message) => {
      await page.evaluate((m) => window.postMessage(m, '*'), message);
    },
    timeModel: (message) => page.evaluate((m) => (window as unknown as { __timeModel: (x: unknown) => Promise<number> }).__timeModel(m), message),
    close: async () => {
      await page.close();
      if (!options.browser) await browser.close();
    },
  };
}
