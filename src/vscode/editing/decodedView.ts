// "Open Data As → Decoded": a read-only document of what the node means to the system that wrote it
// (src/zk/meaning), refreshed when the node changes; the bytes stay one click away (Open Data as Hex/Text).
import * as vscode from 'vscode';
import { decodeMeaning, Meaning, MeaningContext, readMeaningContext, sessionContextRead } from '../../zk/meaning';
import { fieldLines, meaningHeading } from '../../zk/meaning/meaningText';
import { HeldWatches } from '../../zk/heldWatches';
import type { ConnectionManager } from '../core/connectionManager';
import type { Core } from '../core/core';
import { nodeTargetOrAsk } from '../core/targets';
import { describeError } from '../common/failureTexts';
import { visiblePath, znodePathOf } from '../common/znodeUriPath';

export const DECODED_SCHEME = 'zooscope-decoded';
const t = vscode.l10n.t;

export function decodedUri(connectionId: string, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DECODED_SCHEME, authority: Buffer.from(connectionId).toString('hex'), path: visiblePath(path), query: 'decoded' });
}

export function renderDecoded(path: string, meaning: Meaning | undefined): string {
  if (!meaning) return `${path}\n\n${t('No known system (Kafka, ClickHouse, Patroni, HBase, Hadoop HA, Solr, Dubbo, Curator discovery) recognises this node.')}\n`;
  const lines = [path, '', `── ${meaningHeading(meaning)} ──`];
  if (meaning.raw) lines.push(t('Not decoded: {0}', meaning.raw.reason));
  else lines.push(meaning.summary, ...(meaning.election ? [t('Election: {0}', meaning.election)] : []), '', ...fieldLines(meaning.fields));
  lines.push('', t('The raw bytes: Open Data As → Text or Hex.'));
  return lines.join('\n') + '\n';
}

export class DecodedViewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly watches = new HeldWatches();
  private readonly subscription: vscode.Disposable;

  /** `remember`: the data just read, for the tree to show the meaning too. */
  constructor(private readonly connections: ConnectionManager,
    private readonly remember: (connectionId: string, path: string, mzxid: bigint, data: Buffer, context: MeaningContext) => void = () => undefined) {
    this.subscription = vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === DECODED_SCHEME) this.watches.release(doc.uri.toString());
    });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const connectionId = Buffer.from(uri.authority, 'hex').toString('utf8');
    const path = znodePathOf(uri.path);
    const live = this.connections.get(connectionId);
    if (!live) return t('Not connected.');
    void this.watches.hold(uri.toString(), () => live.session.watches.watch(path, () => this.changed.fire(uri)));
    try {
      // With the related nodes the meaning uses (a Patroni member's lag: the leader's status), each read once.
      const [{ data, stat }, context] = await Promise.all([live.session.getData(path), readMeaningContext(path, sessionContextRead(live.session))]);
      this.remember(connectionId, path, stat.mzxid, data, context);
      return renderDecoded(path, decodeMeaning(path, data, t, context));
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

export async function openDataDecoded(core: Core, arg?: unknown): Promise<vscode.TextDocument | undefined> {
  const target = await nodeTargetOrAsk(core, arg, t('Open Data as Decoded'));
  if (!target) return undefined;
  const doc = await vscode.workspace.openTextDocument(decodedUri(target.connectionId, target.path));
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}
