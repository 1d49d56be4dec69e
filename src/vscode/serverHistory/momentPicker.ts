// The time control of the server-history commands: which moment the tree is wanted at. A quick pick offers what
// the logs cover (their first and last transaction) and the boundaries in them (each snapshot, each log file's
// start), newest first, every time in UTC with its date and zxid; a typed ISO time (UTC unless it says otherwise) or
// 0x zxid is taken as well, with one line saying why when it is not a moment the logs can rebuild.
import * as vscode from 'vscode';
import { hex } from '../../zk/stat';
import type { LogIndex } from '../../zk/serverLogs/logIndex';
import { logRange, logRangeFromIndex, momentOutsideLogs, utcText, type LogRange } from '../../zk/serverLogs/logRange';
import type { LogSource } from '../../zk/serverLogs/logSet';
import { parseLogBound, type LogBound } from '../../zk/serverLogs/txnFilter';
import { warn } from '../common/notifier';
import type { Report } from '../common/progress';
import { pickOrType, type AnswerItem } from '../common/quickInput';
import { momentText } from '../core/tree/treeItems';
import { readCancellably } from './logReading';

const t = vscode.l10n.t;

/** The sources' index, built (cancellably) or the one kept. */
export type IndexOf = (signal: AbortSignal, report: Report) => Promise<LogIndex>;

export interface ChosenMoment {
  bound: LogBound;
  /** As titles and labels name it (UTC with the date, or the zxid). */
  text: string;
}

/** Most boundaries offered (the newest): the typed moment reaches any other. */
const BOUNDARIES_SHOWN = 12;

const coverText = (range: Required<Pick<LogRange, 'first' | 'last'>>) =>
  t('the logs cover {0} to {1}', momentText(range.first.zxid, range.first.time), momentText(range.last.zxid, range.last.time));

/** Why `text` names no moment these logs can rebuild, in one line; undefined when it does. */
export function momentProblem(range: LogRange, text: string): string | undefined {
  const bound = parseLogBound(text.trim());
  if (!bound) return t('Not a moment: type an ISO time such as 2026-11-28T03:12:00Z (UTC) or a zxid such as 0x1000003a7.');
  const outside = momentOutsideLogs(range, bound);
  if (outside === 'empty') return t('The server logs given hold no transactions.');
  if (outside === 'before') return t('That is before the logs begin: {0}.', coverText({ first: range.first!, last: range.last! }));
  return undefined;
}

const chosen = (bound: LogBound): ChosenMoment => ({ bound, text: 'zxid' in bound ? hex(bound.zxid) : utcText(bound.time) });

type MomentItem = AnswerItem<LogBound>;

function rangeItems(range: LogRange): MomentItem[] {
  const items: MomentItem[] = [];
  const { first, last } = range;
  if (last) items.push({ icon: 'debug-step-over', label: t('Last transaction in the logs'), description: momentText(last.zxid, last.time), value: { zxid: last.zxid } });
  for (const boundary of range.boundaries.slice(0, BOUNDARIES_SHOWN)) {
    const label = boundary.kind === 'snapshot' ? t('Snapshot {0}', hex(boundary.zxid)) : t('Log file from {0}', hex(boundary.zxid));
    items.push({ icon: boundary.kind === 'snapshot' ? 'database' : 'file', label, description: boundary.time === undefined ? t('time not in the logs') : utcText(boundary.time), value: { zxid: boundary.zxid } });
  }
  if (first) items.push({ icon: 'debug-start', label: t('First transaction in the logs'), description: momentText(first.zxid, first.time), value: { zxid: first.zxid } });
  // Boundaries before the logs begin (a snapshot older than every log) cannot be rebuilt from them.
  return items.filter((item) => !item.value || !momentOutsideLogs(range, item.value));
}

function typedItem(range: LogRange, value: string): MomentItem | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  const problem = momentProblem(range, text);
  return problem
    ? { icon: 'error', label: text, detail: problem }
    : { icon: 'history', label: text, description: t('the tree as it was then'), value: parseLogBound(text)! };
}

/** Asks for the moment (or checks the preset's); undefined when the user cancels or it cannot be had. */
export async function askMoment(title: string, sources: readonly LogSource[], preset?: string, indexOf?: IndexOf): Promise<ChosenMoment | undefined> {
  // With the index (read once, kept while the files stay as they were) no log is read again to offer the moments.
  const range = await readCancellably(t('Reading what the server logs cover…'), async (signal, report) => (indexOf ? logRangeFromIndex(await indexOf(signal, report)) : logRange(sources, signal)));
  if (!range) return undefined;
  if (!range.first || !range.last) {
    void warn(t('The server logs given hold no transactions.'));
    return undefined;
  }
  if (preset !== undefined) {
    const problem = momentProblem(range, preset);
    if (problem) void warn(problem);
    return problem ? undefined : chosen(parseLogBound(preset.trim())!);
  }
  const bound = await pickOrType(rangeItems(range), {
    title: `${title}: ${coverText({ first: range.first, last: range.last })}`,
    placeholder: t('Type a time (2026-11-28T03:12:00Z, UTC) or a zxid (0x…), or choose a moment below'),
  }, (text) => typedItem(range, text));
  return bound && chosen(bound);
}
