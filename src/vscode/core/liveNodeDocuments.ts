// Read-only documents about one node of one connection (Show Details, Open Data As → Decoded): each is read when
// opened and again whenever the node changes, through a watch held while the document is open. A subclass says
// only what the document holds.
import * as vscode from 'vscode';
import { HeldWatches } from '../../zk/session/heldWatches';
import type { ConnectionManager, LiveConnection } from './connectionManager';
import { describeError } from '../common/failureTexts';
import { visiblePath, znodePathOf } from '../common/znodeUriPath';

/** The document of `path` on `connectionId` under `scheme` (the id hex-encoded: ids may hold any character). */
export function nodeDocumentUri(scheme: string, query: string, connectionId: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme, authority: Buffer.from(connectionId).toString('hex'), path: visiblePath(path), query });
}

export abstract class LiveNodeDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly watches = new HeldWatches();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connections: ConnectionManager, scheme: string) {
    this.subscription = vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === scheme) this.watches.release(doc.uri.toString());
    });
  }

  /** The document's text, from reads made now. */
  protected abstract render(live: LiveConnection, connectionId: string, path: string): Promise<string>;

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const connectionId = Buffer.from(uri.authority, 'hex').toString('utf8');
    const path = znodePathOf(uri.path);
    const live = this.connections.get(connectionId);
    if (!live) return vscode.l10n.t('Not connected.');
    void this.watches.hold(uri.toString(), () => live.session.watches.watch(path, () => this.changed.fire(uri)));
    try {
      return await this.render(live, connectionId, path);
    } catch (error) {
      return describeError(error);
    }
  }

  dispose(): void {
    this.watches.releaseAll();
    this.subscription.dispose();
    this.changed.dispose();
  }
}
