// What the user is told while taking part in locks: a cancellable progress notification while an attempt waits
// (its place in the queue and the node it waits for, live), a word when it becomes ours, the reason when it fails,
// a warning the moment a lock is lost, and which locks ended when a connection's lock session was closed.
import { ViewCommand } from '../core/commandIds';
import * as vscode from 'vscode';
import type { LockSnapshot } from '../../zk/locks';
import type { ConnectionStore } from '../core/connectionStore';
import { log } from '../common/log';
import { HeldLock, HeldLocks, isHeld, isLive, isUnsure } from './heldLocks';
import { failureText, lostMessage, waitingText } from './lockTexts';
import { fail, flash, info, warn } from '../common/notifier';
import { showProgress } from '../common/progress';

const t = vscode.l10n.t;

const isElection = (s: LockSnapshot) => s.mode === 'election' || s.mode === 'unfairElection';
const stillWaiting = (s: LockSnapshot) => s.state === 'waiting' || s.state === 'acquiring' || (s.state === 'suspended' && !isUnsure(s));

/** Warnings that concern every lock of the window (lost, released with its connection). */
export function registerLockNotifications(locks: HeldLocks, store: ConnectionStore): vscode.Disposable[] {
  const name = (id: string) => store.get(id)?.name ?? id;
  return [
    locks.onDidLose((entry) => {
      // At once and without waiting for an answer: whoever relies on the lock must stop now.
      void warn(lostMessage(entry.snapshot, name(entry.connectionId)), t('Show Held Locks')).then((choice) => {
        if (choice) void vscode.commands.executeCommand(ViewCommand.focusHeldLocks);
      });
    }),
    locks.onDidCloseConnection(({ connectionId, ended }) => {
      void info(ended.length === 1
        ? t('Released the lock {0}: the lock session of "{1}" was closed.', ended[0].snapshot.path, name(connectionId))
        : t('Released {0} locks: the lock session of "{1}" was closed.', ended.length, name(connectionId)));
    }),
  ];
}

/**
 * Follows one new attempt until it holds or ends: a progress notification (cancel = the attempt is cancelled and
 * its node deleted) once it has to wait, then a word when it is ours or why it failed.
 */
export function followAttempt(locks: HeldLocks, entry: HeldLock): void {
  let waitedVisibly = false;
  let progressDone: (() => void) | undefined;
  let report: ((s: LockSnapshot) => void) | undefined;
  const showWaiting = (first: LockSnapshot) => {
    waitedVisibly = true;
    const title = isElection(first) ? t('Waiting to lead {0}', first.path) : t('Waiting for the lock {0}', first.path);
    void showProgress(vscode.ProgressLocation.Notification, title, (progress, token) => {
      token.onCancellationRequested(() => {
        log().info(`lock ${first.path}: wait cancelled by the user`);
        void locks.release(entry);
      });
      report = (s) => progress.report({ message: waitingText(s) });
      report(first);
      return new Promise<void>((resolve) => { progressDone = resolve; });
    });
  };
  const onChange = (s: LockSnapshot) => {
    if (stillWaiting(s)) {
      if (s.state === 'waiting' && !waitedVisibly) showWaiting(s);
      report?.(s);
      return;
    }
    progressDone?.();
    progressDone = undefined;
    report = undefined;
    if (isHeld(s) || !isLive(s)) entry.handle.off('change', onChange);
    if (isHeld(s)) {
      const text = isElection(s) ? t('You lead {0} now.', s.path) : t('You hold the lock {0} now.', s.path);
      if (waitedVisibly) void info(text);
      else {
        // A passing word; gone with the next change (a loss must not sit next to "you hold it").
        const message = flash(text, 'lock');
        entry.handle.once('change', () => message.dispose());
      }
    } else if (s.state === 'failed') {
      void fail(failureText(s));
    }
  };
  entry.handle.on('change', onChange);
  onChange(entry.snapshot);
}
