// "Compare With…": the node's subtree against another (same connection, another connection, or an export file),
// read with progress and cancel, shown in the Differences view.
import * as vscode from 'vscode';
import { compareSubtrees, CompareOptions, CompareResult } from '../../zk/compare';
import { log } from '../common/log';
import { withCancellableProgress } from '../common/progress';
import { input, pickItem } from '../common/quickInput';
import { ViewCommand } from '../core/commandIds';
import type { Core } from '../core/core';
import { nodeTargetOrAsk } from '../core/targets';
import type { CompareResultsProvider } from './compareResults';
import type { SideDocuments } from '../common/dataDiffDocuments';
import { openSide, pickSide, sideLabel, type SideChoice, SidePreset } from './pickSide';

const t = vscode.l10n.t;

export interface ComparePreset {
  other: SidePreset;
  options?: CompareOptions;
}

export interface CompareContext extends Core {
  readonly compareResults: CompareResultsProvider;
}

async function askOptions(): Promise<CompareOptions | undefined> {
  const everything = { label: t('Compare everything'), options: {} };
  const ephemeral = { label: t('Ignore ephemeral nodes'), detail: t('They belong to sessions, not to the configuration.'), options: { ignoreEphemeral: true } };
  const acls = { label: t('Ignore ephemeral nodes and ACLs'), options: { ignoreEphemeral: true, ignoreAcls: true } };
  const data = { label: t('Ignore ephemeral nodes, and the data of some paths…'), options: { ignoreEphemeral: true }, askGlobs: true };
  const chosen = await pickItem<{ label: string; options: CompareOptions; askGlobs?: boolean }>([everything, ephemeral, acls, data], { title: t('Compare With…') });
  if (!chosen?.askGlobs) return chosen?.options;
  const globs = await input({ title: t('Compare With…'), prompt: t('Globs relative to each side, separated by spaces: /services/*/config /**/cache') });
  return globs === undefined ? undefined : { ...chosen.options, ignoreData: globs.split(/\s+/).filter((g) => g !== '') };
}

export async function compareWith(context: CompareContext, arg?: unknown, preset?: ComparePreset): Promise<CompareResult | undefined> {
  const title = t('Compare With…');
  const from = await nodeTargetOrAsk(context, arg, title);
  if (!from) return undefined;
  const other = await pickSide(context, from, title, true, preset?.other);
  if (!other) return undefined;
  const options = preset ? preset.options ?? {} : await askOptions();
  if (!options) return undefined;
  return compareSides(context, { kind: 'live', ...from }, other, options);
}

/** Two sides compared (a live subtree, an export file), shown in the Differences view. */
export async function compareSides(context: CompareContext, self: SideChoice, other: SideChoice, options: CompareOptions = {}): Promise<CompareResult | undefined> {
  const [left, right] = [await openSide(context, self), await openSide(context, other)];
  if (!left || !right) return undefined;
  const leftLabel = sideLabel(context, self);
  const rightLabel = sideLabel(context, other);
  const result = await withCancellableProgress(t('Comparing {0} with {1}…', leftLabel, rightLabel), (signal, report) =>
    compareSubtrees(left, right, { ...options, signal, onProgress: (p) => report(p.phase === 'reading'
      ? t('{0} and {1} nodes read', p.left, p.right) : t('Checking the differences again…')) }), 'zooscope.compareResults');
  log().info(`compare ${leftLabel} with ${rightLabel}: ${result.differences.length} differences${result.error ? `, stopped: ${result.error.code}` : ''}`);
  context.compareResults.show(leftLabel, rightLabel, result);
  await vscode.commands.executeCommand(ViewCommand.focusCompareResults);
  return result;
}

/** Both sides of a data difference in the diff editor. */
export async function openCompareDiff(context: CompareContext & { sides: SideDocuments }, target: unknown): Promise<void> {
  const run = context.compareResults.run;
  const found = target && typeof target === 'object' ? context.compareResults.difference(target as { run: number; index: number }) : undefined;
  if (!run || !found?.data) return;
  await context.sides.showDiff(found.path, found.data.left, found.data.right, run.left, run.right);
}

