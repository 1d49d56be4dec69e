// A lock taken by hand must not outlive the person who can see it. In a remote window (code-server, a browser tab,
// Remote-SSH) closing the tab leaves this extension host running for the server's reconnection grace, often hours,
// with every lock still held and no event to say the window is gone. While this window holds locks, a tiny request
// to the window (setContext) is sent every few seconds; a window that is gone answers none until it reconnects.
// When none has been answered for the chosen time, the locks are released and the window is told when it is back.
import * as vscode from 'vscode';
import { log } from '../common/log';

/** How often the window is asked while locks are held. */
const PROBE_EVERY_MS = 5000;

export interface WindowPresenceOptions {
  /** Milliseconds without an answer after which the window counts as gone; 0: never. Read at each probe. */
  graceMs(): number;
  /** Whether anything is held now: the window is asked only then. */
  holding(): boolean;
  /** The window has been gone for graceMs: release. Called once per absence. */
  onGone(silentForMs: number): void;
  /** The window answers again after onGone. */
  onBack(): void;
}

export class WindowPresence implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  /** When the oldest unanswered probe was sent; undefined while the window answers. */
  private unansweredSince: number | undefined;
  private gone = false;
  private probe = 0;

  constructor(private readonly options: WindowPresenceOptions) {
    this.timer = setInterval(() => this.tick(), PROBE_EVERY_MS);
    this.timer.unref?.();
  }

  private tick(): void {
    if (!this.options.holding() && !this.gone) {
      this.unansweredSince = undefined;
      return;
    }
    const now = Date.now();
    const grace = this.options.graceMs();
    if (this.unansweredSince !== undefined) {
      if (!this.gone && grace > 0 && now - this.unansweredSince >= grace) {
        this.gone = true;
        log().warn(`the window has answered nothing for ${Math.round((now - this.unansweredSince) / 1000)} s: it counts as closed`);
        this.options.onGone(now - this.unansweredSince);
      }
      return; // one probe in flight at a time: its answer ends the silence
    }
    this.unansweredSince = now;
    const sent = ++this.probe;
    void Promise.resolve(vscode.commands.executeCommand('setContext', 'zooscope.windowProbe', sent)).then(() => this.answered(), () => this.answered());
  }

  private answered(): void {
    this.unansweredSince = undefined;
    if (this.gone) {
      this.gone = false;
      log().info('the window answers again');
      this.options.onBack();
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Only windows whose extension host can outlive them: a local window's host ends with the window. */
export function windowCanOutliveHost(): boolean {
  return vscode.env.remoteName !== undefined || vscode.env.uiKind === vscode.UIKind.Web;
}
