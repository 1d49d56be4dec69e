// The Watch Census view: the last census of a connection as a tree of members, the sessions with the most watches,
// the paths with the most watchers and the herd risk per lock queue. A path (or a session's busiest parent, or a
// waiter's node) reveals itself in the explorer when clicked; a lock queue opens its lock-queue panel.
import * as vscode from 'vscode';
import type { CensusServer, HerdRisk, HerdWaiter, Silence, WatchCensus } from '../../zk/census';
import { OTHER_PREFIX } from '../../zk/census/tally';
import { pathInChroot } from '../../zk/analysis/serverView';
import { Command } from '../core/commandIds';
import { literalTreeItem, tooltipLines } from '../common/literalTreeItem';
import { censusRows, CensusSort } from './censusRows';

const t = vscode.l10n.t;

export interface ShownCensus {
  connectionId: string;
  connectionName: string;
  /** The session's chroot: the census names server paths, the explorer paths inside it. */
  chroot?: string;
  census: WatchCensus;
}

type Section = 'servers' | 'sessions' | 'paths' | 'herd';

export type CensusNode =
  | { kind: 'section'; section: Section }
  | { kind: 'server'; server: CensusServer }
  | { kind: 'session'; session: WatchCensus['sessions'][number] }
  | { kind: 'path'; path: string; watchers: number }
  | { kind: 'herd'; risk: HerdRisk }
  | { kind: 'waiter'; waiter: HerdWaiter & { seen: string } };

const count = (n: number | undefined) => (n === undefined ? '?' : n.toLocaleString(vscode.env.language));

export function silenceText(s: Silence): string {
  const what = s.what === 'watches' ? t('watches not listed') : s.what === 'connections' ? t('connections not told') : t('watch totals not told');
  const why = s.reason === 'refused' ? t('{0} is not in its 4lw.commands.whitelist', s.detail) : s.detail;
  return s.adminServer === undefined ? `${what}: ${why}` : t('{0}: {1}; its AdminServer could not say either ({2})', what, why, s.adminServer);
}

function seenText(seen: string): string {
  switch (seen) {
    case 'unseen': return t('seen watching nothing (child watch?)');
    case 'other': return t('watches another node');
    case 'nothing': return t('watches nothing');
    default: return t('unknown');
  }
}

function eventText(event: string): string {
  switch (event) {
    case 'children': return t('children changed');
    case 'deleted': return t('deleted');
    case 'created': return t('created');
    default: return t('data changed');
  }
}

function riskText(risk: HerdRisk['risk']): string {
  switch (risk) {
    case 'herd': return t('herd');
    case 'possible': return t('possible herd');
    case 'unknown': return t('unknown');
    case 'none': return t('no herd');
  }
}

export class CensusProvider implements vscode.TreeDataProvider<CensusNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CensusNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private shownCensus: ShownCensus | undefined;
  sort: CensusSort = 'count';
  filter: string | undefined;

  get shown(): ShownCensus | undefined { return this.shownCensus; }

  show(census: ShownCensus | undefined): void {
    this.shownCensus = census;
    this.changed.fire(undefined);
  }

  setSort(sort: CensusSort): void {
    this.sort = sort;
    this.changed.fire(undefined);
  }

  setFilter(filter: string | undefined): void {
    this.filter = filter?.trim() ? filter.trim() : undefined;
    void vscode.commands.executeCommand('setContext', 'zooscope.watchCensusFiltered', this.filter !== undefined);
    this.changed.fire(undefined);
  }

  /** The explorer's path for a server path (undefined outside the connection's chroot). */
  treePath(serverPath: string): string | undefined {
    return pathInChroot(serverPath, this.shownCensus?.chroot);
  }

  getChildren(node?: CensusNode): CensusNode[] {
    const shown = this.shownCensus;
    if (!shown) return [];
    const rows = censusRows(shown.census, this.sort, this.filter);
    if (!node) return (['servers', 'sessions', 'paths', 'herd'] as const).map((section) => ({ kind: 'section', section }));
    if (node.kind === 'section') {
      switch (node.section) {
        case 'servers': return shown.census.servers.map((server) => ({ kind: 'server', server }));
        case 'sessions': return rows.sessions.map((session) => ({ kind: 'session', session }));
        case 'paths': return rows.paths.map((p) => ({ kind: 'path', path: p.path, watchers: p.watchers }));
        case 'herd': return rows.herd.map((risk) => ({ kind: 'herd', risk }));
      }
    }
    if (node.kind === 'herd') return node.risk.named.map((waiter) => ({ kind: 'waiter', waiter }));
    return [];
  }

  getTreeItem(node: CensusNode): vscode.TreeItem {
    return literalTreeItem(this.itemOf(node));
  }

  private itemOf(node: CensusNode): vscode.TreeItem {
    const shown = this.shownCensus!;
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    switch (node.kind) {
      case 'section': {
        const totals = shown.census.totals;
        const labels: Record<Section, string> = {
          servers: t('Members of {0} ({1} data watches, {2} child watches derived)', shown.connectionName, count(totals.dataWatches), count(totals.childWatches)),
          sessions: t('Sessions with the most watches ({0} watching)', count(totals.watchingSessions)),
          paths: t('Paths with the most watchers ({0} watched)', count(totals.watchedPaths)),
          herd: shown.census.herdUnavailable !== undefined ? t('Herd risk: the lock queues could not be read') : t('Herd risk by lock queue'),
        };
        const item = new vscode.TreeItem(labels[node.section], node.section === 'servers' || node.section === 'herd' ? vscode.TreeItemCollapsibleState.Expanded : collapsed);
        item.contextValue = `censusSection.${node.section}`;
        return item;
      }
      case 'server': {
        const s = node.server;
        const item = new vscode.TreeItem(s.server);
        item.description = t('{0} data · {1} child (derived) · {2} sessions', count(s.dataWatches), count(s.childWatches), count(s.sessions));
        item.iconPath = new vscode.ThemeIcon(s.silences.length ? 'warning' : 'server');
        const fanOut = (s.fanOut ?? []).filter((f) => f.changes > 0).map((f) => t('{0}: {1} changes fired {2} watchers (at most {3} at once)', eventText(f.event), count(f.changes), count(f.watchersFired), count(f.most)));
        tooltipLines(item, [s.server, t('Child watches are listed by no server: mntr\'s watch_count less the listed data watches.'), ...s.silences.map(silenceText), ...fanOut]);
        item.contextValue = 'censusServer';
        return item;
      }
      case 'session': {
        const s = node.session;
        const item = new vscode.TreeItem(s.id);
        item.description = s.watches === 1 ? t('1 watch · {0} on {1}', s.clientAddress ?? '?', s.server) : t('{0} watches · {1} on {2}', count(s.watches), s.clientAddress ?? '?', s.server);
        item.iconPath = new vscode.ThemeIcon('account');
        tooltipLines(item, [s.id, ...s.prefixes.map((p) => `${p.prefix === OTHER_PREFIX ? t('other parents') : p.prefix}: ${count(p.watches)}`)]);
        const top = s.prefixes.find((p) => p.prefix !== OTHER_PREFIX);
        if (top) item.command = { command: Command.revealCensusPath, title: t('Reveal in the Tree'), arguments: [{ path: top.prefix }] };
        item.contextValue = 'censusSession';
        return item;
      }
      case 'path': {
        const item = new vscode.TreeItem(node.path);
        item.description = node.watchers === 1 ? t('1 watcher') : t('{0} watchers', count(node.watchers));
        item.iconPath = new vscode.ThemeIcon('eye');
        item.command = { command: Command.revealCensusPath, title: t('Reveal in the Tree'), arguments: [{ path: node.path }] };
        item.contextValue = 'censusPath';
        return item;
      }
      case 'herd': {
        const r = node.risk;
        const item = new vscode.TreeItem(r.lock, r.named.length ? collapsed : vscode.TreeItemCollapsibleState.None);
        item.description = t('{0}: {1} waiters, {2} watch their predecessor, {3} unseen', riskText(r.risk), count(r.waiters), count(r.watchingPredecessor), count(r.unseen));
        item.iconPath = new vscode.ThemeIcon(r.risk === 'herd' ? 'error' : r.risk === 'possible' ? 'warning' : 'lock');
        const why = r.unseen > 0
          ? t('These waiters are seen watching nothing while their member holds unlisted child watches: the herd recipe (getChildren with a watch on the lock). Every change of the lock\'s children wakes them all; watching only the predecessor wakes one.')
          : r.risk === 'herd' ? t('Several waiters watch the same node: its change wakes them all; watching only the predecessor wakes one.') : t('Each waiter seen watching its predecessor is woken alone.');
        tooltipLines(item, [r.lock, `${r.recipe}: ${riskText(r.risk)}`, why]);
        item.command = { command: Command.openCensusLock, title: t('Show Lock Queue'), arguments: [r.lock] };
        item.contextValue = 'censusHerd';
        return item;
      }
      case 'waiter': {
        const w = node.waiter;
        const item = new vscode.TreeItem(w.node);
        item.description = t('{0} · session {1} · {2} on {3}', seenText(w.seen), w.session, w.clientAddress ?? '?', w.server ?? '?');
        item.iconPath = new vscode.ThemeIcon('person');
        item.command = { command: Command.revealCensusPath, title: t('Reveal in the Tree'), arguments: [{ path: w.node, inTree: true }] };
        item.contextValue = 'censusWaiter';
        return item;
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
