// How each element looks: icons and contextValue by node kind, description with size and child count.
import * as vscode from 'vscode';
import type { RecipeId } from '../../../zk/analysis/model';
import { sequenceNumber } from '../../../zk/naturalOrder';
import { NodeKind, nodeKind } from '../../../zk/stat';
import { isProtectedPath } from '../../../zk/write/guard';
import type { ChildListing } from '../../../zk/childListing';
import type { ConnectionState } from '../connectionManager';
import type { SavedConnection } from '../connectionStore';
import { formatBytes } from '../../common/format';
import { openOnClick } from '../../common/settings';
import { kindName } from './tooltip';
import { QUOTA_ROOT, QuotaInfo } from '../../../zk/quota';
import { quotaState } from './quotaMarks';
import { ConnectionNode, MessageNode, ShowMoreNode, ZnodeNode } from '../../../zk/tree/treeNodes';
import { Command } from '../commandIds';

const t = vscode.l10n.t;

export function connectionItem(node: ConnectionNode, saved: SavedConnection, state: ConnectionState, server: string | undefined,
  sessionId: string | undefined, listing: ChildListing | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(saved.name, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `conn:${node.connectionId}${node.generation ? `#${node.generation}` : ''}`;
  const stateText = stateLabel(state);
  item.description = [stateText, server, filterText(listing)].filter(Boolean).join(' · ');
  item.iconPath = new vscode.ThemeIcon(
    state === 'connected' ? 'vm-running' : state === 'disconnected' || state === 'closed' ? 'vm-outline' : state === 'connecting' ? 'loading~spin' : 'warning',
    state === 'connected' ? new vscode.ThemeColor('testing.iconPassed') : state === 'lost' || state === 'expired' ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined);
  const md = new vscode.MarkdownString(undefined, false);
  md.appendText(`${saved.name}\n\n${saved.connectString}${saved.chroot ?? ''}\n\n${stateText}`);
  if (sessionId) md.appendText(`\n\n${t('Session {0}', sessionId)}`);
  if (server) md.appendText(`\n\n${t('Server {0}', server)}`);
  if (saved.readOnly) md.appendText(`\n\n${t('Read-only connection')}`);
  item.tooltip = md;
  const live = state === 'connected' || state === 'suspended' || state === 'lost' ? 'connected' : state === 'connecting' ? 'connecting' : 'disconnected';
  item.contextValue = ['connection', live, state, saved.readOnly ? 'readonly' : '', listing?.filter ? 'filtered' : ''].filter(Boolean).join(' ');
  return item;
}

export function stateLabel(state: ConnectionState): string {
  switch (state) {
    case 'connecting': return t('connecting');
    case 'connected': return t('connected');
    case 'suspended': return t('suspended (reconnecting)');
    case 'lost': return t('lost contact');
    case 'expired': return t('session expired');
    case 'authFailed': return t('authentication failed');
    case 'closed':
    case 'disconnected': return t('disconnected');
  }
}

function filterText(listing: ChildListing | undefined): string | undefined {
  if (!listing?.filter) return undefined;
  return t('filter "{0}": {1} of {2}', listing.filter.text, listing.matching, listing.total);
}

const kindIcons = { persistent: 'symbol-file', ephemeral: 'pulse', container: 'package', ttl: 'history' } as const;

export function znodeItem(node: ZnodeNode, ownSessionOwner: bigint | undefined, listing: ChildListing | undefined,
  lockQueue?: RecipeId, knownKind?: NodeKind, quota?: QuotaInfo): vscode.TreeItem {
  const { stat } = node;
  const hasChildren = stat.numChildren > 0;
  // knownKind: the mode this window created it with (3.8 shows containers and TTL nodes as persistent).
  const kind = knownKind ?? nodeKind(stat);
  const sequential = sequenceNumber(node.name) !== undefined;
  const yours = kind === 'ephemeral' && ownSessionOwner !== undefined && stat.ephemeralOwner === ownSessionOwner;
  const item = new vscode.TreeItem(node.name, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `znode:${node.connectionId}:${node.path}`;
  const icon = yours ? 'account' : kind === 'persistent' ? (hasChildren ? 'folder' : sequential ? 'list-ordered' : kindIcons.persistent) : kindIcons[kind];
  item.iconPath = lockQueue ? new vscode.ThemeIcon('lock', new vscode.ThemeColor('charts.purple'))
    : new vscode.ThemeIcon(icon, kind === 'ephemeral' ? new vscode.ThemeColor('charts.orange') : undefined);
  const parts = [formatBytes(stat.dataLength)];
  // Children that follow a lock recipe (see lockQueueMarks.ts).
  if (lockQueue) parts.unshift(t('lock queue ({0})', lockQueue));
  if (hasChildren) parts.push(stat.numChildren === 1 ? t('1 child') : t('{0} children', stat.numChildren));
  if (kind !== 'persistent') parts.push(yours ? t('{0}, yours', kindName(kind)) : kindName(kind));
  const filter = filterText(listing);
  if (filter) parts.push(filter);
  // Quotas (see quotaMarks.ts): over a soft limit the server only logs a warning; at a hard one it refuses writes.
  const quotaLevel = quota ? quotaState(quota) : undefined;
  if (quotaLevel === 'atHard') parts.unshift(t('at hard quota'));
  else if (quotaLevel === 'overSoft') parts.unshift(t('over soft quota'));
  else if (quota) parts.push(t('quota'));
  if (node.path === QUOTA_ROOT) parts.unshift(t('holds the quotas (zkCli setquota)'));
  if (quotaLevel === 'atHard' || quotaLevel === 'overSoft') {
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor(quotaLevel === 'atHard' ? 'list.errorForeground' : 'list.warningForeground'));
  } else if (node.path === QUOTA_ROOT) {
    item.iconPath = new vscode.ThemeIcon('dashboard');
  }
  item.description = parts.join(' · ');
  item.contextValue = ['znode', `kind-${kind}`, sequential ? 'sequential' : '', hasChildren ? 'children' : '', yours ? 'yours' : '', listing?.filter ? 'filtered' : '',
    lockQueue ? 'lockqueue' : '', isProtectedPath(node.path) ? 'protected' : '', quota ? 'quota' : '', quotaLevel === 'overSoft' || quotaLevel === 'atHard' ? 'overquota' : '']
    .filter(Boolean).join(' ');
  item.accessibilityInformation = { label: `${node.name}, ${item.description}` };
  // A click previews a leaf's data. Only leaves: VS Code expands an item that has a command by its twistie alone,
  // and a node with children should open on a click as a folder does.
  if (!hasChildren && openOnClick()) item.command = { command: Command.previewNode, title: t('Preview Node Data'), arguments: [node] };
  return item;
}

export function showMoreItem(node: ShowMoreNode): vscode.TreeItem {
  const item = new vscode.TreeItem(t('Show {0} more of {1} remaining…', Math.min(node.pageSize, node.remaining), node.remaining));
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.command = { command: Command.showMore, title: t('Show More'), arguments: [node] };
  item.contextValue = 'showMore';
  return item;
}

export function messageItem(node: MessageNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.text);
  item.iconPath = new vscode.ThemeIcon(node.severity === 'info' ? 'info' : node.severity === 'warning' ? 'warning' : 'error');
  item.contextValue = 'message';
  item.tooltip = node.text;
  return item;
}
