// What follows a copy plan, whatever its source (Copy To…, Mirror To…, or Import… from an export file): the plan's
// problem said in one line, or the plan shown as a document and confirmed in a modal dialog; then the writes,
// version-checked against what the plan read, with progress and cancel, and the report.
import * as vscode from 'vscode';
import { CopyPlan, CopyReport, executeCopy } from '../../zk/compare';
import { ZkError } from '../../zk/errors';
import { describeZkError } from '../common/failureTexts';
import { log } from '../common/log';
import { ask, info, warn } from '../common/notifier';
import { withCancellableProgress } from '../common/progress';
import type { Core } from '../core/core';
import { showProblem, showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { refreshParents } from '../core/reveal';
import { copyReportDocument, copySummary, planCounts, planDocument } from './compareTexts';

const t = vscode.l10n.t;

/** How one run of a plan is named to the user, and the answer given up front (automation, tests). */
export interface CopyRun {
  /** The command's title (`Copy To…`, `Import…`): problems start with it. */
  title: string;
  /** The operation as the logs and write failures name it. */
  operation: 'copy' | 'mirror' | 'import';
  connectionId: string;
  sourceLabel: string;
  targetLabel: string;
  /** The plan document's title and the modal's question and button. */
  planTitle: string;
  question: string;
  confirmLabel: string;
  /** Whether the plan is shown as a document before the question (not when the answers came up front). */
  showPlan: boolean;
  /** Answered already: nobody is asked. */
  confirmed?: boolean;
}

export interface CopyResult {
  plan: CopyPlan;
  report?: CopyReport;
}

function showPlanProblem(plan: CopyPlan, title: string): void {
  const problem = plan.problem!;
  if (problem.code === 'overlap') showProblem(t('{0}: the source and the target overlap (one holds the other). Choose a target outside the source.', title));
  else if (problem.code === 'aclHidden') showProblem(t('{0}: the server hides the digest passwords in the ACL of {1} from this session (it lacks ADMIN permission there), and copying that ACL would lock everyone out. Copy without ACLs, or add credentials with ADMIN permission.', title, problem.path ?? ''));
  else if (problem.code === 'subtreeTooLarge') showProblem(describeZkError(new ZkError('subtreeTooLarge', 'getChildren', problem.path)));
  else if (problem.code !== 'cancelled') showProblem(t('Cannot plan {0}: the {1} could not be read whole ({2} {3}).', title, problem.side, problem.code, problem.path ?? ''));
}

export async function applyCopyPlan(core: Core, plan: CopyPlan, run: CopyRun): Promise<CopyResult> {
  if (plan.problem) {
    showPlanProblem(plan, run.title);
    return { plan };
  }
  if (plan.writes.length + plan.deletes.length + plan.aclChanges.length === 0) {
    void info(t('Nothing to write: {0} already holds {1}.', run.targetLabel, run.sourceLabel));
    return { plan };
  }
  if (run.showPlan) await core.reports.show(run.planTitle, planDocument(plan, run.sourceLabel, run.targetLabel, run.operation));
  const confirmed = run.confirmed ?? (await ask('warning', run.question,
    [planCounts(plan), '', t('Changed nodes are written only if nobody changed them since the plan.')], run.confirmLabel)) === run.confirmLabel;
  if (!confirmed) return { plan };
  const target = await liveWriter(core.connections, run.connectionId);
  if (!target) return { plan };
  const guard = { readOnly: target.writer.readOnly };
  const executed = await withCancellableProgress(t('Writing {0}…', run.targetLabel), (signal, report) =>
    executeCopy(target.live.session, plan, guard, { signal, onProgress: ({ done, total }) => report(t('{0} of {1}', done, total)) }));
  if (!executed.ok) {
    void showWriteFailure(run.connectionId, executed.failure);
    return { plan };
  }
  const report = executed.report;
  log().info(`${run.operation} ${run.sourceLabel} → ${run.targetLabel}: ${report.created} created, ${report.updated} updated, ${report.deleted} deleted, ${report.aclsSet} ACLs set, ${report.failed.length} refused, ${report.remaining} left`);
  await refreshParents(core, run.connectionId, [plan.targetRoot]);
  const clean = report.failed.length === 0 && report.remaining === 0;
  const show = t('Show Report');
  void (clean ? info(copySummary(plan, report)) : warn(copySummary(plan, report), show)).then(async (choice) => {
    if (choice === show) await core.reports.show(run.title, copyReportDocument(plan, report));
  });
  return { plan, report };
}
