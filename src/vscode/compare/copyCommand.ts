// "Copy To…" and "Mirror To…": the node's subtree onto another path or connection. The plan (creates, data
// changes, ACL changes and, for a mirror, deletes) is shown as a document and confirmed in a modal dialog before
// anything is written; writes are version-checked against what the plan read, with progress and cancel. After an
// interruption, running the command again plans and writes only what is left.
import * as vscode from 'vscode';
import { CopyPlan, CopyReport, executeCopy, planCopy } from '../../zk/compare';
import { ZkError } from '../../zk/errors';
import { describeZkError } from '../common/failureTexts';
import { log } from '../common/log';
import { ask, info, warn } from '../common/notifier';
import { withCancellableProgress } from '../common/progress';
import { pickItem } from '../common/quickInput';
import type { Core } from '../core/core';
import { showProblem, showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { refreshParents } from '../core/reveal';
import { nodeTargetOrAsk } from '../core/targets';
import { copyReportDocument, copySummary, planCounts, planDocument } from './compareTexts';
import { openSide, pickSide, sideLabel, SidePreset } from './pickSide';

const t = vscode.l10n.t;

export interface CopyPreset {
  target: SidePreset;
  /** Copy ACLs (default yes). */
  acls?: boolean;
  confirmed?: boolean;
}

export interface CopyResult {
  plan: CopyPlan;
  report?: CopyReport;
}

export async function copyTo(core: Core, mirror: boolean, arg?: unknown, preset?: CopyPreset): Promise<CopyResult | undefined> {
  const title = mirror ? t('Mirror To…') : t('Copy To…');
  const from = await nodeTargetOrAsk(core, arg, title);
  if (!from) return undefined;
  const to = await pickSide(core, from, title, false, preset?.target);
  if (!to || to.kind !== 'live') return undefined;
  let acls = preset?.acls ?? true;
  if (!preset) {
    const copy = { label: t('Copy ACLs'), detail: t('Each node gets the source\'s ACL.') };
    const leave = { label: t('Leave ACLs alone'), detail: t('New nodes are open (world:anyone:cdrwa); existing nodes keep theirs.') };
    const chosen = await pickItem([copy, leave], { title });
    if (!chosen) return undefined;
    acls = chosen === copy;
  }
  const target = await liveWriter(core.connections, to.connectionId);
  const source = await openSide(core, { kind: 'live', ...from });
  if (!target || !source) return undefined;
  const guard = { readOnly: target.writer.readOnly };
  if (guard.readOnly) {
    void showWriteFailure(to.connectionId, { code: 'readOnly', operation: mirror ? 'mirror' : 'copy', path: to.path });
    return undefined;
  }
  const sourceLabel = sideLabel(core, { kind: 'live', ...from });
  const targetLabel = sideLabel(core, to);
  const plan = await withCancellableProgress(t('Planning {0} → {1}…', sourceLabel, targetLabel), (signal, report) =>
    planCopy(source, target.live.session, to.path, { mirror, acls, guard, signal, onProgress: (p) => report(t('{0} and {1} nodes read', p.source, p.target)) }));
  if (plan.problem) {
    if (plan.problem.code === 'overlap') showProblem(t('{0}: the source and the target overlap (one holds the other). Choose a target outside the source.', title));
    else if (plan.problem.code === 'aclHidden') showProblem(t('{0}: the server hides the digest passwords in the ACL of {1} from this session (it lacks ADMIN permission there), and copying that ACL would lock everyone out. Copy without ACLs, or add credentials with ADMIN permission.', title, plan.problem.path ?? ''));
    else if (plan.problem.code === 'subtreeTooLarge') showProblem(describeZkError(new ZkError('subtreeTooLarge', 'getChildren', plan.problem.path)));
    else if (plan.problem.code !== 'cancelled') showProblem(t('Cannot plan {0}: the {1} could not be read whole ({2} {3}).', title, plan.problem.side, plan.problem.code, plan.problem.path ?? ''));
    return { plan };
  }
  const writes = plan.writes.length + plan.deletes.length + plan.aclChanges.length;
  if (writes === 0) {
    void info(t('Nothing to write: {0} already holds {1}.', targetLabel, sourceLabel));
    return { plan };
  }
  if (!preset) await core.reports.show(mirror ? t('Mirror plan {0}', to.path) : t('Copy plan {0}', to.path), planDocument(plan, sourceLabel, targetLabel));
  const confirmLabel = mirror ? t('Mirror') : t('Copy');
  const confirmed = preset?.confirmed ?? (await ask('warning', mirror ? t('Mirror onto {0}?', targetLabel) : t('Copy onto {0}?', targetLabel),
    [planCounts(plan), '', t('Changed nodes are written only if nobody changed them since the plan.')], confirmLabel)) === confirmLabel;
  if (!confirmed) return { plan };
  const executed = await withCancellableProgress(t('Writing {0}…', targetLabel), (signal, report) =>
    executeCopy(target.live.session, plan, guard, { signal, onProgress: ({ done, total }) => report(t('{0} of {1}', done, total)) }));
  if (!executed.ok) {
    void showWriteFailure(to.connectionId, executed.failure);
    return { plan };
  }
  const report = executed.report;
  log().info(`${mirror ? 'mirror' : 'copy'} ${sourceLabel} → ${targetLabel}: ${report.created} created, ${report.updated} updated, ${report.deleted} deleted, ${report.failed.length} refused, ${report.remaining} left`);
  await refreshParents(core, to.connectionId, [to.path]);
  const clean = report.failed.length === 0 && report.remaining === 0;
  const show = t('Show Report');
  void (clean ? info(copySummary(plan, report)) : warn(copySummary(plan, report), show)).then(async (choice) => {
    if (choice === show) await core.reports.show(title, copyReportDocument(plan, report));
  });
  return { plan, report };
}
