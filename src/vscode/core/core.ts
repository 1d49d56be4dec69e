// What every feature works with: the saved connections, the live sessions, the explorer's tree and view, the
// connection status bar and the report documents. Created once by activate(); features receive it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TreeNode } from '../../zk/tree/treeNodes';
import { log } from '../common/log';
import { REPORT_SCHEME, ReportDocuments } from '../common/reports';
import { ConnectionManager } from './connectionManager';
import { ConnectionStore } from './connectionStore';
import { followSelection } from './pastTargets';
import { ConnectionStatusBar } from './statusBar';
import { ZnodeTreeProvider } from './tree/znodeTreeProvider';

export interface Core {
  readonly store: ConnectionStore;
  readonly connections: ConnectionManager;
  readonly tree: ZnodeTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly statusBar: ConnectionStatusBar;
  readonly reports: ReportDocuments;
}

/** What a feature's `register` hands back: its disposables, what other features may use, and its parts (for tests). */
export interface Registered<Api = undefined, Parts extends object = object> {
  readonly disposables: vscode.Disposable[];
  readonly api: Api;
  readonly parts: Parts;
}

export function createCore(context: vscode.ExtensionContext): Core {
  const store = new ConnectionStore(context.secrets, path.join(context.globalStorageUri.fsPath, 'ssh', 'known_hosts'));
  const connections = new ConnectionManager(store);
  const tree = new ZnodeTreeProvider(store, connections);
  const view = vscode.window.createTreeView<TreeNode>('zooscope.explorer', { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true });
  followSelection(() => view.selection);
  const statusBar = new ConnectionStatusBar(store, connections);
  const reports = new ReportDocuments();
  context.subscriptions.push(
    log(), store, connections, tree, view, statusBar,
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, reports),
  );
  return { store, connections, tree, view, statusBar, reports };
}
