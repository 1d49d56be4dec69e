// "Show Lock Queue" (one queue) and "Show Locks Under…" (every queue of a subtree): from a tree node, or from the
// palette with a connection pick and a path prompt.
import * as vscode from 'vscode';
import { askZnodePath } from '../common/askZnodePath';
import { pickConnection } from '../core/pickConnection';
import type { Core } from '../core/core';
import type { LockPanels } from './lockPanels';
import { isPathNode } from '../../zk/tree/treeNodes';
import type { LockQueuePanel } from './lockQueuePanel';

const t = vscode.l10n.t;

export interface LockQueueContext extends Core {
  readonly locks: LockPanels;
}

async function openPanel(core: LockQueueContext, arg: unknown, typedPath: string | undefined, mode: 'queue' | 'subtree'): Promise<LockQueuePanel | undefined> {
  const connectionId = await pickConnection(core, arg);
  if (!connectionId) return undefined;
  const selected = core.view.selection[0];
  const path = await askZnodePath(typedPath ?? (isPathNode(arg) ? arg.path : undefined), {
    title: mode === 'queue' ? t('Show Lock Queue') : t('Show Locks Under…'),
    prompt: mode === 'queue' ? t('Path of the lock (the parent of its contenders), e.g. /locks/orders') : t('Path of the subtree to search for lock queues'),
    value: isPathNode(selected) && selected.connectionId === connectionId ? selected.path : '/',
  });
  if (path === undefined) return undefined;
  return core.locks.show({ connectionId, root: path, mode });
}

export function showLockQueue(core: LockQueueContext, arg?: unknown, path?: string): Promise<LockQueuePanel | undefined> {
  return openPanel(core, arg, path, 'queue');
}

export function showLocksUnder(core: LockQueueContext, arg?: unknown, path?: string): Promise<LockQueuePanel | undefined> {
  return openPanel(core, arg, path, 'subtree');
}
