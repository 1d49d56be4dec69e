import type * as vscode from 'vscode';
import type { ConnectionManager } from './connectionManager';
import type { ConnectionStore } from './connectionStore';
import type { DetailsProvider } from '../explorer/detailsDocument';
import type { HeldLockViews } from '../heldLocks';
import type { LockViews } from '../lockQueue/lockViews';
import type { ConnectionStatusBar } from './statusBar';
import type { TreeNode } from '../../zk/tree/treeNodes';
import type { ZnodeTreeProvider } from './tree/znodeTreeProvider';
import type { WriteViews } from '../editing/writeViews';

/** What commands work with; also what `activate` returns, so in-host tests can look inside. */
export interface Services extends LockViews, HeldLockViews, WriteViews {
  readonly store: ConnectionStore;
  readonly connections: ConnectionManager;
  readonly tree: ZnodeTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly statusBar: ConnectionStatusBar;
  readonly details: DetailsProvider;
}
