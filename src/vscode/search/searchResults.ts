// The "Search Results" view: the matches of the last search as they stream in, each revealing its node in the
// explorer when selected.
import * as vscode from 'vscode';
import type { SearchMatch, SearchSummary } from '../../zk/search/search';
import { highlightedSnippet, relativeToRoot, sortedByPath } from '../../zk/search/resultOrder';
import { literalTreeItem, tooltipLines } from '../common/literalTreeItem';
import { Command } from '../core/commandIds';

const t = vscode.l10n.t;
const REDRAW_MS = 150;

export interface SearchRun {
  connectionId: string;
  connectionName: string;
  root: string;
  description: string;
  matches: SearchMatch[];
  visited: number;
  summary?: SearchSummary;
}

export type SearchItem = { kind: 'summary'; run: SearchRun } | { kind: 'match'; run: SearchRun; match: SearchMatch }
  | { kind: 'snippet'; run: SearchRun; match: SearchMatch };

export class SearchResultsProvider implements vscode.TreeDataProvider<SearchItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SearchItem | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private current: SearchRun | undefined;
  private timer: NodeJS.Timeout | undefined;

  get run(): SearchRun | undefined {
    return this.current;
  }

  start(run: SearchRun): void {
    this.current = run;
    void vscode.commands.executeCommand('setContext', 'zooscope.hasSearchResults', true);
    this.redrawNow();
  }

  /** Something changed in the current run (a match, progress): redraw soon, not per match. */
  redraw(): void {
    this.timer ??= setTimeout(() => this.redrawNow(), REDRAW_MS);
  }

  redrawNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.changed.fire(undefined);
  }

  clear(): void {
    this.current = undefined;
    void vscode.commands.executeCommand('setContext', 'zooscope.hasSearchResults', false);
    this.redrawNow();
  }

  getChildren(item?: SearchItem): SearchItem[] {
    const run = this.current;
    // A data match's child: the matched part of the data, highlighted, as VS Code's search view shows a line.
    if (item) return item.kind === 'match' && item.match.content ? [{ kind: 'snippet', run: item.run, match: item.match }] : [];
    if (!run) return [];
    // Natural order by path, whatever order the pipelined crawl found them in.
    return [{ kind: 'summary', run }, ...sortedByPath(run.matches).map((match): SearchItem => ({ kind: 'match', run, match }))];
  }

  getTreeItem(item: SearchItem): vscode.TreeItem {
    return literalTreeItem(this.buildTreeItem(item));
  }

  private buildTreeItem(item: SearchItem): vscode.TreeItem {
    if (item.kind === 'summary') return summaryItem(item.run);
    const { match, run } = item;
    const reveal = { command: Command.goToPath, title: t('Reveal in Explorer'), arguments: [{ connectionId: run.connectionId, path: match.path }] };
    if (item.kind === 'snippet' && match.content) {
      const { text, highlight } = highlightedSnippet(match.content);
      const line = new vscode.TreeItem({ label: text, highlights: [highlight] });
      line.id = `snippet:${run.connectionId}:${match.path}`;
      line.tooltip = match.content.snippet;
      line.command = reveal;
      line.contextValue = 'searchSnippet';
      line.accessibilityInformation = { label: text };
      return line;
    }
    // The path relative to the search root: two settings.json in different places read differently.
    const tree = new vscode.TreeItem(relativeToRoot(run.root, match.path),
      match.content ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    tree.id = `hit:${run.connectionId}:${match.path}`;
    if (match.content) tooltipLines(tree, [match.path, '', match.content.snippet]);
    else tree.tooltip = match.path;
    tree.iconPath = new vscode.ThemeIcon(match.content ? 'search' : 'symbol-file');
    tree.contextValue = 'searchMatch';
    tree.command = reveal;
    tree.accessibilityInformation = { label: match.path };
    return tree;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.changed.dispose();
  }
}

function summaryItem(run: SearchRun): vscode.TreeItem {
  const s = run.summary;
  const label = !s ? t('Searching {0} on {1}… {2} matches in {3} nodes', run.root, run.connectionName, run.matches.length, run.visited)
    : s.cancelled ? t('Search cancelled: {0} matches in {1} nodes under {2}', s.matched, s.visited, run.root)
      : s.error ? t('Search stopped: {0} matches in {1} nodes under {2} ({3} {4}: {5})', s.matched, s.visited, run.root, s.error.operation, s.error.path, s.error.code)
        : s.truncated ? t('{0} matches (the first ones) in {1} nodes under {2}', s.matched, s.visited, run.root)
          : s.matched === 1 ? t('1 match in {0} nodes under {1}', s.visited, run.root)
            : t('{0} matches in {1} nodes under {2}', s.matched, s.visited, run.root);
  const item = new vscode.TreeItem(label);
  item.id = `summary:${run.connectionId}:${run.root}:${run.description}`;
  item.description = run.description;
  const notes = [run.connectionName, run.description];
  if (s?.unreadableCount) {
    const paths = s.unreadable.slice(0, 5).map((u) => u.path).join(', ');
    notes.push(s.unreadableCount === 1 ? t('1 node could not be read (no permission): {0}', paths) : t('{0} nodes could not be read (no permission): {1}', s.unreadableCount, paths));
  }
  tooltipLines(item, notes);
  item.iconPath = new vscode.ThemeIcon(!s ? 'loading~spin' : s.cancelled || s.error ? 'warning' : 'info');
  item.contextValue = 'searchSummary';
  return item;
}
