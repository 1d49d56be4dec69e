// "Export History…" (the panel's lock history as a recording, the JSON Lines `zooscope locks --record` writes),
// "Export Trace (Perfetto)…" (Trace Event JSON) and "Open Lock History…" (a recording as a replay timeline). Files
// are written 0600 and never through a symbolic link; big ones show a cancellable progress.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { visibleText } from '../../shared/visibleText';
import { writeTraceFromHistory } from '../../zk/history';
import { CancelledError, loadRecordingFile, writeHistoryRecording } from '../../zk/history/historyFiles';
import { createPrivateFile, SymlinkRefusedError, type PrivateFile } from '../../zk/transfer/privateFile';
import { log } from '../common/log';
import { info, warn } from '../common/notifier';
import { withCancellableProgress } from '../common/progress';
import type { LockPanels } from './lockPanels';
import type { PanelHistory } from './panelHistory';
import type { HistoryReplayPanel } from './historyReplayPanel';

const t = vscode.l10n.t;

export interface HistoryFilePreset {
  file: string;
  /** The history to export (else the active panel's, or one the user picks). */
  history?: PanelHistory;
}

/** Outside any workspace folder, so a history (names and data from ZooKeeper) is not committed by accident. */
function defaultFolder(): string {
  const downloads = path.join(os.homedir(), 'Downloads');
  return fs.existsSync(downloads) ? downloads : os.homedir();
}

const stamp = () => new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');

async function chosenHistory(locks: LockPanels, given?: PanelHistory): Promise<{ history: PanelHistory; title: string } | undefined> {
  const found = given ? { history: given, title: 'preset' } : await locks.pickHistory();
  if (!found) void info(t('Open a lock panel (Show Lock Queue or Show Locks Under…) or a lock history first.'));
  return found;
}

async function saveTo(preset: HistoryFilePreset | undefined, title: string, filter: string, extension: string, name: string): Promise<string | undefined> {
  if (preset) return preset.file;
  const uri = await vscode.window.showSaveDialog({
    title, saveLabel: t('Export'), filters: { [filter]: [extension] },
    defaultUri: vscode.Uri.file(path.join(defaultFolder(), `${name}.${extension}`)),
  });
  if (!uri) return undefined;
  if (uri.scheme !== 'file') {
    void warn(t('Lock histories are written to local files only.'));
    return undefined;
  }
  return uri.fsPath;
}

function openPrivate(file: string): PrivateFile | undefined {
  try {
    return createPrivateFile(file);
  } catch (error) {
    if (!(error instanceof SymlinkRefusedError)) throw error;
    void warn(t('{0} is a symbolic link; an export is never written through one. Choose another name.', file));
    return undefined;
  }
}

/** Runs `work` into a private file with a cancellable progress; keeps the file only when it finished. */
async function exportTo(file: string, title: string, work: (out: PrivateFile, signal: AbortSignal, report: (share: number) => void) => Promise<void>): Promise<boolean> {
  const out = openPrivate(file);
  if (!out) return false;
  try {
    await withCancellableProgress(title, (signal, report) => work(out, signal, (share) => report(t('{0}%', Math.round(share * 100)))));
    out.commit();
    return true;
  } catch (error) {
    out.discard();
    if (error instanceof CancelledError) {
      void warn(t('The export was cancelled; no file was kept.'));
      return false;
    }
    throw error;
  }
}

export async function exportLockHistory(locks: LockPanels, preset?: HistoryFilePreset): Promise<string | undefined> {
  const found = await chosenHistory(locks, preset?.history);
  if (!found) return undefined;
  const file = await saveTo(preset, t('Export History of {0}', found.title), t('ZooScope lock history'), 'jsonl', `lock-history-${stamp()}`);
  if (!file) return undefined;
  let summarised = 0;
  const done = await exportTo(file, t('Exporting the lock history…'), async (out, signal, report) => {
    ({ summarised } = await writeHistoryRecording(found.history.history, out.write, { signal, onProgress: report }));
  });
  if (!done) return undefined;
  log().info(`lock history of ${found.title} → ${file}${summarised ? ` (${summarised} summarised intervals left out)` : ''}`);
  void info(summarised
    ? t('Exported the lock history to {0}. {1} older intervals were only kept summarised and are not in the file.', file, summarised)
    : t('Exported the lock history to {0}.', file));
  return file;
}

export async function exportLockTrace(locks: LockPanels, preset?: HistoryFilePreset): Promise<string | undefined> {
  const found = await chosenHistory(locks, preset?.history);
  if (!found) return undefined;
  const file = await saveTo(preset, t('Export Trace of {0}', found.title), t('Trace Event JSON (Perfetto, chrome://tracing)'), 'json', `lock-trace-${stamp()}`);
  if (!file) return undefined;
  const done = await exportTo(file, t('Exporting the trace…'), async (out, signal, report) => {
    // Streamed as the CLI's --trace is: one chunk of text at a time, never the whole trace.
    await writeTraceFromHistory(found.history.history, out.write, { now: found.history.now(), text: visibleText, signal, onProgress: report });
  });
  if (!done) return undefined;
  log().info(`lock trace of ${found.title} → ${file}`);
  void info(t('Exported the trace to {0}. Open it in Perfetto (ui.perfetto.dev) or chrome://tracing.', file));
  return file;
}

export async function openLockHistory(locks: LockPanels, preset?: HistoryFilePreset): Promise<HistoryReplayPanel | undefined> {
  const file = preset?.file ?? (await vscode.window.showOpenDialog({
    title: t('Open Lock History'), openLabel: t('Open'), canSelectMany: false,
    filters: { [t('ZooScope lock history')]: ['jsonl', 'json'], [t('All files')]: ['*'] },
  }))?.[0]?.fsPath;
  if (!file) return undefined;
  let loaded;
  try {
    loaded = await withCancellableProgress(t('Opening {0}…', path.basename(file)), (signal, report) =>
      loadRecordingFile(file, { signal, onProgress: (share) => report(t('{0}%', Math.round(share * 100))) }));
  } catch (error) {
    if (error instanceof CancelledError) return undefined;
    throw error;
  }
  if (loaded.tornLastLine) void warn(t('{0} ends in a cut line (the recorder was stopped mid-write); that line is left out.', path.basename(file)));
  return locks.showReplay(file, loaded);
}
