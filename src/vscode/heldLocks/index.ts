// Held locks: locks and elections taken by hand in this window (HeldLocks), the Held Locks view, the status bar
// count, the notifications, and the commands. Other features (the lock-queue panel) use the returned API.
import * as vscode from 'vscode';
import type { LockSnapshot } from '../../zk/locks';
import { Command } from '../core/commandIds';
import { registerCommands, withContext } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { acquire, clearHeldLocks, release, releaseAll, revealHeldLock } from './heldLockCommands';
import { HeldLocks, isLive } from './heldLocks';
import type { HeldLocksContext } from './heldLocksContext';
import { HeldLocksStatusBar } from './heldLocksStatusBar';
import { HeldLocksElement, HeldLocksProvider } from './heldLocksView';
import { registerLockNotifications } from './lockNotifications';
import { releaseWhenWindowGone } from './releaseWhenGone';

/** What the lock-queue panel may ask of this window's locks. */
export interface HeldLocksApi {
  /** Queues for the exclusive lock at `path`; undefined when nothing was started (a question cancelled). */
  acquire(connectionId: string, path: string): Promise<LockSnapshot | undefined>;
  /** Releases the lock (or cancels the attempt) at `path`; false when this window takes part in none there. */
  release(connectionId: string, path: string): Promise<boolean>;
  /** The window's lock sessions on a connection (their nodes are "ours" in the panel). */
  sessionIds(connectionId: string): string[];
}

export interface HeldLocksParts {
  heldLocks: HeldLocks;
  heldLocksTree: HeldLocksProvider;
  heldLocksView: vscode.TreeView<HeldLocksElement>;
  heldLocksStatusBar: HeldLocksStatusBar;
}

export function register(extension: vscode.ExtensionContext, core: Core): Registered<HeldLocksApi, HeldLocksParts> {
  const heldLocks = new HeldLocks(core.store, core.connections);
  const heldLocksTree = new HeldLocksProvider(heldLocks, core.store);
  const heldLocksView = vscode.window.createTreeView<HeldLocksElement>('zooscope.heldLocks', { treeDataProvider: heldLocksTree });
  const heldLocksStatusBar = new HeldLocksStatusBar(heldLocks);
  const context: HeldLocksContext = { ...core, heldLocks, heldLocksTree, heldLocksView };
  // Menus: Release on explorer nodes only while the window takes part in a lock; Clear only with ended rows.
  const setContext = () => {
    const entries = heldLocks.list();
    void vscode.commands.executeCommand('setContext', 'zooscope.hasLiveLocks', entries.some((e) => isLive(e.snapshot)));
    void vscode.commands.executeCommand('setContext', 'zooscope.hasEndedLocks', entries.some((e) => !isLive(e.snapshot)));
  };
  setContext();
  return {
    api: {
      acquire: (connectionId, path) => acquire(context, 'exclusive', { connectionId, path }),
      release: (connectionId, path) => release(context, { connectionId, path }),
      sessionIds: (connectionId) => heldLocks.sessionIds(connectionId),
    },
    parts: { heldLocks, heldLocksTree, heldLocksView, heldLocksStatusBar },
    disposables: [
      // Disposing heldLocks closes every lock session (releases everything).
      heldLocksStatusBar, heldLocksView, heldLocksTree, heldLocks,
      heldLocks.onDidChange(setContext),
      ...registerLockNotifications(heldLocks, core.store),
      ...releaseWhenWindowGone(heldLocks, extension.globalStorageUri),
      ...registerCommands({
        [Command.acquireLock]: (arg?: unknown) => acquire(context, 'exclusive', arg),
        [Command.acquireReadLock]: (arg?: unknown) => acquire(context, 'read', arg),
        [Command.acquireWriteLock]: (arg?: unknown) => acquire(context, 'write', arg),
        [Command.joinElection]: (arg?: unknown) => acquire(context, 'election', arg),
        [Command.releaseLock]: withContext(context, release),
        [Command.releaseAllLocks]: withContext(context, releaseAll),
        [Command.revealHeldLock]: withContext(context, revealHeldLock),
        [Command.clearHeldLocks]: withContext(context, clearHeldLocks),
      }),
    ],
  };
}
