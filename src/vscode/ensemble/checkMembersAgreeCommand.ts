// "Check Members Agree": asks every member of a connection's ensemble, with progress and cancel, and opens the
// side-by-side result as a read-only report. Returns the report's text (the in-host test reads it).
import * as vscode from 'vscode';
import type { Core } from '../core/core';
import { pickConnection } from '../core/pickConnection';
import { withCancellableProgress } from '../common/progress';
import { adminPortOf } from '../core/settings';
import type { AgreementResult } from '../../zk/servers/agreementRules';
import { checkEnsemble } from '../../zk/servers/consistencyCheck';
import type { SavedConnection } from '../core/savedConnection';
import { agreementReport } from './agreementReport';
import { agreementThresholds } from './agreementSettings';
import { EnsembleConnectionNode } from './ensembleItems';
import { memberAccess } from './memberAccess';

const t = vscode.l10n.t;

/** The saved connection a command of the Ensemble view is about: its row, an id, or one the user picks. */
export async function ensembleConnection(core: Core, target: unknown): Promise<SavedConnection | undefined> {
  const id = target instanceof EnsembleConnectionNode ? target.connectionId : await pickConnection(core, target);
  return id === undefined ? undefined : core.store.get(id);
}

export function isCancel(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** The check itself, with the connection's TLS, bastion, AdminServer port and configured members. */
export async function checkConnection(core: Core, saved: SavedConnection, signal: AbortSignal): Promise<AgreementResult> {
  const access = await memberAccess(core, saved.id, saved.connectString, saved.name);
  return checkEnsemble(saved.connectString, { ...access, adminPort: adminPortOf(saved), thresholds: agreementThresholds(), signal });
}

export async function checkMembersAgree(core: Core, target?: unknown): Promise<string | undefined> {
  const saved = await ensembleConnection(core, target);
  if (!saved) return undefined;
  try {
    const result = await withCancellableProgress(t('Asking every member of {0}', saved.name), (signal) => checkConnection(core, saved, signal), 'zooscope.ensemble');
    const text = agreementReport(saved.name, result);
    await core.reports.show(t('Members of {0}', saved.name), text);
    return text;
  } catch (error) {
    if (isCancel(error)) return undefined;
    throw error;
  }
}
