// What the lock-queue panel's buttons do: reveal a node in the tree, acquire or release through the lock
// commands (registered elsewhere), and force-release a holder by deleting its node after a modal confirmation.
import * as vscode from 'vscode';
import { isZkError } from '../../zk/errors';
import type { LockAnalysis, Participant } from '../../zk/analysis/model';
import { hex, nodeKind } from '../../zk/stat';
import type { ConnectionManager } from '../core/connectionManager';
import { log } from '../common/log';
import { describeError, describeWriteFailure } from '../common/messages';
import { confirmIrreversible } from '../common/confirmIrreversible';
import { writerOf } from '../common/liveWriter';

const t = vscode.l10n.t;

export const ACQUIRE_COMMAND = 'zooscope.acquireLock';
export const RELEASE_COMMAND = 'zooscope.releaseLock';

export interface ActionResult {
  ok: boolean;
  message?: string;
}

export function findParticipant(analysis: LockAnalysis | undefined, path: string): Participant | undefined {
  for (const queue of analysis?.queues ?? []) {
    const found = queue.participants.find((p) => p.path === path);
    if (found) return found;
  }
  return undefined;
}

export async function registeredLockCommands(): Promise<{ acquire: boolean; release: boolean }> {
  const all = new Set(await vscode.commands.getCommands(true));
  return { acquire: all.has(ACQUIRE_COMMAND), release: all.has(RELEASE_COMMAND) };
}

export async function revealNode(connectionId: string, path: string): Promise<ActionResult> {
  const node = await vscode.commands.executeCommand('zooscope.goToPath', connectionId, path);
  return { ok: node !== undefined };
}

/** Runs a lock command (src/vscode/heldLocks) with `{ connectionId, path }`, as they take it from this panel. */
async function runLockCommand(command: string, connectionId: string, path: string): Promise<ActionResult> {
  try {
    const result = await vscode.commands.executeCommand<unknown>(command, { connectionId, path });
    // Acquire answers undefined and release false when nothing was done (a question cancelled, nothing held).
    return { ok: result !== undefined && result !== false };
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
}

export const acquireHere = (connectionId: string, queuePath: string) => runLockCommand(ACQUIRE_COMMAND, connectionId, queuePath);
export const releaseOurs = (connectionId: string, path: string) => runLockCommand(RELEASE_COMMAND, connectionId, path);

/**
 * Deletes a holder's node (only that node, at the version seen), after a modal confirmation naming its session
 * and client. The owner must still be the session shown: a node that changed hands is left alone.
 */
export async function forceRelease(connections: ConnectionManager, connectionId: string, path: string, shown: Participant | undefined): Promise<ActionResult> {
  const live = connections.get(connectionId);
  if (!live) return { ok: false, message: t('Not connected.') };
  // Through the write layer like every other write: its guards (read-only, protected paths, version) apply here too.
  const writer = writerOf(live);
  if (writer.readOnly) return { ok: false, message: describeWriteFailure({ code: 'readOnly', operation: 'delete', path }) };
  try {
    const stat = await live.session.exists(path);
    if (!stat) return { ok: false, message: t('{0} no longer exists.', path) };
    const owner = nodeKind(stat) === 'ephemeral' ? hex(stat.ephemeralOwner) : undefined;
    const session = owner ?? t('none (persistent node)');
    const client = shown?.clientAddress ?? t('unknown');
    const confirmed = await confirmIrreversible({
      message: t('Force-release the lock held by session {0} (client {1})?', session, client),
      detail: t('This deletes {0} (version {1}) and nothing else. The holder is not told: if it still runs, it will go on as if it held the lock while the next waiter takes it.', path, stat.version),
      confirmLabel: t('Delete Lock Node'),
      liveOfOthers: owner !== undefined && stat.ephemeralOwner !== BigInt(live.session.sessionId ?? -1) ? 1 : 0,
    });
    if (!confirmed) return { ok: false };
    if (shown?.session !== undefined && owner !== shown.session) {
      return { ok: false, message: t('{0} now belongs to session {1}, not {2}: nothing was deleted.', path, session, shown.session) };
    }
    const deleted = await writer.delete(path, stat.version);
    if (!deleted.ok) {
      return { ok: false, message: deleted.failure.code === 'badVersion' ? t('{0} changed since it was shown: nothing was deleted.', path) : describeWriteFailure(deleted.failure) };
    }
    log().info(`force-released ${path} (session ${session}, client ${client}, version ${stat.version})`);
    return { ok: true };
  } catch (error) {
    if (isZkError(error, 'badVersion')) return { ok: false, message: t('{0} changed since it was shown: nothing was deleted.', path) };
    return { ok: false, message: describeError(error) };
  }
}
