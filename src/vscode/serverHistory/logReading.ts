// What every server-history command does around reading the logs: a progress the user can cancel (cancelling is
// no failure: nothing is shown), and the trouble met in the files, each in the log and counted in one notification.
import * as vscode from 'vscode';
import { log } from '../common/log';
import { warn } from '../common/notifier';
import { withCancellableProgress, type Report } from '../common/progress';

const t = vscode.l10n.t;

/** The work's result, or undefined when the user cancelled it. */
export async function readCancellably<T>(title: string, work: (signal: AbortSignal, report: Report) => Promise<T>): Promise<T | undefined> {
  try {
    return await withCancellableProgress(title, work);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return undefined;
    throw error;
  }
}

/** Each issue to the log; their count in one warning, saying what they may have cost (`made`: a history or a tree). */
export function reportLogIssues(issues: readonly string[], made: 'history' | 'tree', notify = true): void {
  for (const issue of issues) log().warn(`server logs: ${issue}`);
  if (!notify || issues.length === 0) return;
  void warn(made === 'history'
    ? t('{0} problems reading the server logs (a cut entry, a gap): the history may miss changes. The log (ZooScope: Show Log) has each.', issues.length)
    : t('{0} problems reading the server logs (a cut entry, a gap): the tree may miss changes. The log (ZooScope: Show Log) has each.', issues.length));
}
