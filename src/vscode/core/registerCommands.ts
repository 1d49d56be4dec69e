import * as vscode from 'vscode';
import { acquire, clearHeldLocks, release, releaseAll, revealHeldLock } from '../heldLocks';
import { showLockQueue, showLocksUnder } from '../lockQueue/lockCommands';
import { log } from '../common/log';
import type { Services } from './core';
import { writeCommands } from '../nodes/writeCommands';
import { addConnection, connect, disconnect, editConnection, removeConnection } from '../connections/connectionCommands';
import { clearFilter, copyPath, filterChildren, goToPath, refresh, showDetails, showMore } from '../explorer/navigationCommands';

type Command = (services: Services, ...args: never[]) => unknown;

const commands: Record<string, Command> = {
  'zooscope.addConnection': addConnection,
  'zooscope.editConnection': editConnection,
  'zooscope.removeConnection': removeConnection,
  'zooscope.connect': connect,
  'zooscope.disconnect': disconnect,
  'zooscope.refresh': refresh,
  'zooscope.refreshAll': (s) => s.tree.refreshAll(),
  'zooscope.copyPath': copyPath,
  'zooscope.goToPath': goToPath,
  'zooscope.filterChildren': filterChildren,
  'zooscope.clearFilter': clearFilter,
  'zooscope.showDetails': showDetails,
  'zooscope.showMore': showMore,
  'zooscope.showLog': () => log().show(),
  'zooscope.showLockQueue': showLockQueue,
  'zooscope.showLocksUnder': showLocksUnder,
  'zooscope.refreshEnsemble': (s) => s.ensemble.refresh(),
  'zooscope.acquireLock': (s, arg?: unknown) => acquire(s, 'exclusive', arg),
  'zooscope.acquireReadLock': (s, arg?: unknown) => acquire(s, 'read', arg),
  'zooscope.acquireWriteLock': (s, arg?: unknown) => acquire(s, 'write', arg),
  'zooscope.joinElection': (s, arg?: unknown) => acquire(s, 'election', arg),
  'zooscope.releaseLock': release,
  'zooscope.releaseAllLocks': releaseAll,
  'zooscope.revealHeldLock': revealHeldLock,
  'zooscope.clearHeldLocks': clearHeldLocks,
  ...writeCommands,
};

export function registerCommands(services: Services): vscode.Disposable[] {
  return Object.entries(commands).map(([id, run]) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => (run as (s: Services, ...a: unknown[]) => unknown)(services, ...args)));
}
