// Read-only report documents (what a delete, import or export did), kept in memory for the window's lifetime.
import * as vscode from 'vscode';
import { linkSafe, shown } from './untrustedText';

export const REPORT_SCHEME = 'zooscope-report';
const KEPT = 50;

export class ReportDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private count = 0;

  /** Opens `text` (Markdown) as a read-only document titled `title`. */
  async show(title: string, text: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${++this.count}/${shown(title).replace(/[/\\]/g, '\u2215')}.md` });
    this.texts.set(uri.toString(), text);
    if (this.texts.size > KEPT) this.texts.delete(this.texts.keys().next().value as string);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t('This report is no longer available.');
  }
}

/**
 * A line of a report with values in it (paths, connection names, ACL ids): hidden characters written out, so a line
 * break or a U+202E in a value cannot start or reverse a line, and `[x](command:…)` made no link.
 */
export const reportLine = linkSafe;

/** Up to `max` lines of a list (each a reportLine), then how many more there were. */
export function listLines(items: readonly string[], max = 1000): string[] {
  const lines = items.slice(0, max).map((item) => `- ${reportLine(item)}`);
  if (items.length > max) lines.push(`- ${vscode.l10n.t('… and {0} more', items.length - max)}`);
  return lines;
}
