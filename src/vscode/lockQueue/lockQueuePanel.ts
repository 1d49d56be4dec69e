// One lock-queue panel: runs a LockMonitor on its connection while the panel is visible (watches for queue
// changes, server watch tables at the poll interval), sends each analysis to the webview through its channel
// (webviewChannel.ts), and carries out what the webview asks for. Hidden panels poll nothing; their webview is
// rebuilt from the latest model when shown.
import * as vscode from 'vscode';
import { ActionRequest, LOCK_QUEUE_VIEW_TYPE, LockQueuePanelState, PanelCapabilities, PanelStatus } from '../../shared/lockQueueMessages';
import type { LockAnalysis } from '../../shared/lockAnalysis';
import type { ZkSession } from '../../zk/session/session';
import { LockMonitor } from '../../zk/analysis';
import type { Core } from '../core/core';
import type { HeldLocksApi } from '../heldLocks';
import { log } from '../common/log';
import { describeError } from '../common/failureTexts';
import { acquireHere, ActionResult, forceRelease, releaseOurs, revealNode } from './lockActions';
import { shownHolder, shownOurs, shownPath, shownQueue } from './shownAnalysis';
import { checkActionRequest } from './webviewMessageCheck';
import { adminPortOf, affectsLockSettings, lockSettings } from '../core/settings';
import { panelHtml, webviewRoots } from './panelHtml';
import { anomalyTexts, webviewStrings } from './webviewTexts';
import { fail } from '../common/notifier';
import { WebviewChannel } from './webviewChannel';
import { PanelHistory } from './panelHistory';

const t = vscode.l10n.t;

export interface PanelDeps {
  extensionUri: vscode.Uri;
  core: Core;
  /** This window's hand-held locks: the panel's Acquire and Release go there, and their sessions are "ours". */
  heldLocks: HeldLocksApi;
}

export function panelTitle(state: LockQueuePanelState): string {
  return state.mode === 'queue' ? t('Lock Queue {0}', state.root) : t('Locks under {0}', state.root);
}

export class LockQueuePanel implements vscode.Disposable {
  private monitor: { monitor: LockMonitor; session: ZkSession; stop: () => void } | undefined;
  private latest: LockAnalysis | undefined;
  private status: { status: PanelStatus; message?: string } = { status: 'loading' };
  private readonly subscriptions: vscode.Disposable[] = [];
  private disposed = false;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  /** Every message to and from the webview goes through here. */
  readonly channel: WebviewChannel;
  /** What the monitor saw while this panel was open (a gap while it was hidden): the timeline and figures. */
  readonly history: PanelHistory;

  constructor(readonly panel: vscode.WebviewPanel, readonly state: LockQueuePanelState, private readonly deps: PanelDeps) {
    panel.title = panelTitle(state);
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'zooscope.svg');
    panel.webview.options = { enableScripts: true, localResourceRoots: webviewRoots(deps.extensionUri) };
    this.channel = new WebviewChannel(panel, {
      greet: () => this.sendInit(),
      resend: () => { if (this.latest) this.sendModel(this.latest); },
      perform: (request) => this.perform(request),
      figuresWindow: (window) => this.history.setFiguresWindow(window),
    });
    this.history = new PanelHistory((message) => this.channel.post(message), { live: true });
    panel.webview.html = panelHtml(panel.webview, deps.extensionUri, panel.title);
    this.subscriptions.push(
      this.channel,
      this.history,
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => this.updateRunning()),
      deps.core.connections.onDidChange((id) => { if (id === state.connectionId) this.updateRunning(); }),
      deps.core.connections.onDidRenewSession((id) => { if (id === state.connectionId) this.restart(); }),
      vscode.workspace.onDidChangeConfiguration((e) => { if (affectsLockSettings(e)) this.restart(); }),
    );
    this.updateRunning();
    if (!deps.core.connections.get(state.connectionId)) void deps.core.connections.connect(state.connectionId);
  }

  get key(): string {
    return panelKey(this.state);
  }

  get analysis(): LockAnalysis | undefined {
    return this.latest;
  }

  get isMonitoring(): boolean {
    return this.monitor !== undefined;
  }

  /** Analyses again now. */
  async refresh(): Promise<void> {
    await this.monitor?.monitor.refresh();
  }

  reveal(): void {
    this.panel.reveal();
  }

  /**
   * Carries out what the webview asked for (tests call it as the webview would), and says why it failed. Only on
   * what this panel shows: a request is checked field by field, and its path must be of the analysis on screen.
   */
  async perform(request: ActionRequest): Promise<ActionResult> {
    const checked = checkActionRequest(request);
    if (!checked.ok) {
      log().warn(`lock panel ${this.state.root}: request ignored (${checked.problem})`);
      return { ok: false };
    }
    request = checked.value;
    const result = await this.act(request).catch((error: unknown): ActionResult => ({ ok: false, message: describeError(error) }));
    log().info(`lock panel ${this.state.root}: ${JSON.stringify(request)} → ${result.ok ? 'ok' : `not done${result.message ? `: ${result.message}` : ''}`}`);
    if (result.message && !result.ok) void fail(result.message);
    // Acquiring may have opened this window's lock session: start over so its nodes count as ours.
    if (result.ok && (request.type === 'acquire' || request.type === 'release')) this.restart();
    else if (result.ok && request.type === 'forceRelease') await this.refresh();
    return result;
  }

  private async act(request: ActionRequest): Promise<ActionResult> {
    const id = this.state.connectionId;
    const shown = this.latest;
    switch (request.type) {
      case 'reveal':
        return shownPath(shown, request.path) ? revealNode(this.deps.core, id, request.path) : { ok: false };
      case 'acquire':
        // A "Show Lock Queue" panel is about its root even before anyone queues there.
        return shownQueue(shown, request.queuePath) || (this.state.mode === 'queue' && request.queuePath === this.state.root) ? acquireHere(this.deps.heldLocks, id, request.queuePath)
          : { ok: false, message: t('{0} is not a lock this panel shows: nothing was done.', request.queuePath) };
      case 'release':
        return shownOurs(shown, request.path) ? releaseOurs(this.deps.heldLocks, id, request.path)
          : { ok: false, message: t('{0} is not a node of this window that this panel shows: nothing was released.', request.path) };
      case 'forceRelease': {
        const holder = shownHolder(shown, request.path);
        return holder ? forceRelease(this.deps.core.connections, id, request.path, holder)
          : { ok: false, message: t('{0} is not a holder this panel shows: nothing was deleted.', request.path) };
      }
      case 'refresh':
        await this.refresh();
        return { ok: true };
    }
  }

  private capabilities(): PanelCapabilities {
    const writable = !this.deps.core.store.get(this.state.connectionId)?.readOnly;
    return { canAcquire: writable, canRelease: true, canForceRelease: writable };
  }

  private sendInit(): void {
    const saved = this.deps.core.store.get(this.state.connectionId);
    this.channel.post({
      type: 'init', state: this.state, connectionName: saved?.name ?? this.state.connectionId,
      strings: webviewStrings(), capabilities: this.capabilities(),
    });
    this.channel.post({ type: 'status', ...this.status });
    if (this.latest) this.sendModel(this.latest);
    this.history.sendNow();
  }

  private sendModel(analysis: LockAnalysis): void {
    this.channel.sendModel(analysis, () => anomalyTexts(analysis));
  }

  private setStatus(status: PanelStatus, message?: string): void {
    this.status = { status, message };
    this.channel.post({ type: 'status', status, message });
  }

  /** Runs the monitor exactly while the panel is visible and its connection is live. */
  private updateRunning(): void {
    if (this.disposed) return;
    const live = this.deps.core.connections.get(this.state.connectionId);
    const session = live?.session.isLive ? live.session : undefined;
    if (this.monitor && (!this.panel.visible || this.monitor.session !== session)) this.stopMonitor();
    if (!session) {
      this.setStatus(this.deps.core.connections.state(this.state.connectionId) === 'connecting' ? 'loading' : 'disconnected');
      return;
    }
    if (!this.panel.visible || this.monitor) return;
    this.startMonitor(session, [session.sessionId ?? '', ...this.deps.heldLocks.sessionIds(this.state.connectionId)].filter(Boolean));
  }

  private startMonitor(session: ZkSession, ourSessions: string[]): void {
    const settings = lockSettings();
    const monitor = new LockMonitor(session, this.state.root, {
      heldTooLongMs: settings.heldTooLongMs, ourSessions, serverWatches: true,
      adminPort: adminPortOf(this.deps.core.store.get(this.state.connectionId)),
      maxQueues: this.state.mode === 'queue' ? undefined : 500, pollIntervalMs: settings.pollIntervalMs,
    });
    const offUpdate = monitor.onUpdate((analysis) => {
      this.latest = analysis;
      const texts = anomalyTexts(analysis);
      this.history.noteAnomalies(analysis, (key) => texts[key]?.title ?? key);
      if (this.status.status !== 'live') this.setStatus('live');
      this.sendModel(analysis);
    });
    const offError = monitor.onError((error) => {
      log().warn(`lock queue ${this.state.root}: ${error.message}`);
      this.setStatus('error', describeError(error));
    });
    const unfollow = this.history.follow(session, monitor);
    this.monitor = { monitor, session, stop: () => { offUpdate(); offError(); unfollow(); monitor.dispose(); } };
    this.setStatus(this.latest ? 'live' : 'loading');
    monitor.start();
  }

  private stopMonitor(): void {
    this.monitor?.stop();
    this.monitor = undefined;
  }

  private restart(): void {
    this.stopMonitor();
    this.updateRunning();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stopMonitor();
    this.subscriptions.forEach((s) => s.dispose());
    this.closed.fire();
    this.closed.dispose();
    this.panel.dispose();
  }
}

export function panelKey(state: LockQueuePanelState): string {
  return `${state.connectionId}\n${state.mode}\n${state.root}`;
}

export function isPanelState(value: unknown): value is LockQueuePanelState {
  const v = value as Partial<LockQueuePanelState> | undefined;
  return typeof v?.connectionId === 'string' && typeof v.root === 'string' && v.root.startsWith('/') && (v.mode === 'queue' || v.mode === 'subtree');
}

export { LOCK_QUEUE_VIEW_TYPE };
