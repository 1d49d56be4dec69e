// The active connection at a glance: state, exact session id, and the server the session is attached to.
import * as vscode from 'vscode';
import type { ConnectionManager } from './connectionManager';
import type { ConnectionStore } from './connectionStore';
import { stateLabel } from './tree/treeItems';
import { iconSafe } from '../common/untrustedText';
import { connectionTooltip } from './connectionTooltip';
import { Command } from './commandIds';
import { sshRoute } from './secretBinding';

const t = vscode.l10n.t;

export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('zooscope.connection', vscode.StatusBarAlignment.Left, 50);
  private activeId: string | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly store: ConnectionStore, private readonly connections: ConnectionManager) {
    this.item.name = t('ZooScope Connection');
    this.subscriptions.push(connections.onDidChange((id) => {
      if (!this.activeId || this.activeId === id || connections.state(this.activeId) === 'disconnected') {
        if (connections.state(id) !== 'disconnected') this.activeId = id;
      }
      this.update();
    }));
    this.update();
  }

  /** Makes `id` the connection shown (the one the user works with in the tree). */
  setActive(id: string | undefined): void {
    if (id && id !== this.activeId) {
      this.activeId = id;
      this.update();
    }
  }

  /** What the item shows, for tests. */
  get text(): string {
    return this.item.text;
  }

  /** Its tooltip, for tests. */
  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : this.item.tooltip?.value ?? '';
  }

  private update(): void {
    const id = this.activeId;
    const saved = id ? this.store.get(id) : undefined;
    const state = id ? this.connections.state(id) : 'disconnected';
    if (!id || !saved || state === 'disconnected' || state === 'closed') {
      this.item.hide();
      return;
    }
    const session = this.connections.get(id)?.session;
    const icon = state === 'connected' ? '$(database)' : state === 'connecting' ? '$(loading~spin)' : '$(warning)';
    const parts = [`${icon} ${iconSafe(saved.name)}: ${stateLabel(state)}`];
    if (saved.readOnly) parts.push(t('read-only'));
    if (session?.serverAddress) parts.push(iconSafe(session.serverAddress));
    const bastion = sshRoute(saved);
    const bastionProblem = bastion && state !== 'connected' ? this.connections.bastionProblem(id) : undefined;
    if (bastion) parts.push(`$(remote) ${iconSafe(bastionProblem ? t('SSH bastion {0} failing', bastion) : t('via {0}', bastion))}`);
    const security = state === 'connected' ? session?.security : undefined;
    if (security?.tls) parts.push(`$(lock) ${security.tls.protocol}`);
    if (security?.sasl) parts.push(`$(key) ${iconSafe(t('SASL {0}', security.sasl.identity))}`);
    this.item.text = parts.join(' · ');
    // Screen readers get the session id too (the text leaves it out to stay short).
    const sessionId = state !== 'connecting' ? session?.sessionId : undefined;
    this.item.accessibilityInformation = { label: [...parts, ...(sessionId ? [t('Session {0}', sessionId)] : [])].join(', ').replace(/\$\([a-z~-]+\) ?/g, '') };
    this.item.tooltip = connectionTooltip(t, saved.name, saved.connectString, security, sessionId, bastion ? { bastion, problem: bastionProblem } : undefined);
    this.item.command = Command.showLog;
    this.item.backgroundColor = state === 'lost' || state === 'expired' || state === 'authFailed'
      ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}
