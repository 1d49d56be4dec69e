// "Open Tree at a Past Moment…": the whole tree as it was at a time or zxid, rebuilt from the servers' snapshots and
// logs, shown in the explorer as a root of its own beside the connections and browsed as they are (the same paging
// and order, the Stats a client would have been told), read-only: its rows have no write commands, and a command
// given one of its nodes is refused (core/pastTargets.ts). Its nodes' details and data open as read-only documents.
import * as vscode from 'vscode';
import { replayedStat } from '../../zk/serverLogs/replayedTree';
import { isPathNode, PastRootNode, type PathNode } from '../../zk/tree/treeNodes';
import { decodedSide } from '../common/dataDiffDocuments';
import { nodeDocumentUri } from '../core/liveNodeDocuments';
import { znodePathOf } from '../common/znodeUriPath';
import { info } from '../common/notifier';
import type { Core } from '../core/core';
import { isPastTreeId } from '../core/pastTargets';
import { explicitTarget } from '../core/targets';
import { pickConnection } from '../core/pickConnection';
import { renderDetails } from '../explorer';
import { momentText } from '../core/tree/treeItems';
import { visibleText } from '../../shared/visibleText';
import { askMoment, type IndexOf } from './momentPicker';
import { rebuildAt } from './momentCommand';
import type { ServerHistoryContext } from './nodeHistoryCommand';

const t = vscode.l10n.t;
export const PAST_NODE_SCHEME = 'zooscope-past-node';

export interface PastTreePreset {
  folders?: string[];
  moment?: string;
}

/** Opens the tree at a moment in the explorer and reveals the node the command was given (or the root, expanded). */
export async function openTreeAtPastMoment(context: ServerHistoryContext, arg?: unknown, preset?: PastTreePreset): Promise<PastRootNode | undefined> {
  const title = t('Open Tree at a Past Moment');
  const connectionId = await pickConnection(context, arg, false);
  if (!connectionId) return undefined;
  const sources = await context.folders.sources(connectionId, preset?.folders);
  if (!sources) return undefined;
  const indexOf: IndexOf = (signal, report) => context.folders.index(sources, signal, report);
  const moment = await askMoment(title, sources, preset?.moment, indexOf);
  if (!moment) return undefined;
  const past = await rebuildAt(sources, moment, '/', indexOf);
  if (!past) return undefined;
  const root = context.tree.openPast({
    connectionId, connectionName: context.store.get(connectionId)?.name ?? connectionId, root: '/', zxid: past.zxid, time: past.time,
  }, past.tree);
  const path = explicitTarget(arg)?.path ?? '/';
  const shownNode = path === '/' ? root : await context.tree.pastTree(root.connectionId)?.resolve(path).catch(() => undefined);
  if (path !== '/' && !shownNode) void info(t('{0} did not exist at that moment.', path));
  await context.view.reveal(shownNode ?? root, { expand: true, select: true, focus: true }).then(undefined, () => undefined);
  return root;
}

/** The past node a command was given (or the selected one), with its tree. */
function pastNodeOf(core: Core, arg: unknown): PathNode | undefined {
  const node = isPathNode(arg) ? arg : core.view.selection[0];
  return isPathNode(node) && isPastTreeId(node.connectionId) ? node : undefined;
}

export function closePastTree(core: Core, arg?: unknown): void {
  const node = pastNodeOf(core, arg);
  if (node) core.tree.closePast(node.connectionId);
}

/** Show Details or the data of a past node, as a read-only document. */
export async function openPastNodeDocument(core: Core, kind: 'details' | 'data', arg?: unknown): Promise<vscode.TextDocument | undefined> {
  const node = pastNodeOf(core, arg);
  if (!node) return undefined;
  let doc = await vscode.workspace.openTextDocument(nodeDocumentUri(PAST_NODE_SCHEME, kind, node.connectionId, node.path));
  // The URI ends with the node's name (say `app.json`): the details are a report; the data keeps what its name says.
  if (kind === 'details' && doc.languageId !== 'plaintext') doc = await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
  await vscode.window.showTextDocument(doc, { preview: true });
  return doc;
}

/** The documents of past nodes: what the replayed tree holds, so they never change. */
export class PastNodeDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly core: Core) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = Buffer.from(uri.authority, 'hex').toString('utf8');
    const path = znodePathOf(uri.path);
    const tree = this.core.tree.pastTree(id);
    const node = tree?.replayed.node(path);
    if (!tree || !node) return t('This tree at a past moment is closed.');
    const data = node.data ?? Buffer.alloc(0);
    if (uri.query === 'data') return decodedSide(node.data);
    const { connectionName, zxid, time } = tree.root.of;
    const heading = [t('{0} @ {1}', connectionName, momentText(zxid, time)), t('Rebuilt from the server logs (read-only).')];
    return `${heading.map(visibleText).join('\n')}\n\n${renderDetails(path, replayedStat(node), data, { entries: node.acl })}`;
  }
}
