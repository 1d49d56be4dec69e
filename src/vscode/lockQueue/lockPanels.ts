// All open lock-queue panels, one per connection + root + mode: opening the same one again reveals it. Also the
// serializer that brings panels back after a window reload: from the state their webview saved, or, when the
// workbench restored the panel without it (seen in code-server after a reload), from the list of open panels this
// class keeps in the workspace state, matched by the panel's title.
import * as vscode from 'vscode';
import { LockMonitor } from '../../zk/analysis';
import type { LockQueuePanelState } from '../../shared/lockQueueMessages';
import type { ConnectionManager } from '../core/connectionManager';
import type { ConnectionStore } from '../core/connectionStore';
import { log } from '../common/log';
import { isPanelState, LOCK_QUEUE_VIEW_TYPE, LockQueuePanel, panelKey, panelTitle } from './lockQueuePanel';
import type { MonitorFactory } from './monitor';

const realMonitor: MonitorFactory = (session, root, options) => new LockMonitor(session, root, options);
const OPEN_PANELS_KEY = 'zooscope.lockPanels';

export class LockPanels implements vscode.Disposable, vscode.WebviewPanelSerializer<unknown> {
  private readonly panels = new Map<string, LockQueuePanel>();
  /** Sessions of this window besides the connection's own (the held-lock sessions): their nodes are "ours". */
  ourSessions: (connectionId: string) => string[] = () => [];
  private shuttingDown = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** Workspace state: the panels open in this window, for the serializer. */
    private readonly memento: vscode.Memento,
    private readonly connections: ConnectionManager,
    private readonly store: ConnectionStore,
    /** Tests may replace the analysis; the extension uses the real LockMonitor. */
    public createMonitor: MonitorFactory = realMonitor,
  ) {}

  /** Opens (or reveals) the panel for `state`. */
  show(state: LockQueuePanelState): LockQueuePanel {
    const existing = this.panels.get(panelKey(state));
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(LOCK_QUEUE_VIEW_TYPE, panelTitle(state), vscode.ViewColumn.Active, { enableScripts: true });
    return this.adopt(panel, state);
  }

  get(state: LockQueuePanelState): LockQueuePanel | undefined {
    return this.panels.get(panelKey(state));
  }

  all(): LockQueuePanel[] {
    return [...this.panels.values()];
  }

  /** After a window reload: the webview saved `{ connectionId, root, mode }` with setState. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const state = isPanelState(saved) ? saved
      : this.remembered().find((s) => panelTitle(s) === panel.title && !this.panels.has(panelKey(s)));
    if (!state || !this.store.get(state.connectionId) || this.panels.has(panelKey(state))) {
      log().info(`lock queue panel "${panel.title}" not restored (state ${JSON.stringify(saved)})`);
      panel.dispose();
      return;
    }
    this.adopt(panel, state);
  }

  private remembered(): LockQueuePanelState[] {
    return (this.memento.get<unknown[]>(OPEN_PANELS_KEY) ?? []).filter(isPanelState);
  }

  private remember(): void {
    if (!this.shuttingDown) void this.memento.update(OPEN_PANELS_KEY, [...this.panels.values()].map((p) => p.state));
  }

  private adopt(panel: vscode.WebviewPanel, state: LockQueuePanelState): LockQueuePanel {
    const lockPanel = new LockQueuePanel(panel, state, {
      extensionUri: this.extensionUri, connections: this.connections, store: this.store, createMonitor: this.createMonitor,
      ourSessions: (id) => this.ourSessions(id),
    });
    this.panels.set(lockPanel.key, lockPanel);
    this.remember();
    lockPanel.onDidClose(() => {
      if (this.panels.get(lockPanel.key) === lockPanel) this.panels.delete(lockPanel.key);
      this.remember();
    });
    return lockPanel;
  }

  dispose(): void {
    // The window is closing or reloading: the open panels stay remembered for the serializer.
    this.shuttingDown = true;
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
  }
}
