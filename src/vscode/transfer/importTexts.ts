// The words of an import: the dry run's preview and the report of what was written.
import * as vscode from 'vscode';
import type { ImportPlan, ImportReport } from '../../zk/transfer';
import type { ImportEntry } from '../../zk/transfer/importPlan';
import { formatAclEntry } from '../../zk/write/aclFormat';
import { describeImportSkip, describeWriteFailure } from '../common/failureTexts';
import { listLines, reportLine } from '../common/reports';

const t = vscode.l10n.t;

/** One dry-run line per ACL change: `/app/cfg: world:anyone:cdrwa → ip:10.0.0.1:cdrwa` (created nodes: from open). */
export function aclChangeLines(plan: ImportPlan): string[] {
  const acl = (entries: NonNullable<ImportEntry['acl']>['to']) => entries.map(formatAclEntry).join(', ');
  return plan.entries.filter((e) => e.acl).map((e) => e.acl?.from
    ? t('{0}: {1} → {2}', e.path, acl(e.acl.from), acl(e.acl.to))
    : t('{0}: created open, then {1}', e.path, acl(e.acl?.to ?? [])));
}

export function importPreview(plan: ImportPlan, file: string): { text: string; message: string; detail: readonly string[]; confirmLabel: string } {
  const of = (action: 'create' | 'update' | 'unchanged') => plan.entries.filter((e) => e.action === action).map((e) => e.path);
  const skipped = plan.entries.filter((e) => e.action === 'skip').map(describeImportSkip);
  const acls = aclChangeLines(plan);
  // The counts are also the confirmation's text: ACL changes are named there, not only in the document.
  const counts = acls.length
    ? t('{0} to create, {1} to change, {2} ACLs to set, {3} unchanged, {4} skipped', plan.counts.create, plan.counts.update, acls.length, plan.counts.unchanged, plan.counts.skip)
    : t('{0} to create, {1} to change, {2} unchanged, {3} skipped', plan.counts.create, plan.counts.update, plan.counts.unchanged, plan.counts.skip);
  // Only the sections that list something: the counts line already says which are empty.
  const section = (heading: string, items: readonly string[]) => items.length ? [`## ${heading}`, ...listLines(items), ''] : [];
  const text = [
    `# ${reportLine(t('Import preview: {0} → {1}', file, plan.targetRoot))}`, '', t('Nothing has been written yet.'), '', counts, '',
    ...section(t('Create ({0})', plan.counts.create), of('create')),
    ...section(t('Change data ({0})', plan.counts.update), of('update')),
    ...section(t('Set ACL ({0})', acls.length), acls),
    ...section(t('Skip ({0})', plan.counts.skip), skipped),
    ...section(t('Unchanged ({0})', plan.counts.unchanged), of('unchanged')),
  ].join('\n').trimEnd() + '\n';
  const detail = [counts, '', t('Changed nodes are written only if nobody changed them since this preview.')];
  if (plan.counts.skip) detail.push('', ...skipped.slice(0, 5));
  return { text, message: t('Import into {0}?', plan.targetRoot), detail, confirmLabel: t('Import') };
}

export function importSummary(plan: ImportPlan, report: ImportReport): string {
  const base = t('Import into {0}: {1} created, {2} changed, {3} unchanged, {4} skipped, {5} failed.', plan.targetRoot,
    report.created.length, report.updated.length, report.unchanged.length, report.skipped, report.failed.length);
  if (report.interrupted) return `${base} ${t('Stopped with {0} left: {1}', report.remaining, describeWriteFailure(report.interrupted))}`;
  if (report.cancelled) return `${base} ${t('Cancelled with {0} left.', report.remaining)}`;
  return base;
}

export function importReport(plan: ImportPlan, report: ImportReport): string {
  return [
    `# ${reportLine(t('Import into {0}', plan.targetRoot))}`, '', reportLine(importSummary(plan, report)), '',
    `## ${t('Failed ({0})', report.failed.length)}`, ...listLines(report.failed.map(describeWriteFailure)), '',
    `## ${t('Created ({0})', report.created.length)}`, ...listLines(report.created), '',
    `## ${t('Changed ({0})', report.updated.length)}`, ...listLines(report.updated), '',
    `## ${t('ACL set ({0})', report.aclsSet.length)}`, ...listLines(report.aclsSet), '',
    `## ${t('Skipped ({0})', report.skipped)}`, ...listLines(plan.entries.filter((e) => e.action === 'skip').map(describeImportSkip)),
  ].join('\n') + '\n';
}
