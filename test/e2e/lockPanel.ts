// Reading the lock-queue panel (a webview, two iframes deep) from an e2e test.
import type { FrameLocator } from 'playwright-core';
import { Workbench } from './workbench';

export function lockPanel(wb: Workbench): FrameLocator {
  return wb.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** The participant rows' texts, top to bottom (they are placed by `top`, not by document order). */
async function participantTexts(frame: FrameLocator): Promise<string[]> {
  return frame.locator('.row-participant').evaluateAll((list) => list
    .sort((a, b) => parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top))
    .map((r) => r.textContent ?? ''));
}

/** Polls the panel's rows until `check` accepts them (the panel redraws as the queue changes). */
export async function waitForParticipants(frame: FrameLocator, check: (rows: string[]) => boolean, what: string, timeoutMs = 30000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let rows: string[] = [];
  while (Date.now() < deadline) {
    rows = await participantTexts(frame).catch(() => []);
    if (check(rows)) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`webview: ${what} not shown; rows: ${JSON.stringify(rows).slice(0, 800)}`);
}

/** The time range the lock timeline shows, its first tick (ms since the epoch) and what it draws, as its canvas reports them. */
export async function timelineRange(frame: FrameLocator): Promise<{ from: number; to: number; firstTick: number; bars: number; lanes: number }> {
  const data = await frame.locator('.timeline-canvas').evaluate((c) => ({ ...(c as HTMLElement).dataset }));
  const number = (key: string) => Number(data[key] ?? NaN);
  return { from: number('viewFrom'), to: number('viewTo'), firstTick: number('firstTick'), bars: number('bars'), lanes: number('lanes') };
}
