// "Delete Recursively…": a preview of exactly what would go (count, samples, other sessions' ephemeral nodes
// with their owners), a modal confirmation, then the confirmed plan runs in batches with progress and cancel, and
// a report says what was and was not deleted. "/" and /zookeeper are refused by the ZooKeeper layer as well.
import * as vscode from 'vscode';
import { DeleteExecution, DeletePlan, executeDeletePlan, planRecursiveDelete } from '../../zk/write';
import { log } from '../common/log';
import { describeWriteFailure } from '../common/failureTexts';
import type { Core } from '../core/core';
import { deletePreview, DeletePreview, deleteReport, deleteSummary } from './deletePreview';
import { showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { withCancellableProgress } from '../common/progress';
import { refreshParents } from '../core/reveal';
import { nodeTarget } from '../core/targets';
import { confirmIrreversible } from '../common/confirmIrreversible';
import { fail, info, warn } from '../common/notifier';

const t = vscode.l10n.t;

export interface RecursiveDeleteOptions {
  /** Skip the confirmation (automation, tests): true deletes what the preview lists, false cancels. */
  confirmed?: boolean;
  /** Most deletes per multi request. */
  batchSize?: number;
}

export interface RecursiveDeleteResult {
  plan?: DeletePlan;
  preview?: DeletePreview;
  report?: DeleteExecution;
}

export async function deleteRecursively(core: Core, node?: unknown, _nodes?: unknown, options: RecursiveDeleteOptions = {}): Promise<RecursiveDeleteResult | undefined> {
  const target = nodeTarget(core, node);
  if (!target) return undefined;
  const found = await liveWriter(core.connections, target.connectionId);
  if (!found) return undefined;
  const { session } = found.live;
  const planned = await withCancellableProgress(t('Previewing the delete of {0}…', target.path), (signal, report) =>
    planRecursiveDelete(session, target.path, { signal, onProgress: ({ visited }) => report(t('{0} nodes seen', visited)) }));
  if (!planned.ok) {
    void showWriteFailure(target.connectionId, planned.failure);
    return undefined;
  }
  const plan = planned.plan;
  if (!plan.complete) {
    if (!plan.crawl.cancelled) void fail(describeWriteFailure({ code: 'incompletePlan', operation: 'delete', path: plan.root }));
    return { plan };
  }
  const preview = deletePreview(plan);
  const confirmed = options.confirmed ?? await confirmIrreversible({ ...preview, liveOfOthers: plan.foreignEphemeralCount });
  if (!confirmed) return { plan, preview };
  const report = await run(core, target.connectionId, plan, options);
  return report ? { plan, preview, report } : { plan, preview };
}

async function run(core: Core, connectionId: string, plan: DeletePlan, options: RecursiveDeleteOptions): Promise<DeleteExecution | undefined> {
  const found = await liveWriter(core.connections, connectionId);
  if (!found) return undefined;
  const executed = await withCancellableProgress(t('Deleting {0}…', plan.root), (signal, report) =>
    executeDeletePlan(found.live.session, plan, { readOnly: found.writer.readOnly }, {
      signal, batchSize: options.batchSize, onProgress: ({ done, total }) => report(t('{0} of {1}', done, total)),
    }));
  if (!executed.ok) {
    void showWriteFailure(connectionId, executed.failure);
    return undefined;
  }
  const report = executed.report;
  log().info(`delete -r ${plan.root}: ${report.deleted.length} deleted, ${report.alreadyGone.length} gone, ${report.notDeleted.length} kept, ${report.remaining} left`);
  await refreshParents(core, connectionId, [plan.root]);
  void tell(core, connectionId, plan, report, options);
  return report;
}

async function tell(core: Core, connectionId: string, plan: DeletePlan, report: DeleteExecution, options: RecursiveDeleteOptions): Promise<void> {
  const show = t('Show Report');
  const again = t('Run Again');
  const clean = !report.interrupted && !report.cancelled && report.notDeleted.length === 0;
  const summary = deleteSummary(report);
  const choice = clean
    ? await info(summary, show)
    : await warn(summary, ...(report.interrupted ? [again, show] : [show]));
  if (choice === show) await core.reports.show(t('Delete {0}', plan.root), deleteReport(report));
  if (choice === again) await run(core, connectionId, plan, options);
}
