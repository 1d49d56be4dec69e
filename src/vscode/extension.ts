import * as vscode from 'vscode';
import { registerCommands } from './core/registerCommands';
import { ConnectionManager } from './core/connectionManager';
import { ConnectionStore } from './core/connectionStore';
import { DETAILS_SCHEME, DetailsProvider } from './explorer/detailsDocument';
import { createHeldLockViews, registerHeldLockViews } from './heldLocks';
import { createLockViews, registerLockViews } from './lockQueue/lockViews';
import { log } from './common/log';
import type { Services } from './core/core';
import { ConnectionStatusBar } from './core/statusBar';
import { isPathNode, TreeNode } from '../zk/tree/treeNodes';
import { ZnodeTreeProvider } from './core/tree/znodeTreeProvider';
import { createWriteViews, registerWriteViews } from './editing/writeViews';

export function activate(context: vscode.ExtensionContext): Services {
  const started = Date.now();
  const store = new ConnectionStore(context.secrets);
  const connections = new ConnectionManager(store);
  const tree = new ZnodeTreeProvider(store, connections);
  const view = vscode.window.createTreeView<TreeNode>('zooscope.explorer', { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true });
  const statusBar = new ConnectionStatusBar(store, connections);
  const details = new DetailsProvider(connections);
  const lockViews = createLockViews(context, store, connections);
  const heldLockViews = createHeldLockViews(store, connections);
  const writeViews = createWriteViews(connections, tree);
  const services: Services = { store, connections, tree, view, statusBar, details, ...lockViews, ...heldLockViews, ...writeViews };
  lockViews.locks.ourSessions = (id) => heldLockViews.heldLocks.sessionIds(id);
  context.subscriptions.push(
    log(), store, connections, tree, view, statusBar, details,
    vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details),
    view.onDidCollapseElement((e) => tree.onCollapsed(e.element)),
    view.onDidChangeSelection((e) => { const n = e.selection[0]; if (isPathNode(n)) statusBar.setActive(n.connectionId); }),
    ...registerCommands(services),
    ...registerLockViews(lockViews),
    ...registerHeldLockViews(heldLockViews, store),
    ...registerWriteViews(writeViews),
  );
  log().info(`ZooScope activated in ${Date.now() - started} ms (${vscode.env.appName}${vscode.env.remoteName ? `, remote ${vscode.env.remoteName}` : ''})`);
  return services;
}

export function deactivate(): void {
  // Sessions are closed by the disposables above (the servers drop their ephemeral nodes at once).
}
