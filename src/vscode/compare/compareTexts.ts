// The words of Compare With…, Copy To… and Mirror To…: difference kinds, limits, the copy plan and its report.
import * as vscode from 'vscode';
import { CompareLimit, CopyPlan, CopyReport, CopyStep, DifferenceKind, planForShowing, SkipReason } from '../../zk/compare';
import { formatAclEntry } from '../../zk/write/aclFormat';
import { describeWriteFailure } from '../common/failureTexts';
import { listLines, reportLine } from '../common/reports';

const t = vscode.l10n.t;

export function kindLabel(kind: DifferenceKind): string {
  switch (kind) {
    case 'onlyLeft': return t('Only on the left');
    case 'onlyRight': return t('Only on the right');
    case 'data': return t('Data differs');
    case 'acl': return t('ACL differs');
    case 'mode': return t('Mode differs');
    case 'changed': return t('Changed during the comparison');
  }
}

/** Codicons per kind, as VS Code's own diff views use them. */
export const KIND_ICON: Record<DifferenceKind, string> = {
  onlyLeft: 'diff-removed', onlyRight: 'diff-added', data: 'diff-modified', acl: 'shield', mode: 'symbol-enum', changed: 'warning',
};

export function limitText(limit: CompareLimit): string {
  switch (limit) {
    case 'containerAndTtlLookPersistent': return t('Container and TTL nodes look persistent to clients of ZooKeeper 3.5.4 and later: a mode difference between them cannot be seen.');
    case 'exportNullIsEmpty': return t('An export writes null data as empty: null and empty data count as equal.');
    case 'exportModes': return t('An export knows ephemeral nodes only: container and TTL nodes count as persistent.');
    case 'digestHidden': return t('The server hides digest password hashes from a session without ADMIN permission: those ACL entries are compared by user and permissions only.');
  }
}

function skipLine(path: string, reason: SkipReason): string {
  switch (reason.code) {
    case 'ephemeral': return `${path}: ${t('ephemeral in the source: never copied')}`;
    case 'targetEphemeral': return `${path}: ${t('ephemeral in the target: left to its session')}`;
    case 'keepsChild': return `${path}: ${t('keeps {0}', reason.child)}`;
    // A refused path (protected, invalid, too large) in the words every write refusal has.
    default: return describeWriteFailure({ ...reason, operation: 'copy', path });
  }
}

const size = (data: Buffer | null) => (data === null ? 'null' : t('{0} bytes', data.length));

function stepText(step: CopyStep): string {
  switch (step.action) {
    case 'create': return `${step.path} (${size(step.data)})`;
    case 'setData': return t('{0}: {1} → {2}', step.path, step.fromLength === null ? 'null' : t('{0} bytes', step.fromLength), size(step.data));
    case 'setAcl': return t('{0}: {1} → {2}', step.path, step.from ? step.from.map(formatAclEntry).join(', ') : 'world:anyone:cdrwa', step.acl.map(formatAclEntry).join(', '));
    case 'delete': return step.path;
  }
}

export function planCounts(plan: CopyPlan): string {
  const c = plan.counts;
  return plan.mirror
    ? t('{0} to create, {1} with data to set, {2} with ACLs to set, {3} to delete, {4} skipped', c.create, c.setData, c.setAcl, c.delete, c.skip)
    : t('{0} to create, {1} with data to set, {2} with ACLs to set, {3} skipped', c.create, c.setData, c.setAcl, c.skip);
}

/** `operation`: what the plan is for, named in its heading (an import copies from an export file). */
export function planDocument(plan: CopyPlan, source: string, target: string, operation: 'copy' | 'mirror' | 'import' = plan.mirror ? 'mirror' : 'copy'): string {
  const section = (heading: string, steps: readonly string[]) => steps.length ? [`## ${heading}`, ...listLines(steps), ''] : [];
  const shown = planForShowing(plan);
  const heading = operation === 'import' ? t('Import plan: {0} → {1}', source, target)
    : operation === 'mirror' ? t('Mirror plan: {0} → {1}', source, target) : t('Copy plan: {0} → {1}', source, target);
  const of = (action: CopyStep['action']) => [...shown.writes, ...shown.deletes, ...shown.aclChanges].filter((s) => s.action === action).map(stepText);
  return [
    `# ${reportLine(heading)}`, '',
    t('Nothing has been written yet.'), '', planCounts(plan), '',
    ...section(t('Create ({0})', plan.counts.create), of('create')),
    ...section(t('Change data ({0})', plan.counts.setData), of('setData')),
    ...section(t('Set ACL ({0})', plan.counts.setAcl), of('setAcl')),
    ...section(t('Delete ({0})', plan.counts.delete), of('delete')),
    ...section(t('Skip ({0})', plan.counts.skip), shown.skipped.map((s) => skipLine(s.path, s.reason))),
  ].join('\n').trimEnd() + '\n';
}

export function copySummary(plan: CopyPlan, report: CopyReport): string {
  const base = t('{0}: {1} created, {2} data changed, {3} ACLs set, {4} deleted, {5} refused.', plan.targetRoot,
    report.created, report.updated, report.aclsSet, report.deleted, report.failed.length);
  if (report.interrupted) return `${base} ${t('Stopped with {0} left: {1}', report.remaining, describeWriteFailure(report.interrupted))}`;
  if (report.cancelled) return `${base} ${t('Cancelled with {0} left.', report.remaining)}`;
  return base;
}

export function copyReportDocument(plan: CopyPlan, report: CopyReport): string {
  return [`# ${reportLine(plan.targetRoot)}`, '', reportLine(copySummary(plan, report)), '',
    `## ${t('Failed ({0})', report.failed.length)}`, ...listLines(report.failed.map(describeWriteFailure))].join('\n') + '\n';
}
