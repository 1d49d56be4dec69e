import * as vscode from 'vscode';
import { isNameFilterProblem, parseNameFilter } from '../../zk/nameFilter';
import { detailsUri } from './detailsDocument';
import { log } from '../common/log';
import { describeError } from '../common/messages';
import type { Services } from '../core/core';
import { isPathNode, PathNode, ShowMoreNode, TreeNode, ZnodeNode } from '../../zk/tree/treeNodes';
import { askZnodePath } from '../common/askZnodePath';
import { pickConnection } from '../common/pickConnection';
import { fail } from '../common/notifier';
import { input } from '../common/quickInput';

const t = vscode.l10n.t;

function selectedPathNode(services: Services, arg: unknown): PathNode | undefined {
  if (isPathNode(arg)) return arg;
  const selected = services.view.selection[0];
  return isPathNode(selected) ? selected : undefined;
}

/** Go to Path…: reveals any path, loading its ancestors. Returns the revealed node. */
export async function goToPath(services: Services, arg?: unknown, typedPath?: string): Promise<TreeNode | undefined> {
  const id = await pickConnection(services, arg, false);
  if (!id) return undefined;
  const current = selectedPathNode(services, arg);
  const path = await askZnodePath(typedPath, { title: t('Go to Path'), value: current && current.connectionId === id ? current.path : '/' });
  if (path === undefined) return undefined;
  const live = await services.connections.connect(id);
  const tree = live ? services.tree.treeFor(id) : undefined;
  if (!tree) return undefined;
  try {
    const node = await tree.resolve(path);
    if (!node) {
      void fail(t('{0} does not exist.', path));
      return undefined;
    }
    // Open the ancestors one by one, root first: a node redrawn while a single deep reveal is under way (the root
    // as the connection's state changes, a folder as it turns out to hold a lock queue) makes it land nowhere.
    const ancestors: TreeNode[] = [];
    for (let up = services.tree.getParent(node); up; up = services.tree.getParent(up)) ancestors.unshift(up);
    for (const ancestor of ancestors) await services.view.reveal(ancestor, { expand: true });
    await services.view.reveal(node, { select: true, focus: true, expand: false });
    return node;
  } catch (error) {
    void fail(describeError(error));
    return undefined;
  }
}

export async function copyPath(services: Services, arg?: unknown): Promise<void> {
  const node = selectedPathNode(services, arg);
  if (node) await vscode.env.clipboard.writeText(node.path);
}

export async function refresh(services: Services, arg?: unknown): Promise<void> {
  const node = selectedPathNode(services, arg);
  if (!node) return services.tree.refreshAll();
  try {
    await services.tree.refresh(node);
  } catch (error) {
    void fail(describeError(error));
  }
}

export async function showMore(services: Services, arg?: unknown): Promise<void> {
  if (!(arg instanceof ShowMoreNode)) return;
  services.tree.treeFor(arg.parent.connectionId)?.listing(arg.parent.path)?.showMore();
  services.tree.redraw(arg.parent);
}

/** Filter Children…: a glob (`lock-*`) or `/regex/`; an empty answer clears the filter. */
export async function filterChildren(services: Services, arg?: unknown, text?: string): Promise<void> {
  const node = selectedPathNode(services, arg);
  if (!node) return;
  const tree = services.tree.treeFor(node.connectionId);
  const listing = await tree?.openListing(node.path).catch(() => undefined);
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
  services.tree.redraw(node);
  if (node instanceof ZnodeNode || filter) await services.view.reveal(node, { expand: true }).then(undefined, () => undefined);
}

export function clearFilter(services: Services, arg?: unknown): Promise<void> {
  return filterChildren(services, arg, '');
}

export async function showDetails(services: Services, arg?: unknown): Promise<void> {
  const node = selectedPathNode(services, arg);
  if (!node) return;
  let doc = await vscode.workspace.openTextDocument(detailsUri(node.connectionId, node.path));
  // The URI ends with the node's name (say `app.json`); the document is a report, not that file type.
  if (doc.languageId !== 'plaintext') doc = await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
  await vscode.window.showTextDocument(doc, { preview: true });
  log().debug(`details ${node.path}`);
}
