// All open lock-queue panels, one per connection + root + mode: opening the same one again reveals it. Also the
// serializer that brings panels back after a window reload: from the state their webview saved, or, when the
// workbench restored the panel without it (seen in code-server after a reload), from the list of open panels this
// class keeps in the workspace state, matched by the panel's title.
import * as vscode from 'vscode';
import type { LockQueuePanelState } from '../../shared/lockQueueMessages';
import type { Core } from '../core/core';
import type { HeldLocksApi } from '../heldLocks';
import { log } from '../common/log';
import { isPanelState, LOCK_QUEUE_VIEW_TYPE, LockQueuePanel, panelKey, panelTitle } from './lockQueuePanel';

const OPEN_PANELS_KEY = 'zooscope.lockPanels';

export class LockPanels implements vscode.Disposable, vscode.WebviewPanelSerializer<unknown> {
  private readonly panels = new Map<string, LockQueuePanel>();
  private shuttingDown = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** Workspace state: the panels open in this window, for the serializer. */
    private readonly memento: vscode.Memento,
    private readonly core: Core,
    private readonly heldLocks: HeldLocksApi,
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
    if (!state || !this.core.store.get(state.connectionId) || this.panels.has(panelKey(state))) {
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
      extensionUri: this.extensionUri, core: this.core, heldLocks: this.heldLocks,
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
