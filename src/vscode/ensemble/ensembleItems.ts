// How the Ensemble view's elements look: a connection, its servers (mode, version, latency), and one line per
// figure under each server.
import * as vscode from 'vscode';
import type { ServerStatus } from '../../zk/servers/ensembleStatus';
import type { SavedConnection } from '../core/connectionStore';

const t = vscode.l10n.t;

export class EnsembleConnectionNode {
  readonly kind = 'ensembleConnection';
  constructor(readonly connectionId: string) {}
}

export class EnsembleServerNode {
  readonly kind = 'ensembleServer';
  constructor(readonly parent: EnsembleConnectionNode, readonly status: ServerStatus) {}
}

export class EnsembleDetailNode {
  readonly kind = 'ensembleDetail';
  constructor(readonly parent: EnsembleServerNode | EnsembleConnectionNode, readonly label: string, readonly value: string, readonly icon: string,
    readonly severity?: 'warning' | 'error') {}
}

export type EnsembleNode = EnsembleConnectionNode | EnsembleServerNode | EnsembleDetailNode;

const modeIcons: Record<string, string> = { leader: 'star-full', follower: 'circle-filled', observer: 'eye', standalone: 'server', 'read-only': 'lock' };

export function modeLabel(mode: string | undefined): string {
  switch (mode) {
    case 'leader': return t('leader');
    case 'follower': return t('follower');
    case 'observer': return t('observer');
    case 'standalone': return t('standalone');
    case undefined: return t('mode unknown');
    default: return mode;
  }
}

/** Latencies as the servers report them (avg has many decimals), rounded to what a person reads. */
const ms = (value: number) => String(Math.round(value * 100) / 100);

function latencyText(s: ServerStatus): string | undefined {
  return s.latencyMs ? t('{0}/{1}/{2} ms', ms(s.latencyMs.min), ms(s.latencyMs.avg), ms(s.latencyMs.max)) : undefined;
}

function viaText(s: ServerStatus): string {
  if (s.via === 'admin') return s.secure ? t('AdminServer over HTTPS') : t('AdminServer over HTTP');
  if (s.via === 'fourLetterWords') return s.secure ? t('four-letter words over TLS') : t('four-letter words, unencrypted');
  return t('nothing answered');
}

function sourceText(s: ServerStatus): string {
  return s.source === 'config' ? t('/zookeeper/config (not in the connect string)')
    : s.source === 'both' ? t('the connect string and /zookeeper/config') : t('the connect string');
}

export function connectionItem(node: EnsembleConnectionNode, saved: SavedConnection | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(saved?.name ?? node.connectionId, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `ensemble:${node.connectionId}`;
  item.description = saved?.connectString;
  item.iconPath = new vscode.ThemeIcon('server-environment');
  item.contextValue = 'ensembleConnection';
  return item;
}

export function serverItem(node: EnsembleServerNode): vscode.TreeItem {
  const s = node.status;
  const item = new vscode.TreeItem(s.address, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `ensemble:${node.parent.connectionId}:${s.address}`;
  if (!s.reachable) {
    item.description = [t('unreachable'), s.source === 'config' ? t('from /zookeeper/config') : undefined].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  } else {
    const latency = s.latencyMs ? t('{0} ms avg', ms(s.latencyMs.avg)) : undefined;
    item.description = [modeLabel(s.mode), s.version, latency, s.source === 'config' ? t('from /zookeeper/config') : undefined].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(modeIcons[s.mode ?? ''] ?? 'server',
      s.mode === 'leader' ? new vscode.ThemeColor('charts.yellow') : undefined);
  }
  const md = new vscode.MarkdownString(undefined, false);
  md.appendText(details(node).map((d) => `${d.label}: ${d.value}`).join('\n\n'));
  item.tooltip = md;
  item.contextValue = `ensembleServer ${s.reachable ? 'reachable' : 'unreachable'} via-${s.via}`;
  item.accessibilityInformation = { label: `${s.address}, ${String(item.description)}` };
  return item;
}

export function details(node: EnsembleServerNode): EnsembleDetailNode[] {
  const s = node.status;
  const d = (label: string, value: string | number | undefined, icon: string, severity?: 'warning' | 'error') =>
    value === undefined ? undefined : new EnsembleDetailNode(node, label, String(value), icon, severity);
  const watches = s.watches !== undefined || s.dataWatches !== undefined
    ? t('{0} in all, data watches {1}', s.watches ?? '?', s.dataWatches ?? '?') : undefined;
  const list = [
    d(t('Mode'), s.reachable ? modeLabel(s.mode) : undefined, 'symbol-enum'),
    d(t('Version'), s.version, 'versions'),
    d(t('Latency min/avg/max'), latencyText(s), 'dashboard'),
    d(t('Connections'), s.connections, 'plug'),
    d(t('Znodes'), s.znodes, 'symbol-file'),
    d(t('Watches'), watches, 'eye'),
    d(t('Read via'), viaText(s), 'info'),
    d(t('AdminServer not used'), s.adminError, 'warning', 'warning'),
    d(t('Listed in'), sourceText(s), 'list-unordered'),
    d(t('Refused four-letter words'), s.refusedWords?.length
      ? t('{0} (not in 4lw.commands.whitelist; set admin.enableServer or whitelist them)', s.refusedWords.join(', ')) : undefined, 'warning', 'warning'),
    d(t('Error'), s.error, 'error', 'error'),
  ];
  return list.filter((x): x is EnsembleDetailNode => x !== undefined);
}

export function detailItem(node: EnsembleDetailNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label);
  item.description = node.value;
  item.tooltip = `${node.label}: ${node.value}`;
  item.iconPath = new vscode.ThemeIcon(node.icon, node.severity === 'error' ? new vscode.ThemeColor('errorForeground')
    : node.severity === 'warning' ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined);
  item.contextValue = 'ensembleDetail';
  item.accessibilityInformation = { label: `${node.label}: ${node.value}` };
  return item;
}
