// `zooscope log … --locks <path>`: a lock's history after the fact, from the snapshot the logs go on from, told as
// `zooscope locks --watch` tells it live (the same lines, figures and trace).
import { lockFigures, type HistoryEvent, type LockHistory } from '../../../zk/history';
import { lockHistoryFromLogs, lockHistoryStart } from '../../../zk/history/fromServerLogs';
import { readLogSet, type LogSetItem, type LogSource } from '../../../zk/serverLogs/logSet';
import { pastWindow, zxidBound, type TxnQuery } from '../../../zk/serverLogs/txnFilter';
import { hex } from '../../../zk/stat';
import type { Output } from '../../output';
import { eventLine, figuresText } from '../locks/historyFormat';
import { writeTraceFile } from '../locks/watch';
import { SaidIssues } from './reading';

/** `--locks`: the lock history under `root` from the snapshot the logs go on from, then its figures (and trace). */
export async function runLocks(sources: LogSource[], root: string, query: TxnQuery, options: { json: boolean; trace?: string }, out: Output, say: (line: string) => void): Promise<number> {
  const start = await lockHistoryStart(sources, root);
  if ('problem' in start) {
    say(start.problem);
    return 1;
  }
  const issues = new SaidIssues(say);
  // Every change under the root counts (no filter), up to the window's end, by zxid or by time.
  async function* read(): AsyncGenerator<LogSetItem> {
    for await (const item of issues.said(readLogSet(sources, { toZxid: zxidBound(query) }))) {
      if (item.kind === 'txn' && (pastWindow(query, item.txn) || (query.to && 'time' in query.to && item.txn.time > query.to.time))) return;
      yield item;
    }
  }
  const built = await lockHistoryFromLogs(read(), root, start);
  if (built.stoppedAt) say(built.stoppedAt);
  const from = query.from && 'time' in query.from ? query.from.time : built.from;
  const window = { from: from ?? 0, to: built.to ?? from ?? 0 };
  const figures = lockFigures(built.history, query.from ? window : undefined, window.to);
  if (options.trace) await writeTraceFile(built.history, options.trace, window.to);
  if (options.json) {
    out.json({ from: window.from, to: window.to, snapshot: hex(start.zxid), gaps: built.history.gaps, intervals: [...built.history.intervals()].sort((a, b) => a.start - b.start), figures });
  } else {
    for (const line of intervalLines(built.history)) out.text(line);
    out.text(figuresText(figures, window));
  }
  return issues.troubled || built.stoppedAt ? 1 : 0;
}

/** Each hold and wait as `--watch` tells them, in time order (a hand-over's release before the take-over). */
function intervalLines(history: LockHistory): string[] {
  const events: { at: number; order: number; event: HistoryEvent }[] = [];
  for (const interval of history.intervals()) {
    events.push({ at: interval.start, order: 1, event: { type: 'open', interval } });
    if (interval.end !== undefined) events.push({ at: interval.end, order: 0, event: { type: 'close', interval } });
    if (interval.ended === 'sessionEnded') events.push({ at: interval.end!, order: 0, event: { type: 'ended', interval } });
  }
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  return events.flatMap(({ event }) => eventLine(event) ?? []);
}
