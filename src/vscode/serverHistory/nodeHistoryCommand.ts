// "Node History from Server Logs…": every version of a node (or of each node a glob matches) as the servers' logs
// hold it, newest first, with who made it and how the node went. Picking a version opens the diff editor on what it
// changed (the data before ↔ after), decoded as the data editor decodes them. Works for nodes that no longer exist:
// "who deleted my znode" is the usual question.
import * as vscode from 'vscode';
import { hex } from '../../zk/stat';
import { nodeHistoryFromIndex, type HistoryEntry, type Removal } from '../../zk/serverLogs/nodeHistory';
import type { SideDocuments } from '../common/dataDiffDocuments';
import { defaultView } from '../common/dataCodec';
import { info } from '../common/notifier';
import { pickItem } from '../common/quickInput';
import { shown } from '../common/untrustedText';
import type { Core } from '../core/core';
import { historyTarget } from './historyTarget';
import { readCancellably, reportLogIssues } from './logReading';
import type { LogFolders } from './logFolders';

const t = vscode.l10n.t;

export interface ServerHistoryContext extends Core {
  readonly folders: LogFolders;
  readonly sides: SideDocuments;
}

/** Answers given up front (tests): the folders, the path, and which entry to open (newest first, 0-based). */
export interface NodeHistoryPreset {
  folders?: string[];
  path?: string;
  open?: number;
}

function removalText(removal: Removal): string {
  switch (removal) {
    case 'deleted': return t('deleted by this session');
    case 'sessionClosed': return t('gone with its session, closed by its client (ephemeral)');
    case 'sessionExpired': return t('gone with its session, which expired (ephemeral)');
    case 'containerEmptied': return t('container emptied, removed by the server');
    case 'ttlExpired': return t('TTL expired, removed by the server');
    case 'removedByServer': return t('removed by the server');
  }
}

function entryLabel(entry: HistoryEntry): string {
  if (entry.removed) return t('{0}: {1}', entry.op, removalText(entry.removed));
  if (entry.op === 'setACL') return t('{0} · ACL version {1}', entry.op, entry.version ?? 0);
  return entry.version === undefined ? entry.op : t('{0} · version {1}', entry.op, entry.version);
}

const PREVIEW = 80;

function dataPreview(data: Buffer | null | undefined): string | undefined {
  if (data === undefined) return undefined;
  if (data === null || data.length === 0) return t('no data');
  if (defaultView(data) !== 'text') return t('{0} bytes (binary)', data.length);
  const text = data.toString('utf8').replace(/\s+/g, ' ');
  return text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text;
}

export async function showNodeServerHistory(context: ServerHistoryContext, arg?: unknown, preset?: NodeHistoryPreset): Promise<HistoryEntry[] | undefined> {
  const asked = await historyTarget(context, arg, { title: t('Node History from Server Logs'), prompt: t('A path, or a glob (* within a name, ** across names); deleted nodes too') }, preset?.path);
  if (!asked) return undefined;
  const sources = await context.folders.sources(asked.connectionId, preset?.folders);
  if (!sources) return undefined;
  const entries: HistoryEntry[] = [];
  const issues: string[] = [];
  const read = await readCancellably(t('Reading the server logs for {0}…', shown(asked.path)), async (signal, report) => {
    const index = await context.folders.index(sources, signal, report);
    for await (const item of nodeHistoryFromIndex(index, asked.path, { signal })) {
      signal.throwIfAborted();
      if (item.kind === 'issue') issues.push(item.issue.message);
      else if (entries.push(item.entry) % 100 === 0) report(t('{0} changes found', entries.length));
    }
    return true;
  });
  if (!read) return undefined;
  reportLogIssues(issues, 'history');
  if (entries.length === 0) {
    void info(t('The server logs given hold no change to {0}.', asked.path));
    return entries;
  }
  await pickAndDiff(context, entries, preset?.open);
  return entries;
}

/** Each entry newest first; the chosen one opens as a diff of what it changed. */
async function pickAndDiff(context: ServerHistoryContext, entries: readonly HistoryEntry[], open?: number): Promise<void> {
  // The data each entry found (the one before it on the same path): what the diff's left side shows.
  const before = new Map<HistoryEntry, Buffer | null>();
  const current = new Map<string, Buffer | null>();
  for (const entry of entries) {
    before.set(entry, current.get(entry.path) ?? null);
    if (entry.data !== undefined) current.set(entry.path, entry.data);
    if (entry.removed) current.delete(entry.path);
  }
  const newestFirst = [...entries].reverse();
  const manyPaths = new Set(entries.map((e) => e.path)).size > 1;
  const items = newestFirst.map((entry) => ({
    entry,
    label: manyPaths ? `${entryLabel(entry)}  ${entry.path}` : entryLabel(entry),
    description: t('{0} · zxid {1} · session {2}', new Date(entry.time).toISOString(), hex(entry.zxid), hex(entry.session)),
    detail: dataPreview(entry.data),
  }));
  const chosen = open !== undefined ? items[open] : await pickItem(items, {
    title: t('History of {0} from the server logs ({1} changes)', newestFirst[0].path, entries.length), matchOnDescription: true, matchOnDetail: true,
    placeHolder: t('Choose a change to see what it did'),
  });
  if (!chosen) return;
  const { entry } = chosen;
  const previous = before.get(entry) ?? null;
  const after = entry.removed ? null : entry.data === undefined ? previous : entry.data;
  await context.sides.showDiff(entry.path, previous, after, t('before {0}', hex(entry.zxid)), t('after {0}', hex(entry.zxid)));
}
