import * as vscode from 'vscode';

/** 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return vscode.l10n.t('{0} B', bytes);
  if (bytes < 1024 * 1024) return vscode.l10n.t('{0} KB', (bytes / 1024).toFixed(bytes < 10240 ? 1 : 0));
  return vscode.l10n.t('{0} MB', (bytes / 1024 / 1024).toFixed(1));
}

/** Escapes text from ZooKeeper (names, data) for a MarkdownString, table cells included. */
export { markdownSafe as escapeMarkdown } from './untrustedText';

export function formatTime(ms: number): string {
  if (ms === 0) return '0';
  const date = new Date(ms);
  return `${date.toLocaleString()} (${date.toISOString()})`;
}
