// Every tree item of every ZooScope view passes through here on its way to VS Code, so no view can forget that
// labels, descriptions and tooltips carry names and data from ZooKeeper: hidden and direction-changing characters
// are written out as [U+XXXX] (in Markdown tooltips too). Our own words contain none, so the whole item is treated.
import * as vscode from 'vscode';
import { hasHiddenCharacters, visibleText } from '../../shared/visibleText';
import { shown, shownLines } from './untrustedText';

function literalMarkdown(md: vscode.MarkdownString): vscode.MarkdownString {
  if (!hasHiddenCharacters(md.value.replace(/[\r\n\t]/g, ''))) return md;
  // `\[U+202E\]`: brackets escaped so Markdown shows them as written.
  // Line breaks and tabs are the Markdown's own structure; our escaping already turned those of names into spaces.
  const value = md.value.split(/(\r?\n|\t)/).map((part, i) => (i % 2 ? part : visibleText(part))).join('');
  const copy = new vscode.MarkdownString(value.replace(/\[(U\+[0-9A-F]{4,6})\]/g, '\\[$1\\]'), md.supportThemeIcons);
  copy.isTrusted = md.isTrusted;
  copy.supportHtml = md.supportHtml;
  return copy;
}

// Plain tooltips set through tooltipLines, by item: already made visible line by line, so not treated again.
const tooltipsOfLines = new WeakMap<vscode.TreeItem, string>();

/** Gives the item a plain tooltip of several lines of our own making (see shownLines). */
export function tooltipLines(item: vscode.TreeItem, lines: readonly string[]): void {
  const text = shownLines(lines);
  item.tooltip = text;
  tooltipsOfLines.set(item, text);
}

export function literalTreeItem<T extends vscode.TreeItem>(item: T): T {
  if (typeof item.label === 'string') item.label = shown(item.label);
  else if (item.label) item.label = { ...item.label, label: shown(item.label.label) };
  if (typeof item.description === 'string') item.description = shown(item.description);
  // A string tooltip is one value unless tooltipLines made it: a line break in it is the value's, written out.
  if (typeof item.tooltip === 'string') item.tooltip = tooltipsOfLines.get(item) === item.tooltip ? item.tooltip : shown(item.tooltip);
  else if (item.tooltip) item.tooltip = literalMarkdown(item.tooltip);
  if (item.accessibilityInformation) item.accessibilityInformation = { ...item.accessibilityInformation, label: shown(item.accessibilityInformation.label) };
  return item;
}
