// Progress for work that is usually quick but may take long (a crawl of a big subtree): a progress bar on the
// view at once, and a cancellable notification only when the work is still running after a moment. Quick work
// thus leaves no notification flashing by (and no toasts crowding out the message that reports the result).
import * as vscode from 'vscode';
import { iconSafe, linkSafe } from './untrustedText';

export type Report = (message: string) => void;

export async function withCancellableProgress<T>(
  title: string, work: (signal: AbortSignal, report: Report) => Promise<T>, viewId = 'zooscope.explorer', delayMs = 800,
): Promise<T> {
  const abort = new AbortController();
  let last: string | undefined;
  let toNotification: Report | undefined;
  const running = work(abort.signal, (message) => {
    last = message;
    toNotification?.(message);
  });
  viewProgress(viewId, running);
  const timer = setTimeout(() => void showProgress(vscode.ProgressLocation.Notification, title, (progress, token) => {
    token.onCancellationRequested(() => abort.abort());
    toNotification = (message) => progress.report({ message });
    if (last) progress.report({ message: last });
    return running.catch(() => undefined);
  }), delayMs);
  try {
    return await running;
  } finally {
    clearTimeout(timer);
  }
}

type Task<R> = (progress: { report(value: { message?: string }): void }, token: vscode.CancellationToken) => Thenable<R>;

/**
 * withProgress with literal text: a notification renders links in its title and messages, the status bar (Window)
 * renders icons. Cancellable when shown as a notification.
 */
export function showProgress<R>(location: vscode.ProgressLocation.Notification | vscode.ProgressLocation.Window, title: string, task: Task<R>): Thenable<R> {
  const safe = location === vscode.ProgressLocation.Window ? iconSafe : linkSafe;
  return vscode.window.withProgress({ location, title: safe(title), cancellable: location === vscode.ProgressLocation.Notification },
    (progress, token) => task({ report: ({ message }) => progress.report({ message: message === undefined ? undefined : safe(message) }) }, token));
}

/** A progress bar on a view while `work` runs (no text). */
export function viewProgress(viewId: string, work: Promise<unknown>): void {
  void vscode.window.withProgress({ location: { viewId } }, () => work.catch(() => undefined));
}
