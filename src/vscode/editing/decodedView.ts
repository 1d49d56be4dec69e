// "Open Data As → Decoded": a read-only document of what the node means to the system that wrote it
// (src/zk/decoders), refreshed when the node changes; the bytes stay one click away (Open Data as Hex/Text).
import * as vscode from 'vscode';
import { decodeNode, Decoded, DecodeContext, readDecodeContext, sessionContextRead } from '../../zk/decoders';
import { decodedLines } from '../../zk/decoders/decodedText';
import { visibleText } from '../../shared/visibleText';
import { LiveNodeDocuments, nodeDocumentUri } from '../core/liveNodeDocuments';
import type { ConnectionManager, LiveConnection } from '../core/connectionManager';
import type { Core } from '../core/core';
import { nodeTargetOrAsk } from '../core/targets';

export const DECODED_SCHEME = 'zooscope-decoded';
const t = vscode.l10n.t;

export function decodedUri(connectionId: string, path: string): vscode.Uri {
  return nodeDocumentUri(DECODED_SCHEME, 'decoded', connectionId, path);
}

export function renderDecoded(path: string, decoded: Decoded | undefined): string {
  if (!decoded) return `${visibleText(path)}\n\n${t('No known system (Kafka, ClickHouse, Patroni, HBase, Hadoop HA, Solr, Dubbo, Curator discovery) recognises this node.')}\n`;
  // The meaning's text is made visible by meaningLines, the one renderer of decoded fields.
  return [visibleText(path), '', ...decodedLines(decoded, t), '', t('The raw bytes: Open Data As → Text or Hex.')].join('\n') + '\n';
}

export class DecodedViewProvider extends LiveNodeDocuments {
  /** `remember`: the data just read, for the tree to show the meaning too. */
  constructor(connections: ConnectionManager,
    private readonly remember: (connectionId: string, path: string, mzxid: bigint, data: Buffer, context: DecodeContext) => void = () => undefined) {
    super(connections, DECODED_SCHEME);
  }

  protected async render(live: LiveConnection, connectionId: string, path: string): Promise<string> {
    // With the related nodes the meaning uses (a Patroni member's lag: the leader's status), each read once.
    const [{ data, stat }, context] = await Promise.all([live.session.getData(path), readDecodeContext(path, sessionContextRead(live.session))]);
    this.remember(connectionId, path, stat.mzxid, data, context);
    return renderDecoded(path, decodeNode(path, data, t, context));
  }
}

export async function openDataDecoded(core: Core, arg?: unknown): Promise<vscode.TextDocument | undefined> {
  const target = await nodeTargetOrAsk(core, arg, t('Open Data as Decoded'));
  if (!target) return undefined;
  const doc = await vscode.workspace.openTextDocument(decodedUri(target.connectionId, target.path));
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}
