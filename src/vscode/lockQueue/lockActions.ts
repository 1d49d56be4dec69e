// What the lock-queue panel's buttons do: reveal a node in the tree, acquire or release through this window's
// held locks, and force-release a holder by deleting its node after a modal confirmation.
import * as vscode from 'vscode';
import { isZkError } from '../../zk/errors';
import type { Participant } from '../../shared/lockAnalysis';
import { hex, nodeKind } from '../../zk/stat';
import type { ConnectionManager } from '../core/connectionManager';
import { log } from '../common/log';
import { describeError, describeWriteFailure } from '../common/failureTexts';
import { confirmIrreversible } from '../common/confirmIrreversible';
import { writerOf } from '../core/liveWriter';
import { revealWithAncestors } from '../core/reveal';
import type { Core } from '../core/core';
import type { HeldLocksApi } from '../heldLocks';

const t = vscode.l10n.t;

export interface ActionResult {
  ok: boolean;
  message?: string;
}

export async function revealNode(core: Core, connectionId: string, path: string): Promise<ActionResult> {
  return { ok: (await revealWithAncestors(core, connectionId, path)) !== undefined };
}

// Acquire answers undefined and release false when nothing was done (a question cancelled, nothing held); a failure
// is said in the panel's words.
export async function acquireHere(heldLocks: HeldLocksApi, connectionId: string, queuePath: string): Promise<ActionResult> {
  try {
    return { ok: (await heldLocks.acquire(connectionId, queuePath)) !== undefined };
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
}

export async function releaseOurs(heldLocks: HeldLocksApi, connectionId: string, path: string): Promise<ActionResult> {
  try {
    return { ok: await heldLocks.release(connectionId, path) };
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
}

/**
 * Deletes a holder's node (only that node, at the version seen), after a modal confirmation naming its session
 * and client. The owner must still be the session shown (none for a persistent node): a node that changed hands is
 * left alone.
 */
export async function forceRelease(connections: ConnectionManager, connectionId: string, path: string, shown: Participant): Promise<ActionResult> {
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
    const client = shown.clientAddress ?? t('unknown');
    const confirmed = await confirmIrreversible({
      message: t('Force-release the lock held by session {0} (client {1})?', session, client),
      detail: t('This deletes {0} (version {1}) and nothing else. The holder is not told: if it still runs, it will go on as if it held the lock while the next waiter takes it.', path, stat.version),
      confirmLabel: t('Delete Lock Node'),
      liveOfOthers: owner !== undefined && stat.ephemeralOwner !== BigInt(live.session.sessionId ?? -1) ? 1 : 0,
    });
    if (!confirmed) return { ok: false };
    if (owner !== shown.session) {
      return { ok: false, message: t('{0} now belongs to session {1}, not {2}: nothing was deleted.', path, session, shown.session ?? t('none (persistent node)')) };
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
