// Shows a failed write as a sentence naming the path; a missing permission offers "Add Credentials…" at once.
import * as vscode from 'vscode';
import type { WriteFailure } from '../../zk/write';
import { fail } from '../common/notifier';
import { log } from '../common/log';
import { describeWriteFailure } from '../common/failureTexts';
import { Command } from './commandIds';

const t = vscode.l10n.t;

/** Any refusal sentence (bad input, a file that is not an export) as an error notification. */
export function showProblem(message: string): void {
  void fail(message);
}

export async function showWriteFailure(connectionId: string, failure: WriteFailure, extraButtons: string[] = []): Promise<string | undefined> {
  const message = describeWriteFailure(failure);
  log().warn(`${failure.operation} ${failure.path}: ${failure.code}`);
  const addCredentials = t('Add Credentials…');
  const buttons = failure.code === 'noAuth' ? [addCredentials, ...extraButtons] : extraButtons;
  const choice = await fail(message, ...buttons);
  if (choice === addCredentials) await vscode.commands.executeCommand(Command.addCredentials, connectionId);
  return choice;
}
