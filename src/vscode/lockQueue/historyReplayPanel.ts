// A lock history opened from a recording file: the lock panel's webview in replay mode (only the timeline and the
// figures, read-only, no connection). Open intervals end where the recording's last record is. Not restored after
// a window reload (it registers no serializer): the file is opened again.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoadedRecording } from '../../zk/history';
import { panelHtml, webviewRoots } from './panelHtml';
import { PanelHistory } from './panelHistory';
import { WebviewChannel } from './webviewChannel';
import { webviewStrings } from './webviewTexts';

export const LOCK_HISTORY_VIEW_TYPE = 'zooscope.lockHistory';

const t = vscode.l10n.t;

export class HistoryReplayPanel implements vscode.Disposable {
  readonly channel: WebviewChannel;
  readonly history: PanelHistory;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  private disposed = false;

  /** `name`: what the panel is of (a recording file's name, or where a history from the servers' logs came from). */
  constructor(readonly panel: vscode.WebviewPanel, readonly file: string, loaded: LoadedRecording, extensionUri: vscode.Uri, private readonly name = path.basename(file)) {
    panel.title = t('Lock History {0}', name);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'zooscope.svg');
    panel.webview.options = { enableScripts: true, localResourceRoots: webviewRoots(extensionUri) };
    this.channel = new WebviewChannel(panel, {
      greet: () => this.greet(),
      resend: () => undefined,
      // Read-only: nothing in a replay acts on a server.
      perform: () => Promise.resolve({ ok: false }),
      figuresWindow: (window) => this.history.setFiguresWindow(window),
    });
    this.history = new PanelHistory((message) => this.channel.post(message), { history: loaded.history, live: false, now: () => loaded.lastAt });
    panel.webview.html = panelHtml(panel.webview, extensionUri, panel.title);
    this.subscriptions.push(this.channel, this.history, panel.onDidDispose(() => this.dispose()));
  }

  private greet(): void {
    this.channel.post({
      type: 'init', state: { connectionId: '', root: '/', mode: 'queue' }, connectionName: '', strings: webviewStrings(),
      capabilities: { canAcquire: false, canRelease: false, canForceRelease: false }, replay: { file: this.name },
    });
    this.history.sendNow();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.subscriptions.forEach((s) => s.dispose());
    this.closed.fire();
    this.closed.dispose();
    this.panel.dispose();
  }
}
