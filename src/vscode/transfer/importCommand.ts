// "Import…": reads an export, asks where its root goes and whether its ACLs come too, then copies it there as Copy
// To… copies a live subtree: the same plan (what would be created, changed or skipped, and why) shown as a
// document, a modal confirmation, and version-checked writes (src/zk/compare, the compare feature's apply step).
import * as vscode from 'vscode';
import { planCopy } from '../../zk/compare';
import { parseExport } from '../../zk/transfer';
import type { CompareApi, CopyResult } from '../compare';
import { validateZnodePath } from '../common/askZnodePath';
import { pickConnection } from '../core/pickConnection';
import { describeExportProblem } from '../common/failureTexts';
import type { Core } from '../core/core';
import { showProblem, showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { withCancellableProgress } from '../common/progress';
import { nodeTarget } from '../core/targets';
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

export async function importTree(core: Core, compare: CompareApi, arg?: unknown, preset?: ImportPreset): Promise<CopyResult | undefined> {
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
    planCopy({ export: doc }, found.live.session, targetRoot, { acls: applyAcls, guard, signal, onProgress: ({ target }) => report(t('{0} of {1}', target, doc.nodes.length)) }));
  return compare.applyCopyPlan(plan, {
    title: t('Import {0}', shown), operation: 'import', connectionId, sourceLabel: shown, targetLabel: targetRoot,
    planTitle: t('Import preview {0}', targetRoot), question: t('Import into {0}?', targetRoot), confirmLabel: t('Import'),
    showPlan: !preset, confirmed: preset?.confirmed,
  });
}
