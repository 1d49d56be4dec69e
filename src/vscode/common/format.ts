import * as vscode from 'vscode';
import { formatBytesWith } from '../../zk/tree/znodePresentation';
import { formatNumberIn, formatTimeIn } from './localeFormat';

/** 1536 → "1.5 KB" (digits in the UI language). */
export function formatBytes(bytes: number): string {
  return formatBytesWith(vscode.l10n.t, bytes, formatNumber);
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
