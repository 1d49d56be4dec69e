// Lock queue: the panel that shows live lock queues of any client library (who holds, who waits in which order,
// who watches whom) and acts on them; restored after a reload by its serializer.
import * as vscode from 'vscode';
import type { LoadedRecording } from '../../zk/history';
import type { HistoryReplayPanel } from './historyReplayPanel';
import { LOCK_QUEUE_VIEW_TYPE } from '../../shared/lockQueueMessages';
import { Command } from '../core/commandIds';
import { registerCommands, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import type { HeldLocksApi } from '../heldLocks';
import { LockQueueContext, showLockQueue, showLocksUnder } from './lockCommands';
import { LockPanels } from './lockPanels';
import { exportLockHistory, exportLockTrace, HistoryFilePreset, openLockHistory } from './historyCommands';

export interface LockQueueParts {
  readonly locks: LockPanels;
}

/** What other features may use: a lock history shown read-only in the panel (one not read from a recording file). */
export interface LockQueueApi {
  showHistory(name: string, loaded: LoadedRecording): HistoryReplayPanel;
}

/** The panels opened on a path given instead of asked: only for the test API. */
function presetCommands(lockQueue: LockQueueContext) {
  return {
    exportLockHistory: withPresets(Command.exportLockHistory, (preset?: HistoryFilePreset) => exportLockHistory(lockQueue.locks, preset)),
    exportLockTrace: withPresets(Command.exportLockTrace, (preset?: HistoryFilePreset) => exportLockTrace(lockQueue.locks, preset)),
    openLockHistory: withPresets(Command.openLockHistory, (preset?: HistoryFilePreset) => openLockHistory(lockQueue.locks, preset)),
    showLockQueue: withPresets(Command.showLockQueue, (target: unknown, path?: string) => showLockQueue(lockQueue, target, path)),
    showLocksUnder: withPresets(Command.showLocksUnder, (target: unknown, path?: string) => showLocksUnder(lockQueue, target, path)),
  };
}

export type LockQueueCommands = ReturnType<typeof presetCommands>;

export function register(context: vscode.ExtensionContext, core: Core, heldLocks: HeldLocksApi): Registered<LockQueueApi, LockQueueParts & { commands: LockQueueCommands }> {
  const locks = new LockPanels(context.extensionUri, context.workspaceState, core, heldLocks);
  const lockQueue: LockQueueContext = { ...core, locks };
  return {
    api: { showHistory: (name, loaded) => locks.showReplay(name, loaded, name) },
    parts: { locks, commands: presetCommands(lockQueue) },
    disposables: [
      locks,
      vscode.window.registerWebviewPanelSerializer(LOCK_QUEUE_VIEW_TYPE, locks),
      ...registerCommands({
        [Command.showLockQueue]: (target) => showLockQueue(lockQueue, target),
        [Command.showLocksUnder]: (target) => showLocksUnder(lockQueue, target),
        [Command.exportLockHistory]: () => exportLockHistory(locks),
        [Command.exportLockTrace]: () => exportLockTrace(locks),
        [Command.openLockHistory]: () => openLockHistory(locks),
      }),
    ],
  };
}
