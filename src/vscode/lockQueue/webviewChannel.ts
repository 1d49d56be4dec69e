// The lock-queue panel's line to its webview. Posts only once the webview said `ready` (a hidden webview is torn
// down, there is no retainContextWhenHidden, and it says `ready` again when shown), sends each model as what changed
// since the one this webview holds (src/shared/lockQueueSync.ts), and answers the webview's action requests by their
// ids. Every message, both ways, is also told to listeners: the webview's `rendered` reports say what it shows.
import * as vscode from 'vscode';
import type { ActionRequest, AnomalyText, HistoryWindow, HostMessage, WebviewMessage } from '../../shared/lockQueueMessages';
import { ModelSender } from '../../shared/lockQueueSync';
import type { LockAnalysis } from '../../shared/lockAnalysis';
import { log } from '../common/log';
import { checkWebviewMessage } from './webviewMessageCheck';

/** What the channel asks of its panel. */
export interface ChannelOwner {
  /** A new webview (first show, shown again, a reload) said `ready`: it holds nothing yet, not even its strings. */
  greet(): void;
  /** The webview lost step with the models (`resync`): send the latest again; it goes whole. */
  resend(): void;
  /** An action the webview asks for; the result goes back as the `reply` to its request id. */
  perform(request: ActionRequest): Promise<{ ok: boolean; message?: string }>;
  /** The history's figures wanted over `window` (or the whole history). */
  figuresWindow?(window: HistoryWindow | undefined): void;
}

export class WebviewChannel implements vscode.Disposable {
  private ready = false;
  private closed = false;
  /** What this webview was last sent: the next model goes as a delta from it. */
  private readonly sender = new ModelSender();
  private readonly received = new vscode.EventEmitter<WebviewMessage>();
  private readonly posted = new vscode.EventEmitter<HostMessage>();
  private readonly subscriptions: vscode.Disposable[];
  /** Every message from the webview, as it arrives. */
  readonly onDidReceive = this.received.event;
  /** Every message posted to the webview (those dropped because it was not ready are not). */
  readonly onDidPost = this.posted.event;

  constructor(private readonly panel: vscode.WebviewPanel, private readonly owner: ChannelOwner) {
    this.subscriptions = [
      // Subscribed before the panel's own view-state listener: by then nothing more goes to the old webview.
      panel.onDidChangeViewState(() => { if (!panel.visible) this.lost(); }),
      panel.webview.onDidReceiveMessage((m: unknown) => this.handle(m)),
    ];
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Sends a message to the webview, once it said it is ready; dropped before. */
  post(message: HostMessage): void {
    if (!this.ready || this.closed) return;
    void this.panel.webview.postMessage(message);
    this.posted.fire(message);
  }

  /** Sends `analysis` (a delta if the webview holds the model last sent). `texts` is only asked for when it goes. */
  sendModel(analysis: LockAnalysis, texts: () => Record<string, AnomalyText>): void {
    // Not sent, not remembered as sent: the webview that says `ready` next gets the whole model.
    if (!this.ready || this.closed) return;
    this.post(this.sender.next(analysis, texts()));
  }

  private lost(): void {
    this.ready = false;
    this.sender.forget();
  }

  /**
   * A message as the webview posted it: checked field by field first; one that fails is logged and ignored, and
   * nothing here throws (a failed action is answered as not done).
   */
  async handle(raw: unknown): Promise<void> {
    const checked = checkWebviewMessage(raw);
    if (!checked.ok) {
      log().warn(`lock-queue webview: message ignored (${checked.problem})`);
      return;
    }
    try {
      await this.receive(checked.value);
    } catch (error) {
      log().error(`lock-queue webview: ${checked.value.type} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async receive(message: WebviewMessage): Promise<void> {
    if (this.closed) return;
    this.received.fire(message);
    switch (message.type) {
      case 'ready':
        // It holds no model of ours: the next one goes whole.
        this.ready = true;
        this.sender.forget();
        this.owner.greet();
        return;
      case 'resync':
        this.sender.forget();
        this.owner.resend();
        return;
      case 'rendered':
        // Nothing to do here: what it shows is for the listeners.
        return;
      case 'error':
        log().error(`lock-queue webview: ${message.message}`);
        return;
      case 'figuresWindow':
        this.owner.figuresWindow?.(message.window);
        return;
      default: {
        const result = await this.owner.perform(message);
        this.post({ type: 'reply', requestId: message.requestId, ok: result.ok, message: result.message });
      }
    }
  }

  dispose(): void {
    this.closed = true;
    this.subscriptions.forEach((s) => s.dispose());
    this.received.dispose();
    this.posted.dispose();
  }
}
