// Locks held by hand in the VS Code layer: the window's lock sessions and attempts (HeldLocks), the Held Locks
// view, the status bar count, and the notifications. Created once by activate(); the commands are in
// heldLockCommands.ts (registered with the others in commands/registerCommands.ts).
import * as vscode from 'vscode';
import type { ConnectionManager } from '../core/connectionManager';
import type { ConnectionStore } from '../core/connectionStore';
import { HeldLocks, isLive } from './heldLocks';
import { HeldLocksStatusBar } from './heldLocksStatusBar';
import { HeldLocksElement, HeldLocksProvider } from './heldLocksView';
import { registerLockNotifications } from './lockNotifications';

export interface HeldLockViews {
  readonly heldLocks: HeldLocks;
  readonly heldLocksTree: HeldLocksProvider;
  readonly heldLocksView: vscode.TreeView<HeldLocksElement>;
  readonly heldLocksStatusBar: HeldLocksStatusBar;
}

export function createHeldLockViews(store: ConnectionStore, connections: ConnectionManager): HeldLockViews {
  const heldLocks = new HeldLocks(store, connections);
  const heldLocksTree = new HeldLocksProvider(heldLocks, store);
  return {
    heldLocks,
    heldLocksTree,
    heldLocksView: vscode.window.createTreeView<HeldLocksElement>('zooscope.heldLocks', { treeDataProvider: heldLocksTree }),
    heldLocksStatusBar: new HeldLocksStatusBar(heldLocks),
  };
}

/** Disposables for context.subscriptions; disposing `heldLocks` closes every lock session (releases everything). */
export function registerHeldLockViews(views: HeldLockViews, store: ConnectionStore): vscode.Disposable[] {
  // Menus: Release on explorer nodes only while the window takes part in a lock; Clear only with ended rows.
  const setContext = () => {
    const entries = views.heldLocks.list();
    void vscode.commands.executeCommand('setContext', 'zooscope.hasLiveLocks', entries.some((e) => isLive(e.snapshot)));
    void vscode.commands.executeCommand('setContext', 'zooscope.hasEndedLocks', entries.some((e) => !isLive(e.snapshot)));
  };
  setContext();
  return [
    views.heldLocksStatusBar, views.heldLocksView, views.heldLocksTree, views.heldLocks,
    views.heldLocks.onDidChange(setContext),
    ...registerLockNotifications(views.heldLocks, store),
  ];
}

export { acquire, clearHeldLocks, release, releaseAll, revealHeldLock } from './heldLockCommands';
export type { HeldLocks } from './heldLocks';
