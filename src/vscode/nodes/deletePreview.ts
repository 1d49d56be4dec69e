// The words of a recursive delete: the preview the user confirms, and the report of what happened.
import * as vscode from 'vscode';
import type { DeleteExecution, DeletePlan } from '../../zk/write';
import { describeWriteFailure } from '../common/failureTexts';
import { listLines } from '../common/reports';

const t = vscode.l10n.t;
const SHOWN = 10;

export interface DeletePreview {
  message: string;
  /** Lines of our own making (see Detail in common/notifier). */
  detail: readonly string[];
  confirmLabel: string;
}

export function deletePreview(plan: DeletePlan): DeletePreview {
  const lines: string[] = [t('For example:'), ...plan.samples.slice(0, SHOWN)];
  if (plan.count > plan.samples.length) lines.push(t('… and {0} more', plan.count - Math.min(plan.samples.length, SHOWN)));
  if (plan.foreignEphemeralCount > 0) {
    lines.push('', plan.foreignEphemeralCount === 1
      ? t('One of them is an ephemeral node of ANOTHER session (a live lock, leader or registration): the client holding it loses it.')
      : t('{0} of them are ephemeral nodes of OTHER sessions (live locks, leaders, registrations): the clients holding them lose them.', plan.foreignEphemeralCount));
    for (const e of plan.foreignEphemerals.slice(0, SHOWN)) lines.push(t('{0} (owner session {1})', e.path, e.owner));
    if (plan.foreignEphemeralCount > SHOWN) lines.push(t('… and {0} more', plan.foreignEphemeralCount - SHOWN));
  }
  if (plan.ownEphemeralCount > 0) {
    lines.push('', plan.ownEphemeralCount === 1 ? t('One of them is an ephemeral node of this window\'s session.')
      : t('{0} of them are ephemeral nodes of this window\'s session.', plan.ownEphemeralCount));
  }
  if (plan.crawl.unreadableCount > 0) {
    lines.push('', plan.crawl.unreadableCount === 1
      ? t('1 node could not be read (no permission): what is below it is unknown, so it will be kept.')
      : t('{0} nodes could not be read (no permission): what is below them is unknown, so they will be kept.', plan.crawl.unreadableCount));
  }
  lines.push('', t('Each node is deleted only if it is unchanged since this preview; nodes created meanwhile are left alone.'));
  return {
    message: plan.count === 1 ? t('Delete {0}?', plan.root) : t('Delete {0} and everything below it: {1} nodes?', plan.root, plan.count),
    detail: lines,
    confirmLabel: plan.count === 1 ? t('Delete') : t('Delete {0} Nodes', plan.count),
  };
}

/** One line for the notification after a recursive delete. */
export function deleteSummary(report: DeleteExecution): string {
  const done = report.deleted.length + report.alreadyGone.length;
  if (report.interrupted) return t('Deleting {0} stopped after {1} of {2} nodes: {3}', report.root, done, report.planned, describeWriteFailure(report.interrupted));
  if (report.cancelled) return t('Deleting {0} was cancelled after {1} of {2} nodes; {3} were not attempted.', report.root, done, report.planned, report.remaining);
  if (report.notDeleted.length > 0) return t('Deleted {0} of {1} nodes under {2}; {3} were kept (see the report).', done, report.planned, report.root, report.notDeleted.length);
  return t('Deleted {0} and everything below it: {1} nodes.', report.root, done);
}

export function deleteReport(report: DeleteExecution): string {
  const lines = [
    `# ${t('Delete {0} recursively', report.root)}`, '',
    `- ${t('Planned: {0}', report.planned)}`,
    `- ${t('Deleted: {0}', report.deleted.length)}`,
    `- ${t('Already gone: {0}', report.alreadyGone.length)}`,
    `- ${t('Kept: {0}', report.notDeleted.length)}`,
    `- ${t('Not attempted: {0}', report.remaining)}`,
  ];
  if (report.cancelled) lines.push('', t('Cancelled: the remaining nodes were not attempted.'));
  if (report.interrupted) lines.push('', describeWriteFailure(report.interrupted), t('Run the delete again to finish: it only deletes what is left of the confirmed preview.'));
  if (report.notDeleted.length) lines.push('', `## ${t('Kept')}`, ...listLines(report.notDeleted.map(describeWriteFailure)));
  if (report.deleted.length) lines.push('', `## ${t('Deleted')}`, ...listLines(report.deleted));
  if (report.alreadyGone.length) lines.push('', `## ${t('Already gone')}`, ...listLines(report.alreadyGone));
  return lines.join('\n') + '\n';
}
