// "Sync and Refresh" on a node: `sync` first (the session's server catches up with the leader), then the node and
// its children are read again. For sessions on a follower that lags; `zooscope.syncBeforeRead` does the same before
// every data read (data documents, Show Details).
import * as vscode from 'vscode';
import type { Core } from '../core/core';
import { flash } from '../common/notifier';
import { nodeTargetOrAsk } from '../core/targets';

const t = vscode.l10n.t;

export async function syncAndRefresh(core: Core, arg: unknown): Promise<boolean> {
  const node = await nodeTargetOrAsk(core, arg, t('Sync and Refresh'));
  if (!node) return false;
  const live = core.connections.get(node.connectionId) ?? await core.connections.connect(node.connectionId);
  if (!live) return false;
  await live.session.sync(node.path);
  const shown = await core.tree.treeFor(node.connectionId)?.resolve(node.path).catch(() => undefined);
  if (shown) await core.tree.refresh(shown);
  flash(t('Synced {0} with the leader and read it again.', node.path), 'sync');
  return true;
}
