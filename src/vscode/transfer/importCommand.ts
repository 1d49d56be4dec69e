// "Import…": reads an export, asks where its root goes, runs a dry run (what would be created, changed, left
// alone or skipped, and why) shown as a preview document, and writes only after a modal confirmation.
import * as vscode from 'vscode';
import { executeImport, ImportPlan, ImportReport, parseExport, planImport } from '../../zk/transfer';
import { validateZnodePath } from '../common/askZnodePath';
import { pickConnection } from '../core/pickConnection';
import { log } from '../common/log';
import { describeExportProblem } from '../common/failureTexts';
import type { Core } from '../core/core';
import { showProblem, showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { withCancellableProgress } from '../common/progress';
import { refreshParents } from '../core/reveal';
import { nodeTarget } from '../core/targets';
import { importPreview, importReport, importSummary } from './importTexts';
import { ask, info, warn } from '../common/notifier';
import { input, pickItem } from '../common/quickInput';

const t = vscode.l10n.t;

/** Answers given up front (automation, tests). */
export interface ImportPreset {
  file: string;
  targetRoot?: string;
  confirmed?: boolean;
  /** Re-apply the exported ACLs (asked when the export has them; default no). */
  applyAcls?: boolean;
}

export interface ImportResult {
  plan: ImportPlan;
  report?: ImportReport;
}

export async function importTree(core: Core, arg?: unknown, preset?: ImportPreset): Promise<ImportResult | undefined> {
  // A connection id (palette, automation) means that connection's root, not the explorer's selection.
  const known = typeof arg === 'string' ? undefined : nodeTarget(core, arg);
  const connectionId = known?.connectionId ?? await pickConnection(core, arg, false);
  if (!connectionId) return undefined;
  const file = preset ? vscode.Uri.file(preset.file) : (await vscode.window.showOpenDialog({
    title: t('Import into ZooKeeper'), openLabel: t('Preview Import'), canSelectMany: false, filters: { [t('ZooScope export')]: ['json'] },
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  }))?.[0];
  if (!file) return undefined;
  const shown = file.scheme === 'file' ? file.fsPath : file.toString();
  let text: string;
  try {
    text = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
  } catch (error) {
    showProblem(t('Cannot read {0}: {1}', shown, error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  const parsed = parseExport(text);
  if (!parsed.ok) {
    showProblem(describeExportProblem(shown, parsed.problem));
    return undefined;
  }
  const doc = parsed.doc;
  const targetRoot = preset ? preset.targetRoot ?? doc.root : await input({
    title: t('Import {0}', shown), prompt: t('Where the export\'s root {0} goes ({1} nodes); the same path restores it in place', doc.root, doc.nodes.length),
    value: known && known.path !== doc.root && known.path !== '/' ? known.path : doc.root,
    validateInput: validateZnodePath,
  });
  if (targetRoot === undefined) return undefined;
  let applyAcls = preset?.applyAcls ?? false;
  if (!preset && doc.nodes.some((n) => n.acl?.length)) {
    const keep = { label: t('Leave ACLs as they are'), detail: t('New nodes are open (world:anyone:cdrwa); existing nodes keep theirs.') };
    const apply = { label: t('Re-apply the exported ACLs'), detail: t('The dry run lists each ACL it would change.') };
    const chosen = await pickItem([keep, apply], { title: t('Import {0}', shown), placeHolder: t('The export records each node\'s ACL') });
    if (!chosen) return undefined;
    applyAcls = chosen === apply;
  }
  const found = await liveWriter(core.connections, connectionId);
  if (!found) return undefined;
  const guard = { readOnly: found.writer.readOnly };
  if (guard.readOnly) {
    void showWriteFailure(connectionId, { code: 'readOnly', operation: 'import', path: targetRoot });
    return undefined;
  }
  const plan = await withCancellableProgress(t('Comparing {0} with {1}…', shown, targetRoot), (signal, report) =>
    planImport(found.live.session, doc, { targetRoot, guard, signal, applyAcls, onProgress: ({ checked, total }) => report(t('{0} of {1}', checked, total)) }));
  if (plan.cancelled) return { plan };
  if (plan.error) {
    void showWriteFailure(connectionId, plan.error);
    return { plan };
  }
  const writes = plan.counts.create + plan.counts.update + plan.entries.filter((e) => e.acl).length;
  if (writes === 0) {
    void info(t('Nothing to import into {0}: {1} nodes already hold this data, {2} are skipped.', targetRoot, plan.counts.unchanged, plan.counts.skip));
    return { plan };
  }
  const preview = importPreview(plan, shown);
  if (!preset) await core.reports.show(t('Import preview {0}', targetRoot), preview.text);
  const confirmed = preset?.confirmed ?? (await ask('warning', preview.message, preview.detail, preview.confirmLabel)) === preview.confirmLabel;
  if (!confirmed) return { plan };
  return { plan, report: await run(core, connectionId, plan) };
}

async function run(core: Core, connectionId: string, plan: ImportPlan): Promise<ImportReport | undefined> {
  const found = await liveWriter(core.connections, connectionId);
  if (!found) return undefined;
  const executed = await withCancellableProgress(t('Importing into {0}…', plan.targetRoot), (signal, report) =>
    executeImport(found.live.session, plan, { readOnly: found.writer.readOnly }, { signal, onProgress: ({ done, total }) => report(t('{0} of {1}', done, total)) }));
  if (!executed.ok) {
    void showWriteFailure(connectionId, executed.failure);
    return undefined;
  }
  const report = executed.report;
  log().info(`import ${plan.targetRoot}: ${report.created.length} created, ${report.updated.length} updated, ${report.failed.length} failed, ${report.remaining} left`);
  await refreshParents(core, connectionId, [plan.targetRoot, ...report.created]);
  const show = t('Show Report');
  const again = t('Run Again');
  const clean = !report.interrupted && !report.cancelled && report.failed.length === 0;
  const summary = importSummary(plan, report);
  void (clean ? info(summary, show) : warn(summary, ...(report.interrupted ? [again, show] : [show])))
    .then(async (choice) => {
      if (choice === show) await core.reports.show(t('Import {0}', plan.targetRoot), importReport(plan, report));
      if (choice === again) await run(core, connectionId, plan);
    });
  return report;
}
