// Confirmation of a change that cannot be undone. When it touches what other sessions hold right now (their live
// ephemeral nodes: locks, leaders), Enter alone must not do it: after the dialog the user types how many such nodes
// go, so a reflexive Enter (or a dialog answered by habit) deletes nothing.
import * as vscode from 'vscode';
import { ask, Detail } from './notifier';
import { input } from './quickInput';

const t = vscode.l10n.t;

export interface IrreversibleChange {
  message: string;
  detail?: Detail;
  confirmLabel: string;
  /** Live ephemeral nodes of other sessions among what would go. */
  liveOfOthers: number;
}

export async function confirmIrreversible(change: IrreversibleChange): Promise<boolean> {
  const answer = await ask('warning', change.message, change.detail, change.confirmLabel);
  if (answer !== change.confirmLabel) return false;
  if (change.liveOfOthers === 0) return true;
  return typedConfirmation(change.liveOfOthers);
}

/** An input box that accepts only the number of live nodes; Enter on an empty box keeps everything. */
async function typedConfirmation(count: number): Promise<boolean> {
  const expected = String(count);
  const typed = await input({
    title: t('Other sessions hold {0} of these nodes right now', count),
    prompt: t('They are live locks, leaders or other ephemeral nodes of running clients. Type {0} to delete them anyway; Escape keeps everything.', expected),
    placeHolder: t('Type {0} to confirm', expected),
    ignoreFocusOut: true,
    validateInput: (value) => (value === '' || value.trim() === expected ? undefined : t('Type {0} to confirm, or press Escape.', expected)),
  });
  return typed?.trim() === expected;
}
