// Shows a failed write as a sentence naming the path; a missing permission offers "Add Credentials…" at once.
import * as vscode from 'vscode';
import type { WriteFailure } from '../../zk/write';
import { log } from '../log';
import { describeWriteFailure } from '../messages';

const t = vscode.l10n.t;

/** The last failures shown (message and buttons), newest last: what in-host tests check the user was told. */
export const shownFailures: { message: string; buttons: string[] }[] = [];

/** Any refusal sentence (bad input, a file that is not an export) as an error notification. */
export function showProblem(message: string): void {
  shownFailures.push({ message, buttons: [] });
  if (shownFailures.length > 20) shownFailures.shift();
  void vscode.window.showErrorMessage(message);
}

export async function showWriteFailure(connectionId: string, failure: WriteFailure, extraButtons: string[] = []): Promise<string | undefined> {
  const message = describeWriteFailure(failure);
  log().warn(`${failure.operation} ${failure.path}: ${failure.code}`);
  const addCredentials = t('Add Credentials…');
  const buttons = failure.code === 'noAuth' ? [addCredentials, ...extraButtons] : extraButtons;
  shownFailures.push({ message, buttons });
  if (shownFailures.length > 20) shownFailures.shift();
  const choice = await vscode.window.showErrorMessage(message, ...buttons);
  if (choice === addCredentials) await vscode.commands.executeCommand('zooscope.addCredentials', connectionId);
  return choice;
}
