// Compare, copy and mirror subtrees: Compare With… fills the Differences view (data differences open in the diff
// editor); Copy To… and Mirror To… show their plan before writing.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import type { NodeTarget } from '../core/targets';
import type { CompareResult, CopyPlan } from '../../zk/compare';
import { applyCopyPlan, type CopyResult, type CopyRun } from './copyApply';
import { compareSides, compareWith, ComparePreset, openCompareDiff } from './compareCommand';
import { CompareItem, CompareResultsProvider } from './compareResults';
import { copyTo, CopyPreset } from './copyCommand';
import { SideDocuments } from '../common/dataDiffDocuments';

const COMPARE_SCHEME = 'zooscope-compare';

function presetCommands(context: Parameters<typeof compareWith>[0] & { sides: SideDocuments }) {
  return {
    compareWith: withPresets(Command.compareWith, (target: unknown, preset?: ComparePreset) => compareWith(context, target, preset)),
    copyTo: withPresets(Command.copyTo, (target: unknown, preset?: CopyPreset) => copyTo(context, false, target, preset)),
    mirrorTo: withPresets(Command.mirrorTo, (target: unknown, preset?: CopyPreset) => copyTo(context, true, target, preset)),
    openCompareDiff: withPresets(Command.openCompareDiff, (target: unknown) => openCompareDiff(context, target)),
  };
}

export type CompareCommands = ReturnType<typeof presetCommands>;

export interface CompareParts {
  readonly compareResults: CompareResultsProvider;
}

/**
 * What other features may use: a node's subtree compared with an export file they made (a past moment's), or two
 * such files (`label`s name the files in the view: their connection and moment); and a copy plan they made (Import…
 * plans from an export) shown, confirmed and written as Copy To… writes its own.
 */
export interface CompareApi {
  compareWithExport(target: NodeTarget, file: string, label?: string): Promise<CompareResult | undefined>;
  compareExports(left: { file: string; label: string }, right: { file: string; label: string }): Promise<CompareResult | undefined>;
  applyCopyPlan(plan: CopyPlan, run: CopyRun): Promise<CopyResult>;
}

export type { CopyResult, CopyRun };

export function register(_context: vscode.ExtensionContext, core: Core): Registered<CompareApi, CompareParts & { commands: CompareCommands }> {
  const compareResults = new CompareResultsProvider();
  const sides = new SideDocuments(COMPARE_SCHEME);
  const context = { ...core, compareResults, sides };
  return {
    api: {
      compareWithExport: (target, file, label) => compareSides(context, { kind: 'live', ...target }, { kind: 'file', file, label }),
      compareExports: (left, right) => compareSides(context, { kind: 'file', ...left }, { kind: 'file', ...right }),
      applyCopyPlan: (plan, run) => applyCopyPlan(context, plan, run),
    },
    parts: { compareResults, commands: presetCommands(context) },
    disposables: [
      compareResults,
      vscode.window.createTreeView<CompareItem>('zooscope.compareResults', { treeDataProvider: compareResults }),
      vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, sides),
      ...registerCommands({
        [Command.compareWith]: (target) => compareWith(context, target),
        [Command.copyTo]: (target) => copyTo(context, false, target),
        [Command.mirrorTo]: (target) => copyTo(context, true, target),
        [Command.openCompareDiff]: (target) => openCompareDiff(context, target),
        [Command.clearCompareResults]: () => compareResults.clear(),
      }),
    ],
  };
}
