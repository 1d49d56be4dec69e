// The two sides of a data difference as read-only documents, decoded as the data editor decodes them (text when the
// bytes are text, else hex), for VS Code's diff editor: two subtrees' versions of a node (Compare With…), or two
// versions of one node from the servers' logs. The URI holds numbers only; the node's name goes in the diff
// editor's title, made visible.
import * as vscode from 'vscode';
import { defaultView, encodeView } from './dataCodec';
import { shown } from './untrustedText';

const KEPT = 200;

/** The document text of one side's bytes (null: no data, an empty document). */
export function decodedSide(data: Buffer | null, view = defaultView(data ?? Buffer.alloc(0))): string {
  return data === null ? '' : encodeView(data, view).toString(view === 'text' ? 'utf8' : 'latin1');
}

export class SideDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private count = 0;

  /** `scheme`: the one this provider is registered for. */
  constructor(readonly scheme: string) {}

  /** Opens the diff editor on the two sides. */
  async showDiff(path: string, left: Buffer | null, right: Buffer | null, leftLabel: string, rightLabel: string): Promise<void> {
    // One view for both sides: when either is binary, both are shown as hex so their lines line up.
    const view = defaultView(left ?? Buffer.alloc(0)) === 'text' && defaultView(right ?? Buffer.alloc(0)) === 'text' ? 'text' : 'hex';
    const id = ++this.count;
    const uri = (side: string, data: Buffer | null) => {
      const u = vscode.Uri.from({ scheme: this.scheme, path: `/${id}/${side}` });
      this.texts.set(u.toString(), decodedSide(data, view));
      return u;
    };
    const l = uri('left', left);
    const r = uri('right', right);
    while (this.texts.size > KEPT) this.texts.delete(this.texts.keys().next().value as string);
    const title = vscode.l10n.t('{0} ({1} ↔ {2})', shown(path), shown(leftLabel), shown(rightLabel));
    await vscode.commands.executeCommand('vscode.diff', l, r, title, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t('This comparison is no longer available.');
  }
}
