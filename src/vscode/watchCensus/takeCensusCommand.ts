// "Take Watch Census": asks every member of a connected connection who watches what (one member at a time, read-only
// commands), with progress and cancel. When the members hold many watches, what the listing costs is asked first.
import * as vscode from 'vscode';
import { ViewCommand } from '../core/commandIds';
import type { Core } from '../core/core';
import { pickConnection } from '../core/pickConnection';
import { adminPortOf } from '../core/settings';
import { withCancellableProgress } from '../common/progress';
import { ask, info } from '../common/notifier';
import { censusOfSession, MemberCost } from '../../zk/census';
import type { CensusProvider } from './censusProvider';

const t = vscode.l10n.t;

/** From this many watches in all, the user is asked before the members list them. */
export const CONFIRM_CENSUS_WATCHES = 100_000;

async function costAccepted(costs: readonly MemberCost[]): Promise<boolean> {
  const total = costs.reduce((sum, c) => sum + (c.watchCount ?? 0), 0);
  if (total < CONFIRM_CENSUS_WATCHES) return true;
  const each = costs.map((c) => `${c.server}: ${c.watchCount === undefined ? '?' : c.watchCount.toLocaleString(vscode.env.language)}`).join('\n');
  const go = t('Take Census');
  const answer = await ask('warning', t('The members hold {0} watches. Each will write its data watches out in turn, the most expensive answer a server gives. Take the census?', total.toLocaleString(vscode.env.language)), each, go);
  return answer === go;
}

export async function takeWatchCensus(core: Core, provider: CensusProvider, target?: unknown): Promise<void> {
  const id = await pickConnection(core, target, true);
  if (id === undefined) return;
  const live = core.connections.get(id);
  const saved = core.store.get(id);
  if (!live || !saved || core.connections.state(id) !== 'connected') {
    void info(t('Connect to {0} first: the census reads its lock queues through the session.', saved?.name ?? id));
    return;
  }
  try {
    const census = await withCancellableProgress(t('Taking the watch census of {0}', saved.name), (signal) => censusOfSession(live.session, {
      adminPort: adminPortOf(saved), signal, beforeListing: costAccepted,
    }), 'zooscope.watchCensus');
    if (!census) return;
    provider.show({ connectionId: id, connectionName: saved.name, chroot: live.session.parsed.chroot, census });
    await vscode.commands.executeCommand(ViewCommand.focusWatchCensus);
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') return;
    throw error;
  }
}
