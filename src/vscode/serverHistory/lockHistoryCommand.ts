// "Lock History from Server Logs…": the lock history of the queues under a node, built after the fact from the
// servers' logs (the oldest snapshot the logs go on from, then every transaction), shown in the lock panel's
// timeline read-only, with the same figures and exports as a recorded one. Every time is the leader's.
import * as vscode from 'vscode';
import { lockHistoryFromIndex } from '../../zk/history/fromServerLogs';
import { log } from '../common/log';
import { info, warn } from '../common/notifier';
import { shown } from '../common/untrustedText';
import type { LockQueueApi } from '../lockQueue';
import { historyTarget } from './historyTarget';
import { readCancellably, reportLogIssues } from './logReading';
import type { ServerHistoryContext } from './nodeHistoryCommand';

const t = vscode.l10n.t;

export interface LockHistoryPreset {
  folders?: string[];
  path?: string;
}

export async function lockHistoryFromServerLogs(context: ServerHistoryContext & { lockQueue: LockQueueApi }, arg?: unknown, preset?: LockHistoryPreset): Promise<{ intervals: number } | undefined> {
  const asked = await historyTarget(context, arg, { title: t('Lock History from Server Logs'), prompt: t('The lock, or a node with locks under it') }, preset?.path);
  if (!asked) return undefined;
  const { connectionId, path: root } = asked;
  const sources = await context.folders.sources(connectionId, preset?.folders);
  if (!sources) return undefined;
  let issues: string[] = [];
  const built = await readCancellably(t('Building the lock history of {0} from the server logs…', shown(root)), async (signal, report) => {
    const start = await context.folders.lockStart(sources, root, signal, report);
    if ('problem' in start) return { problem: start.problem };
    const index = await context.folders.index(sources, signal, report);
    issues = index.issues.map(({ item }) => item.issue.message);
    return lockHistoryFromIndex(index, root, start, { signal });
  });
  if (!built) return undefined;
  if ('problem' in built) {
    void warn(t('No lock history can be built from these logs: {0}', built.problem));
    return undefined;
  }
  // A history cut at a gap says that instead of counting its troubles.
  reportLogIssues(issues, 'history', !built.stoppedAt);
  if (built.stoppedAt) void warn(t('The history stops early: {0}', built.stoppedAt));
  const intervals = [...built.history.intervals()].length;
  if (intervals === 0) {
    void info(t('The server logs hold no lock activity under {0}.', root));
    return { intervals };
  }
  const from = built.from ?? 0;
  context.lockQueue.showHistory(t('{0} (server logs)', root), { history: built.history, startedAt: from, root, tornLastLine: false, lastAt: built.to ?? from });
  log().info(`lock history of ${root} from ${sources.map((s) => s.name).join(', ')}: ${intervals} intervals`);
  return { intervals };
}
