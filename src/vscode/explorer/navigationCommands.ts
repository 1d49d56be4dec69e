import * as vscode from 'vscode';
import { isNameFilterProblem, parseNameFilter } from '../../zk/tree/nameFilter';
import { detailsUri } from './detailsDocument';
import { log } from '../common/log';
import type { Core } from '../core/core';
import { isPathNode, PathNode, ShowMoreNode, TreeNode, ZnodeNode } from '../../zk/tree/treeNodes';
import { isNodeTarget } from '../core/targets';
import { askZnodePath } from '../common/askZnodePath';
import { pickConnection } from '../core/pickConnection';
import { revealWithAncestors } from '../core/reveal';
import { fail } from '../common/notifier';
import { input } from '../common/quickInput';

const t = vscode.l10n.t;

function selectedPathNode(core: Core, arg: unknown): PathNode | undefined {
  if (isPathNode(arg)) return arg;
  const selected = core.view.selection[0];
  return isPathNode(selected) ? selected : undefined;
}

/** Go to Path…: reveals any path, loading its ancestors. Returns the revealed node. */
export async function goToPath(core: Core, arg?: unknown, typedPath?: string): Promise<TreeNode | undefined> {
  // A search result names its node ({ connectionId, path }): revealed as it is (a tree node asks, from its path).
  if (typedPath === undefined && isNodeTarget(arg) && !isPathNode(arg) && core.store.get(arg.connectionId)) return goToPath(core, arg.connectionId, arg.path);
  const id = await pickConnection(core, arg, false);
  if (!id) return undefined;
  const current = selectedPathNode(core, arg);
  const path = await askZnodePath(typedPath, { title: t('Go to Path'), value: current && current.connectionId === id ? current.path : '/' });
  if (path === undefined) return undefined;
  const live = await core.connections.connect(id);
  const tree = live ? core.tree.treeFor(id) : undefined;
  if (!tree) return undefined;
  const node = await revealWithAncestors(core, id, path);
  if (!node) void fail(t('{0} does not exist.', path));
  return node;
}

export async function copyPath(core: Core, arg?: unknown): Promise<void> {
  const node = selectedPathNode(core, arg);
  if (node) await vscode.env.clipboard.writeText(node.path);
}

export async function refresh(core: Core, arg?: unknown): Promise<void> {
  const node = selectedPathNode(core, arg);
  if (!node) return core.tree.refreshAll();
  await core.tree.refresh(node);
}

export async function showMore(core: Core, arg?: unknown): Promise<void> {
  if (!(arg instanceof ShowMoreNode)) return;
  core.tree.browsedTree(arg.parent.connectionId)?.listing(arg.parent.path)?.showMore();
  core.tree.redraw(arg.parent);
}

/** Filter Children…: a glob (`lock-*`) or `/regex/`; an empty answer clears the filter. */
export async function filterChildren(core: Core, arg?: unknown, text?: string): Promise<void> {
  const node = selectedPathNode(core, arg);
  if (!node) return;
  const tree = core.tree.browsedTree(node.connectionId);
  const listing = await tree?.openListing(node).catch(() => undefined);
  if (!listing) return;
  const value = text ?? await input({
    title: t('Filter Children of {0}', node.path), prompt: t('A glob such as lock-* or item-?, or a regular expression as /…/'),
    value: listing.filter?.text ?? '',
    validateInput: (v) => { const f = v ? parseNameFilter(v) : undefined; return f && isNameFilterProblem(f) ? t('Invalid regular expression: {0}', f.message) : undefined; },
  });
  if (value === undefined) return;
  const filter = value ? parseNameFilter(value) : undefined;
  if (filter && isNameFilterProblem(filter)) return;
  listing.setFilter(filter);
  core.tree.redraw(node);
  if (node instanceof ZnodeNode || filter) await core.view.reveal(node, { expand: true }).then(undefined, () => undefined);
}

export function clearFilter(core: Core, arg?: unknown): Promise<void> {
  return filterChildren(core, arg, '');
}

export async function showDetails(core: Core, arg?: unknown): Promise<void> {
  const node = selectedPathNode(core, arg);
  if (!node) return;
  let doc = await vscode.workspace.openTextDocument(detailsUri(node.connectionId, node.path));
  // The URI ends with the node's name (say `app.json`); the document is a report, not that file type.
  if (doc.languageId !== 'plaintext') doc = await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
  await vscode.window.showTextDocument(doc, { preview: true });
  log().debug(`details ${node.path}`);
}
