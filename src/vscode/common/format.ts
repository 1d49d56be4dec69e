import * as vscode from 'vscode';
import { formatNumberIn, formatTimeIn } from './localeFormat';

/** 1536 → "1.5 KB" (digits in the UI language). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return vscode.l10n.t('{0} B', formatNumber(bytes));
  if (bytes < 1024 * 1024) return vscode.l10n.t('{0} KB', formatNumber(bytes / 1024, bytes < 10240 ? 1 : 0));
  return vscode.l10n.t('{0} MB', formatNumber(bytes / 1024 / 1024, 1));
}

/** A number in the UI language (`vscode.env.language`). */
export function formatNumber(value: number, fractionDigits = 0): string {
  return formatNumberIn(vscode.env.language, value, fractionDigits);
}

/** Escapes text from ZooKeeper (names, data) for a MarkdownString, table cells included. */
export { markdownSafe as escapeMarkdown } from './untrustedText';

/** A ZooKeeper time in the UI language (`vscode.env.language`), then its ISO form. */
export function formatTime(ms: number): string {
  return formatTimeIn(vscode.env.language, ms);
}
