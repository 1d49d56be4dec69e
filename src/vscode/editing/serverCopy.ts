// The server's current data of a znode as a read-only document, in the same view (text, hex, base64) as the
// user's document: the left side of "Compare with Server" when a save was refused because the node changed.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../core/connectionManager';
import { describeWriteFailure } from '../common/failureTexts';
import { writerOf } from '../core/liveWriter';
import { encodeView } from '../common/dataCodec';
import { parseLocation, queryFor, uriPathFor } from '../common/znodeUriPath';
import type { ZnodeLocation } from '../common/znodeUriPath';

export const SERVER_COPY_SCHEME = 'zooscope-server';

export function serverCopyUri(location: ZnodeLocation): vscode.Uri {
  // A fresh query each time: VS Code caches content per URI, and each compare must show what the server has now.
  const query = [queryFor(location.view), `at=${Date.now()}`].filter(Boolean).join('&');
  return vscode.Uri.from({ scheme: SERVER_COPY_SCHEME, path: uriPathFor(location.connectionId, location.path), query });
}

export class ServerCopies implements vscode.TextDocumentContentProvider {
  constructor(private readonly connections: ConnectionManager) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const location = parseLocation(uri.path, uri.query);
    const live = location && this.connections.get(location.connectionId);
    if (!location || !live) return vscode.l10n.t('The connection is not open.');
    const outcome = await writerOf(live).getData(location.path);
    if (!outcome.ok) return describeWriteFailure(outcome.failure);
    return Buffer.from(encodeView(outcome.data, location.view)).toString('utf8');
  }
}
