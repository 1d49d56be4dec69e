// "Delete": one node (at the version the explorer shows) or every selected node, after a modal confirmation.
// A single node with children goes to "Delete Recursively…", which previews the whole subtree first.
import * as vscode from 'vscode';
import { isProtectedPath } from '../../zk/paths';
import { DeleteManyReport, WriteFailure } from '../../zk/write';
import { log } from '../common/log';
import { describeWriteFailure } from '../common/failureTexts';
import type { Core } from '../core/core';
import type { ZnodeNode } from '../../zk/tree/treeNodes';
import { deleteRecursively, RecursiveDeleteOptions, RecursiveDeleteResult } from './deleteRecursiveCommand';
import { showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { listLines } from '../common/reports';
import { refreshParents } from '../core/reveal';
import { selectedZnodes } from '../core/targets';
import { confirmIrreversible } from '../common/confirmIrreversible';
import { fail, flash, warn } from '../common/notifier';
import { nodeKind } from '../../zk/stat';

const t = vscode.l10n.t;
const SHOWN = 10;

export interface DeleteOptions extends RecursiveDeleteOptions {
  /** Skip the confirmation (automation, tests): true deletes, false answers "Cancel". */
  confirmed?: boolean;
}

export async function deleteNodes(core: Core, node?: unknown, nodes?: unknown, options: DeleteOptions = {}): Promise<DeleteManyReport | RecursiveDeleteResult | undefined> {
  const selected = selectedZnodes(core, node, nodes);
  if (selected.length === 0) return undefined;
  const protectedOnes = selected.filter((n) => isProtectedPath(n.path));
  if (protectedOnes.length) {
    void showWriteFailure(protectedOnes[0].connectionId, { code: 'protectedPath', operation: 'delete', path: protectedOnes[0].path });
    return undefined;
  }
  if (selected.length === 1 && selected[0].stat.numChildren > 0) return deleteRecursively(core, selected[0], undefined, options);
  const connections = new Set(selected.map((n) => n.connectionId));
  if (connections.size > 1) {
    void fail(t('Select nodes of one connection to delete them together.'));
    return undefined;
  }
  const connectionId = selected[0].connectionId;
  if (!(options.confirmed ?? await confirm(selected, core.connections.get(connectionId)?.session.sessionId))) return undefined;
  const found = await liveWriter(core.connections, connectionId);
  if (!found) return undefined;
  const targets = selected.map((n) => ({ path: n.path, version: n.stat.version }));
  const report: DeleteManyReport = selected.length === 1
    ? single(await found.writer.delete(targets[0].path, targets[0].version), targets[0].path)
    : await found.writer.deleteMany(targets);
  log().info(`delete: ${report.deleted.length} deleted, ${report.alreadyGone.length} already gone, ${report.failed.length} kept`);
  await refreshParents(core, connectionId, selected.map((n) => n.path));
  void tell(core, connectionId, report, selected.length);
  return report;
}

function single(outcome: { ok: true } | { ok: false; failure: WriteFailure }, path: string): DeleteManyReport {
  if (outcome.ok) return { deleted: [path], alreadyGone: [], failed: [] };
  if (outcome.failure.code === 'noNode') return { deleted: [], alreadyGone: [path], failed: [] };
  return { deleted: [], alreadyGone: [], failed: [outcome.failure] };
}

async function confirm(nodes: ZnodeNode[], ownSessionId: string | undefined): Promise<boolean> {
  const button = nodes.length === 1 ? t('Delete') : t('Delete {0} Nodes', nodes.length);
  const message = nodes.length === 1 ? t('Delete {0}?', nodes[0].path) : t('Delete these {0} nodes?', nodes.length);
  const lines = nodes.slice(0, SHOWN).map((n) => n.path);
  if (nodes.length > SHOWN) lines.push(t('… and {0} more', nodes.length - SHOWN));
  lines.push('', t('Each node is deleted only if it is unchanged since the explorer showed it.'));
  const own = ownSessionId ? BigInt(ownSessionId) : undefined;
  const liveOfOthers = nodes.filter((n) => nodeKind(n.stat) === 'ephemeral' && n.stat.ephemeralOwner !== own).length;
  return confirmIrreversible({ message, detail: lines, confirmLabel: button, liveOfOthers });
}

async function tell(core: Core, connectionId: string, report: DeleteManyReport, asked: number): Promise<void> {
  const done = report.deleted.length + report.alreadyGone.length;
  if (report.failed.length === 0) {
    flash(asked === 1 ? t('Deleted {0}', report.deleted[0] ?? report.alreadyGone[0]) : t('Deleted {0} nodes', done));
    return;
  }
  if (asked === 1) {
    void showWriteFailure(connectionId, report.failed[0]);
    return;
  }
  const show = t('Show Report');
  const choice = await warn(
    t('Deleted {0} of {1} nodes; {2} were kept: {3}', done, asked, report.failed.length, describeWriteFailure(report.failed[0])), show);
  if (choice !== show) return;
  const text = [`# ${t('Delete')}`, '', `## ${t('Kept')}`, ...listLines(report.failed.map(describeWriteFailure)),
    '', `## ${t('Deleted')}`, ...listLines([...report.deleted, ...report.alreadyGone])].join('\n');
  await core.reports.show(t('Delete report'), text + '\n');
}
