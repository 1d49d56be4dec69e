// "Copy To…" and "Mirror To…": the node's subtree onto another path or connection. The plan (creates, data
// changes, ACL changes and, for a mirror, deletes) is shown as a document and confirmed in a modal dialog before
// anything is written; writes are version-checked against what the plan read, with progress and cancel. After an
// interruption, running the command again plans and writes only what is left (copyApply.ts, which Import… shares).
import * as vscode from 'vscode';
import { planCopy } from '../../zk/compare';
import { withCancellableProgress } from '../common/progress';
import { pickItem } from '../common/quickInput';
import type { Core } from '../core/core';
import { showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { nodeTargetOrAsk } from '../core/targets';
import { applyCopyPlan, CopyResult } from './copyApply';
import { openSide, pickSide, sideLabel, SidePreset } from './pickSide';

const t = vscode.l10n.t;

export interface CopyPreset {
  target: SidePreset;
  /** Copy ACLs (default yes). */
  acls?: boolean;
  confirmed?: boolean;
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
  const planTitle = mirror ? t('Mirror plan {0}', to.path) : t('Copy plan {0}', to.path);
  return applyCopyPlan(core, plan, {
    title, operation: mirror ? 'mirror' : 'copy', connectionId: to.connectionId, sourceLabel, targetLabel, planTitle,
    question: mirror ? t('Mirror onto {0}?', targetLabel) : t('Copy onto {0}?', targetLabel), confirmLabel: mirror ? t('Mirror') : t('Copy'),
    showPlan: !preset, confirmed: preset?.confirmed,
  });
}
