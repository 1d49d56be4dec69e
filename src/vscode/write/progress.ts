// Progress for work that is usually quick but may take long (a crawl of a big subtree): a progress bar on the
// view at once, and a cancellable notification only when the work is still running after a moment. Quick work
// thus leaves no notification flashing by (and no toasts crowding out the message that reports the result).
import * as vscode from 'vscode';

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
  void vscode.window.withProgress({ location: { viewId } }, () => running.catch(() => undefined));
  const timer = setTimeout(() => void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => {
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
