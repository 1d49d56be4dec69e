// Creates the lock-queue panels and the Ensemble view, and registers what VS Code must know about them
// (the panel serializer, the view's visibility-driven refresh). Called once from activate().
import * as vscode from 'vscode';
import { LOCK_QUEUE_VIEW_TYPE } from '../../shared/lockQueueMessages';
import type { ConnectionManager } from '../core/connectionManager';
import type { ConnectionStore } from '../core/connectionStore';
import type { EnsembleNode } from '../ensemble/ensembleItems';
import { EnsembleProvider } from '../ensemble/ensembleProvider';
import { LockPanels } from './lockPanels';

export interface LockViews {
  readonly locks: LockPanels;
  readonly ensemble: EnsembleProvider;
  readonly ensembleView: vscode.TreeView<EnsembleNode>;
}

export function createLockViews(context: vscode.ExtensionContext, store: ConnectionStore, connections: ConnectionManager): LockViews {
  const ensemble = new EnsembleProvider(store);
  return {
    locks: new LockPanels(context.extensionUri, context.workspaceState, connections, store),
    ensemble,
    ensembleView: vscode.window.createTreeView<EnsembleNode>('zooscope.ensemble', { treeDataProvider: ensemble }),
  };
}

export function registerLockViews(views: LockViews): vscode.Disposable[] {
  return [
    views.locks,
    views.ensemble,
    views.ensembleView,
    views.ensemble.attach(views.ensembleView),
    vscode.window.registerWebviewPanelSerializer(LOCK_QUEUE_VIEW_TYPE, views.locks),
  ];
}
