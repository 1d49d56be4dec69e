// The "Held Locks" view: one row per lock or election the window takes part in (name, state, kind, since when,
// parent path), its facts (own node, session, position, what it waits for, why it was lost) as child rows and tooltip.
// contextValue `heldLock live|ended state-<state>` keys the row's Release / Reveal / Clear actions.
import * as vscode from 'vscode';
import type { LockSnapshot } from '../../zk/locks';
import { baseName, parentPath } from '../../zk/paths';
import type { ConnectionStore } from '../core/connectionStore';
import { HeldLock, HeldLocks, isLive } from './heldLocks';
import { conventionDescription, lostReasonText, modeLabel, positionText, stateLabel, waitingText } from './lockTexts';
import { literalTreeItem } from '../common/literalTreeItem';

const t = vscode.l10n.t;

export class HeldLockNode {
  readonly kind = 'heldLock';
  constructor(readonly entry: HeldLock) {}
}

export class HeldLockFactNode {
  readonly kind = 'heldLockFact';
  constructor(readonly parent: HeldLockNode, readonly label: string, readonly value: string, readonly icon: string) {}
}

export type HeldLocksElement = HeldLockNode | HeldLockFactNode;

export function isHeldLockNode(value: unknown): value is HeldLockNode {
  return value instanceof HeldLockNode;
}

const STATE_ICONS: Record<LockSnapshot['state'], [string, string?]> = {
  acquiring: ['loading~spin'],
  waiting: ['watch', 'charts.yellow'],
  held: ['lock', 'testing.iconPassed'],
  leader: ['star-full', 'testing.iconPassed'],
  suspended: ['debug-pause', 'problemsWarningIcon.foreground'],
  lost: ['error', 'errorForeground'],
  released: ['unlock'],
  cancelled: ['circle-slash'],
  timedOut: ['clock'],
  failed: ['error', 'errorForeground'],
};

const time = (ms: number) => new Date(ms).toLocaleTimeString();

export class HeldLocksProvider implements vscode.TreeDataProvider<HeldLocksElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HeldLocksElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** One node per entry, so VS Code keeps expansion and selection across refreshes. */
  private readonly nodes = new Map<number, HeldLockNode>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly locks: HeldLocks, private readonly store: ConnectionStore) {
    this.subscription = locks.onDidChange(() => this.changed.fire(undefined));
  }

  getChildren(element?: HeldLocksElement): HeldLocksElement[] {
    if (!element) {
      const entries = this.locks.list();
      for (const id of [...this.nodes.keys()]) if (!this.locks.get(id)) this.nodes.delete(id);
      return entries.map((e) => this.nodeFor(e));
    }
    return element.kind === 'heldLock' ? this.facts(element) : [];
  }

  getParent(element: HeldLocksElement): HeldLocksElement | undefined {
    return element.kind === 'heldLockFact' ? element.parent : undefined;
  }

  nodeFor(entry: HeldLock): HeldLockNode {
    let node = this.nodes.get(entry.id);
    if (!node) this.nodes.set(entry.id, node = new HeldLockNode(entry));
    return node;
  }

  getTreeItem(element: HeldLocksElement): vscode.TreeItem {
    return literalTreeItem(this.buildTreeItem(element));
  }

  private buildTreeItem(element: HeldLocksElement): vscode.TreeItem {
    if (element.kind === 'heldLockFact') {
      const item = new vscode.TreeItem(element.label);
      // Node paths by name (the row above names the lock); the tooltip has the whole path.
      item.description = element.value.startsWith('/') ? baseName(element.value) : element.value;
      item.tooltip = `${element.label}: ${element.value}`;
      item.iconPath = new vscode.ThemeIcon(element.icon);
      item.contextValue = 'heldLockFact';
      item.accessibilityInformation = { label: `${element.label}: ${element.value}` };
      return item;
    }
    const s = element.entry.snapshot;
    // The name as label and the parent in the description, as VS Code's own lists show files.
    const item = new vscode.TreeItem(baseName(s.path), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `heldLock:${element.entry.id}`;
    item.description = this.summary(element.entry);
    const [icon, color] = STATE_ICONS[s.state];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.tooltip = this.tooltip(element);
    item.contextValue = ['heldLock', isLive(s) ? 'live' : 'ended', `state-${s.state}`].join(' ');
    item.accessibilityInformation = { label: `${s.path}, ${item.description}` };
    return item;
  }

  /**
   * "held · exclusive lock · since 14:02:31 · /app/locks" (state first: it is what a narrow side bar must not cut),
   * the place in the queue while waiting, and the connection when locks of several connections are listed.
   */
  summary(entry: HeldLock): string {
    const s = entry.snapshot;
    const parts = [s.state === 'waiting' ? waitingText(s) : stateLabel(s.state), modeLabel(s.mode), t('since {0}', time(s.since)), parentPath(s.path) ?? '/'];
    const connections = new Set(this.locks.list().map((e) => e.connectionId));
    if (connections.size > 1) parts.push(this.store.get(entry.connectionId)?.name ?? entry.connectionId);
    return parts.join(' · ');
  }

  private facts(node: HeldLockNode): HeldLockFactNode[] {
    const s = node.entry.snapshot;
    const fact = (label: string, value: string | undefined, icon: string) => (value ? [new HeldLockFactNode(node, label, value, icon)] : []);
    return [
      ...fact(t('Own node'), s.node, 'symbol-key'),
      ...fact(t('Session'), s.sessionId, 'plug'),
      ...fact(t('Position'), s.position && isLive(s) ? positionText(s.position) : undefined, 'list-ordered'),
      ...fact(t('Waiting for'), s.waitingFor, 'watch'),
      ...fact(t('Lost because'), s.state === 'lost' ? lostReasonText(s) : undefined, 'warning'),
      ...fact(t('Error'), s.state === 'failed' ? s.error : undefined, 'error'),
      ...fact(t('Convention'), s.convention, 'symbol-ruler'),
      ...fact(t('Started'), time(s.startedAt), 'history'),
      ...fact(t('Asked again'), s.repeatedRequests ? t('{0} times (not queued twice)', s.repeatedRequests) : undefined, 'info'),
    ];
  }

  private tooltip(node: HeldLockNode): vscode.MarkdownString {
    const s = node.entry.snapshot;
    const md = new vscode.MarkdownString(undefined, false);
    md.appendText(`${s.path}\n\n${modeLabel(s.mode)} · ${stateLabel(s.state)} · ${t('since {0}', time(s.since))}\n\n`);
    md.appendText(`${t('Connection')}: ${this.store.get(node.entry.connectionId)?.name ?? node.entry.connectionId}\n\n`);
    for (const f of this.facts(node)) md.appendText(`${f.label}: ${f.value}\n\n`);
    md.appendText(conventionDescription(s.convention));
    return md;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
