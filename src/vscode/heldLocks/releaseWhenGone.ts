// Releases this window's locks when the window has been gone for the chosen time (see windowPresence.ts), and
// says so, with the locks by name, when the user is back. Coming back usually opens a new window with a new
// extension host (a new browser tab), so the news is left in a file of the extension's global storage on the
// host's machine (the old window's own storage calls would wait for the window that is gone).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { log } from '../common/log';
import { warn } from '../common/notifier';
import { lockSettings } from '../core/settings';
import { HeldLocks, isLive } from './heldLocks';
import { WindowPresence, windowCanOutliveHost } from './windowPresence';

const t = vscode.l10n.t;
const NEWS_FILE = 'locks-released-when-window-closed.json';

interface ReleasedNews {
  paths: string[];
  closedForSeconds: number;
}

export function releaseWhenWindowGone(heldLocks: HeldLocks, storage: vscode.Uri): vscode.Disposable[] {
  // The extension host's own disk: a window that comes back reads it from its new host on the same machine.
  const newsFile = storage.scheme === 'file' ? path.join(storage.fsPath, NEWS_FILE) : undefined;
  if (newsFile) tellReleased(newsFile);
  if (!windowCanOutliveHost()) return [];
  const presence = new WindowPresence({
    graceMs: () => lockSettings().releaseWhenWindowGoneMs,
    holding: () => heldLocks.list().some((e) => isLive(e.snapshot)),
    onGone: (silentForMs) => {
      const paths = heldLocks.list().filter((e) => isLive(e.snapshot)).map((e) => e.snapshot.path);
      log().warn(`releasing ${paths.length} lock(s): the window has been closed for ${Math.round(silentForMs / 1000)} s`);
      if (newsFile) leaveNews(newsFile, { paths, closedForSeconds: Math.round(silentForMs / 1000) });
      void heldLocks.releaseAll();
    },
    onBack: () => { if (newsFile) tellReleased(newsFile); },
  });
  return [presence];
}

function leaveNews(file: string, news: ReleasedNews): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(news), { mode: 0o600 });
  } catch (error) {
    log().warn(`could not leave word of the released locks: ${String(error)}`);
  }
}

/** Shows the news once: the file is taken (renamed away) first, so two windows never both show it. */
function tellReleased(file: string): void {
  const taken = `${file}.${process.pid}`;
  let news: ReleasedNews;
  try {
    fs.renameSync(file, taken);
    news = JSON.parse(fs.readFileSync(taken, 'utf8')) as ReleasedNews;
  } catch {
    return; // no news
  } finally {
    fs.rmSync(taken, { force: true });
  }
  if (!Array.isArray(news.paths) || news.paths.length === 0) return;
  void warn(t('ZooScope released the locks of a window that was gone for {0} s: {1}. Acquire them again if you still need them.',
    Number(news.closedForSeconds) || 0, news.paths.map(String).join(', ')));
}
