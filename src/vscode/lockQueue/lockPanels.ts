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
import type { LoadedRecording } from '../../zk/history';
import { HistoryReplayPanel, LOCK_HISTORY_VIEW_TYPE } from './historyReplayPanel';
import type { PanelHistory } from './panelHistory';
import { pickItem } from '../common/quickInput';

const OPEN_PANELS_KEY = 'zooscope.lockPanels';

export class LockPanels implements vscode.Disposable, vscode.WebviewPanelSerializer<unknown> {
  private readonly panels = new Map<string, LockQueuePanel>();
  private readonly replays = new Set<HistoryReplayPanel>();
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

  /** A recording opened as a replay timeline. */
  showReplay(file: string, loaded: LoadedRecording, name?: string): HistoryReplayPanel {
    const panel = vscode.window.createWebviewPanel(LOCK_HISTORY_VIEW_TYPE, name ?? file, vscode.ViewColumn.Active, { enableScripts: true });
    const replay = new HistoryReplayPanel(panel, file, loaded, this.extensionUri, name);
    this.replays.add(replay);
    replay.onDidClose(() => this.replays.delete(replay));
    return replay;
  }

  replayPanels(): HistoryReplayPanel[] {
    return [...this.replays];
  }

  /** The history to export: the active panel's, the only one open, or one the user picks. */
  async pickHistory(): Promise<{ history: PanelHistory; title: string } | undefined> {
    const all = [...this.panels.values(), ...this.replays].map((p) => ({ history: p.history, title: p.panel.title, active: p.panel.active }));
    const chosen = all.find((p) => p.active) ?? (all.length === 1 ? all[0] : undefined);
    if (chosen || all.length === 0) return chosen;
    const picked = await pickItem(all.map((p) => ({ label: p.title, entry: p })), { title: vscode.l10n.t('Which lock history?') });
    return picked?.entry;
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
    for (const replay of [...this.replays]) replay.dispose();
    this.replays.clear();
  }
}
