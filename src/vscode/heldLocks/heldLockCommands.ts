// The commands that take part in locks by hand: Acquire Lock / Read Lock / Write Lock, Join Election, Release,
// Release All, and the Held Locks view's Reveal and Clear. They accept an explorer znode, `{ connectionId, path }`
// (the lock-queue panel), a Held Locks row, or nothing (the palette asks). The lock logic is src/zk/locks'.
import * as vscode from 'vscode';
import type { ConventionId, LockMode, LockSnapshot } from '../../zk/locks';
import { ConnectFailure } from '../../zk/session/session';
import { lockSettings } from '../core/settings';
import { describeConnectFailure, describeError } from '../common/failureTexts';
import type { HeldLocksContext } from './heldLocksContext';
import { revealWithAncestors } from '../core/reveal';
import { isPathNode } from '../../zk/tree/treeNodes';
import { HeldLock, isLive } from './heldLocks';
import { isHeldLockNode } from './heldLocksView';
import { followAttempt } from './lockNotifications';
import { chooseConvention, confirmLockPath, resolveLockTarget } from './lockTarget';
import { modeLabel, stateLabel, waitingText } from './lockTexts';
import { fail, flash, info } from '../common/notifier';
import { pickItem } from '../common/quickInput';
import { showProgress } from '../common/progress';

const t = vscode.l10n.t;

function acquireTitle(mode: LockMode): string {
  switch (mode) {
    case 'read': return t('Acquire Read Lock');
    case 'write': return t('Acquire Write Lock');
    case 'election': case 'unfairElection': return t('Join Election');
    default: return t('Acquire Lock');
  }
}

/**
 * Starts taking part in the lock at the target path and returns its first snapshot at once (it may still wait:
 * a progress notification shows where it stands). Undefined when nothing was started.
 */
export async function acquire(core: HeldLocksContext, mode: LockMode, arg?: unknown): Promise<LockSnapshot | undefined> {
  const target = await resolveLockTarget(core, arg, acquireTitle(mode));
  if (!target) return undefined;
  const { connectionId } = target;
  let path = target.path;
  const saved = core.store.get(connectionId);
  if (!saved) {
    void fail(t('No saved connection "{0}".', connectionId));
    return undefined;
  }
  if (saved.readOnly) {
    void fail(t('"{0}" is a read-only connection: taking a lock creates nodes.', saved.name));
    return undefined;
  }
  const locks = core.heldLocks;
  try {
    const already = locks.list(connectionId).find((e) => e.snapshot.path === path && isLive(e.snapshot));
    let conventionChoice: ConventionId | 'auto' = 'auto';
    if (!already) {
      const manager = await showProgress(vscode.ProgressLocation.Window, t('Opening a lock session to "{0}"…', saved.name),
        async () => {
          const m = await locks.managers.get(connectionId);
          await m?.open();
          return m;
        });
      if (!manager) return undefined;
      const chosenPath = await confirmLockPath(path, mode, await manager.surveyPath(path));
      if (!chosenPath) return undefined;
      path = chosenPath;
      const chosen = await chooseConvention(path, mode, await manager.detectConvention(path));
      if (!chosen) return undefined;
      conventionChoice = chosen;
    }
    const started = await locks.start(connectionId, path, { mode, convention: conventionChoice, positionRefreshMs: lockSettings().pollIntervalMs });
    if (!started) return undefined;
    const s = started.entry.snapshot;
    if (started.repeated) {
      const where = s.state === 'waiting' ? waitingText(s) : stateLabel(s.state);
      void info(t('This window already takes part in {0} ({1}, {2}): it was not queued again.', path, modeLabel(s.mode), where));
    } else {
      followAttempt(locks, started.entry);
    }
    return started.entry.handle.snapshot;
  } catch (error) {
    void fail(error instanceof ConnectFailure ? describeConnectFailure(saved.name, error) : describeError(error));
    return undefined;
  }
}

/** The entry a release/reveal/clear is about: a Held Locks row, a znode or `{ connectionId, path }`, or a pick. */
async function resolveEntry(core: HeldLocksContext, arg: unknown, liveOnly: boolean): Promise<HeldLock | undefined> {
  const locks = core.heldLocks;
  if (isHeldLockNode(arg)) return arg.entry;
  const o = arg as { connectionId?: unknown; path?: unknown } | undefined;
  if (isPathNode(arg) || (typeof o?.connectionId === 'string' && typeof o.path === 'string')) {
    const connectionId = String(o!.connectionId);
    const path = String(o!.path);
    const found = locks.find(connectionId, path);
    if (!found) void info(t('This window takes part in no lock at {0}.', path));
    return found;
  }
  const selected = core.heldLocksView.selection[0];
  if (isHeldLockNode(selected)) return selected.entry;
  const candidates = locks.list().filter((e) => !liveOnly || isLive(e.snapshot));
  if (candidates.length === 0) {
    void info(t('This window takes part in no locks.'));
    return undefined;
  }
  const pick = await pickItem(candidates.map((entry) => ({
    label: entry.snapshot.path, description: core.heldLocksTree.summary(entry), entry,
  })), { placeHolder: t('Choose a lock') });
  return pick?.entry;
}

/** Releases a held lock, or cancels a pending attempt (its node is deleted). Resolves true when it did. */
export async function release(core: HeldLocksContext, arg?: unknown): Promise<boolean> {
  const entry = await resolveEntry(core, arg, true);
  if (!entry) return false;
  const s = entry.snapshot;
  if (!isLive(s)) {
    void info(t('{0} is already {1}.', s.path, stateLabel(s.state)));
    return false;
  }
  try {
    await core.heldLocks.release(entry);
    flash(t('{0}: {1}', s.path, stateLabel(entry.snapshot.state)), 'unlock');
    return true;
  } catch (error) {
    void fail(describeError(error));
    return false;
  }
}

/** Releases every lock and election of the window (held or pending). Resolves with how many. */
export async function releaseAll(core: HeldLocksContext): Promise<number> {
  const count = await core.heldLocks.releaseAll();
  if (count === 0) void info(t('This window takes part in no locks.'));
  else flash(t('Released {0} locks.', count), 'unlock');
  return count;
}

/** Reveals the lock's own node (or its path once the node is gone) in the explorer. */
export async function revealHeldLock(core: HeldLocksContext, arg?: unknown): Promise<unknown> {
  const entry = await resolveEntry(core, arg, false);
  if (!entry) return undefined;
  const s = entry.snapshot;
  return revealWithAncestors(core, entry.connectionId, isLive(s) && s.node ? s.node : s.path);
}

/** Clears an ended entry from the Held Locks view, or every ended entry. */
export function clearHeldLocks(core: HeldLocksContext, arg?: unknown): number {
  return core.heldLocks.clear(isHeldLockNode(arg) ? [arg.entry] : undefined);
}
