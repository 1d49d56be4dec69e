// How each element looks: icons and contextValue by node kind, description with size and child count.
import * as vscode from 'vscode';
import type { RecipeId } from '../../../shared/lockAnalysis';
import type { NodeKind } from '../../../zk/stat';
import type { ChildListing } from '../../../zk/tree/childListing';
import type { ConnectionState } from '../connectionManager';
import type { SavedConnection } from '../connectionStore';
import { formatNumber } from '../../common/format';
import { openOnClick } from '../settings';
import type { QuotaInfo } from '../../../zk/tree/quota';
import type { Decoded } from '../../../zk/decoders';
import { filterTextWith, znodePresentation } from '../../../zk/tree/znodePresentation';
import { ConnectionNode, MessageNode, PastRootNode, ShowMoreNode, ZnodeNode } from '../../../zk/tree/treeNodes';
import { hex } from '../../../zk/stat';
import { utcText } from '../../../zk/serverLogs/logRange';
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

const filterText = (listing: ChildListing | undefined) => filterTextWith(t, listing);

export function znodeItem(node: ZnodeNode, ownSessionOwner: bigint | undefined, listing: ChildListing | undefined,
  lockQueue?: RecipeId, knownKind?: NodeKind, quota?: QuotaInfo, decoded?: Decoded): vscode.TreeItem {
  const p = znodePresentation(t, node, ownSessionOwner, listing, { lockQueue, knownKind, quota, formatNumber, decoded });
  const item = new vscode.TreeItem(p.label, p.collapsible ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = p.id;
  item.iconPath = new vscode.ThemeIcon(p.icon.id, p.icon.color ? new vscode.ThemeColor(p.icon.color) : undefined);
  item.description = p.description;
  item.contextValue = p.contextValue;
  item.accessibilityInformation = { label: p.accessibilityLabel };
  // A click previews a leaf's data. Only leaves: VS Code expands an item that has a command by its twistie alone,
  // and a node with children should open on a click as a folder does.
  if (!p.collapsible && openOnClick()) item.command = { command: Command.previewNode, title: t('Preview Node Data'), arguments: [node] };
  return item;
}

/** A past moment as its roots and titles name it: the UTC time with its date, and the zxid. */
export function momentText(zxid: bigint, time: number | undefined): string {
  return time === undefined ? hex(zxid) : t('{0} ({1})', utcText(time), hex(zxid));
}

/** The root of a tree at a past moment: `prod @ 2026-11-28 03:12:00.000 UTC (0x1000003a7)`, read-only. */
export function pastRootItem(node: PastRootNode, listing: ChildListing | undefined): vscode.TreeItem {
  const { connectionName, zxid, time } = node.of;
  const moment = momentText(zxid, time);
  const item = new vscode.TreeItem(t('{0} @ {1}', connectionName, moment), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `past:${node.connectionId}`;
  item.iconPath = new vscode.ThemeIcon('history');
  item.description = [t('read-only, from the server logs'), filterText(listing)].filter(Boolean).join(' · ');
  const md = new vscode.MarkdownString(undefined, false);
  md.appendText(`${t('{0} as it was at {1}', connectionName, moment)}\n\n${t('Rebuilt from the servers\' snapshots and transaction logs. Read-only: nothing here changes ZooKeeper.')}`);
  item.tooltip = md;
  item.contextValue = ['pastRoot', listing?.filter ? 'filtered' : ''].filter(Boolean).join(' ');
  return item;
}

/** A node of a tree at a past moment: shown as the live tree shows it, with none of its write commands. */
export function pastZnodeItem(node: ZnodeNode, listing: ChildListing | undefined): vscode.TreeItem {
  const p = znodePresentation(t, node, undefined, listing, { formatNumber });
  const item = new vscode.TreeItem(p.label, p.collapsible ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = p.id;
  item.iconPath = new vscode.ThemeIcon(p.icon.id, p.icon.color ? new vscode.ThemeColor(p.icon.color) : undefined);
  item.description = p.description;
  item.contextValue = ['pastNode', listing?.filter ? 'filtered' : ''].filter(Boolean).join(' ');
  item.accessibilityInformation = { label: p.accessibilityLabel };
  if (!p.collapsible && openOnClick()) item.command = { command: Command.openPastNodeData, title: t('Open Data (Read-Only)'), arguments: [node] };
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
