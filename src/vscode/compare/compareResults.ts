// The "Differences" view: the last comparison as a tree — a summary, then one group per kind of difference with
// its paths (relative to each side's root). A data difference opens both sides in the diff editor.
import * as vscode from 'vscode';
import type { CompareResult, Difference, DifferenceKind } from '../../zk/compare';
import { literalTreeItem, tooltipLines } from '../common/literalTreeItem';
import { Command } from '../core/commandIds';
import { KIND_ICON, kindLabel, limitText } from './compareTexts';

const t = vscode.l10n.t;
const KINDS: readonly DifferenceKind[] = ['onlyLeft', 'onlyRight', 'data', 'acl', 'mode', 'changed'];

export interface CompareRun {
  id: number;
  left: string;
  right: string;
  result: CompareResult;
}

export type CompareItem =
  | { kind: 'summary'; run: CompareRun }
  | { kind: 'group'; run: CompareRun; of: DifferenceKind; differences: Difference[] }
  | { kind: 'difference'; run: CompareRun; difference: Difference; index: number };

/** What the open-diff command receives from a data difference's row. */
export interface DiffTarget {
  run: number;
  index: number;
}

export class CompareResultsProvider implements vscode.TreeDataProvider<CompareItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CompareItem | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private current: CompareRun | undefined;
  private runs = 0;

  get run(): CompareRun | undefined {
    return this.current;
  }

  show(left: string, right: string, result: CompareResult): CompareRun {
    this.current = { id: ++this.runs, left, right, result };
    void vscode.commands.executeCommand('setContext', 'zooscope.hasCompareResults', true);
    this.changed.fire(undefined);
    return this.current;
  }

  clear(): void {
    this.current = undefined;
    void vscode.commands.executeCommand('setContext', 'zooscope.hasCompareResults', false);
    this.changed.fire(undefined);
  }

  difference(target: DiffTarget): Difference | undefined {
    return this.current?.id === target.run ? this.current.result.differences[target.index] : undefined;
  }

  getChildren(item?: CompareItem): CompareItem[] {
    const run = this.current;
    if (!run) return [];
    if (!item) {
      const groups = KINDS.map((of) => ({ kind: 'group' as const, run, of, differences: run.result.differences.filter((d) => d.kind === of) }))
        .filter((g) => g.differences.length > 0);
      return [{ kind: 'summary', run }, ...groups];
    }
    if (item.kind !== 'group') return [];
    return run.result.differences.map((difference, index) => ({ kind: 'difference' as const, run, difference, index }))
      .filter((d) => d.difference.kind === item.of);
  }

  getTreeItem(item: CompareItem): vscode.TreeItem {
    return literalTreeItem(buildItem(item));
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function buildItem(item: CompareItem): vscode.TreeItem {
  const { run } = item;
  if (item.kind === 'summary') {
    const r = run.result;
    const label = r.cancelled ? t('Comparison cancelled') : r.error ? t('Comparison stopped: {0} {1}: {2}', r.error.operation, r.error.path, r.error.code)
      : r.equal ? t('Equal: {0} and {1} nodes', r.nodes.left, r.nodes.right) : t('{0} differences ({1} and {2} nodes)', r.differences.length, r.nodes.left, r.nodes.right);
    const summary = new vscode.TreeItem(label);
    summary.id = `compare:${run.id}:summary`;
    summary.description = `${run.left} ↔ ${run.right}`;
    summary.iconPath = new vscode.ThemeIcon(r.equal && r.complete ? 'pass' : 'compare-changes');
    const unreadable = r.unreadable.left.length + r.unreadable.right.length;
    tooltipLines(summary, [t('Left: {0}', run.left), t('Right: {0}', run.right),
      ...(unreadable ? [t('{0} nodes could not be read (noAuth): the comparison is not whole.', unreadable)] : []), '', ...r.limits.map(limitText)]);
    summary.contextValue = 'compareSummary';
    return summary;
  }
  if (item.kind === 'group') {
    const group = new vscode.TreeItem(kindLabel(item.of), vscode.TreeItemCollapsibleState.Expanded);
    group.id = `compare:${run.id}:${item.of}`;
    group.description = String(item.differences.length);
    group.iconPath = new vscode.ThemeIcon(KIND_ICON[item.of]);
    group.contextValue = 'compareGroup';
    return group;
  }
  const d = item.difference;
  const row = new vscode.TreeItem(d.path);
  row.id = `compare:${run.id}:${item.index}`;
  row.iconPath = new vscode.ThemeIcon(KIND_ICON[d.kind]);
  row.description = detail(d);
  row.tooltip = `${kindLabel(d.kind)}: ${d.path}`;
  row.contextValue = `compareDifference ${d.kind}`;
  row.accessibilityInformation = { label: `${kindLabel(d.kind)}: ${d.path}` };
  if (d.kind === 'data') {
    const target: DiffTarget = { run: run.id, index: item.index };
    row.command = { command: Command.openCompareDiff, title: t('Open Changes'), arguments: [target] };
  }
  return row;
}

const bytes = (length: number | null | undefined) => (length === null ? 'null' : t('{0} bytes', length ?? 0));

function detail(d: Difference): string {
  switch (d.kind) {
    case 'data': return `${bytes(d.left?.dataLength)} ↔ ${bytes(d.right?.dataLength)}`;
    case 'acl': return `${d.left?.acl?.join(', ')} ↔ ${d.right?.acl?.join(', ')}`;
    case 'mode': return `${d.left?.kind} ↔ ${d.right?.kind}`;
    default: return '';
  }
}
