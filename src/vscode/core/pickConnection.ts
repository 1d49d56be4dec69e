import * as vscode from 'vscode';
import type { Core } from './core';
import { isPathNode } from '../../zk/tree/treeNodes';
import { info } from '../common/notifier';
import { pickItem } from '../common/quickInput';
import { isPastTreeId } from './pastTargets';

/** The connection a command is about: from its tree argument, an id, the selection, or a quick pick. */
export async function pickConnection(core: Core, arg: unknown, onlyConnected = false): Promise<string | undefined> {
  if (isPathNode(arg)) return arg.connectionId;
  if (typeof arg === 'string' && core.store.get(arg)) return arg;
  const selected = core.view.selection[0];
  // A tree at a past moment selected is no connection to work on.
  if (selected && isPathNode(selected) && !isPastTreeId(selected.connectionId)) return selected.connectionId;
  const candidates = core.store.list().filter((c) => !onlyConnected || core.connections.get(c.id));
  if (candidates.length === 1) return candidates[0].id;
  if (candidates.length === 0) {
    void info(onlyConnected ? vscode.l10n.t('No connection is open.') : vscode.l10n.t('No connection is saved yet.'));
    return undefined;
  }
  const pick = await pickItem(
    candidates.map((c) => ({ label: c.name, description: c.connectString, id: c.id })),
    { placeHolder: vscode.l10n.t('Choose a ZooKeeper connection') });
  return pick?.id;
}

