// The one way a message reaches the user as a notification or a modal dialog. Every message is made literal here
// (links inert, hidden characters visible): the sentences are ours, but the names and data in them are not, and a
// notification renders `[text](command:…)` as a link that runs the command.
import * as vscode from 'vscode';
import { iconSafe, linkSafe, shown } from './untrustedText';

export type Severity = 'info' | 'warning' | 'error';

export interface ShownMessage {
  /** Counts every message shown in this window, so a reader can ask for those after a point. */
  seq: number;
  /** notification and modal render links; statusBar renders icons. */
  surface: 'notification' | 'modal' | 'statusBar';
  severity: Severity;
  message: string;
  detail?: string;
  buttons: string[];
}

/** The latest messages as they were handed to VS Code, newest last: what in-host tests check the user saw. */
export interface ShownMessages {
  readonly all: ShownMessage[];
  readonly failures: ShownMessage[];
}

const KEPT = 30;
let recorded: ShownMessages | undefined;
let shownSoFar = 0;

/** Starts keeping the latest messages. Only activate() calls it, and only when the extension runs under tests. */
export function recordShownMessages(): ShownMessages {
  recorded ??= { all: [], failures: [] };
  return recorded;
}

function record(entry: ShownMessage): void {
  if (!recorded) return;
  for (const list of entry.severity === 'error' ? [recorded.all, recorded.failures] : [recorded.all]) {
    list.push(entry);
    if (list.length > KEPT) list.shift();
  }
}

type Show = (message: string, options: vscode.MessageOptions, ...items: string[]) => Thenable<string | undefined>;
const SHOW = { info: 'showInformationMessage', warning: 'showWarningMessage', error: 'showErrorMessage' } as const;

/**
 * A dialog's detail: one text, or lines of our own making. Each line is made visible on its own, so the line breaks
 * between them stay breaks while one inside a value (data, an ACL id) is written out like any hidden character.
 */
export type Detail = string | readonly string[];

function shownDetail(detail: Detail): string {
  return typeof detail === 'string' ? shown(detail) : detail.map(shown).join('\n');
}

function present(severity: Severity, message: string, modal: boolean, detail: Detail | undefined, buttons: string[]): Thenable<string | undefined> {
  // Modal dialogs show plain text (no links), so only hidden characters need writing out there.
  const entry: ShownMessage = { seq: ++shownSoFar, surface: modal ? 'modal' : 'notification', severity, message: modal ? shown(message) : linkSafe(message), detail: detail === undefined ? undefined : shownDetail(detail), buttons };
  record(entry);
  const options: vscode.MessageOptions = modal ? { modal: true, detail: entry.detail } : {};
  // Looked up at each call (not kept from load time), so whoever wraps VS Code's window API sees every message.
  return (vscode.window[SHOW[severity]] as Show).call(vscode.window, entry.message, options, ...buttons);
}

/** A notification; resolves to the button chosen, if any. */
export function notify(severity: Severity, message: string, ...buttons: string[]): Thenable<string | undefined> {
  return present(severity, message, false, undefined, buttons);
}

export const info = (message: string, ...buttons: string[]) => notify('info', message, ...buttons);
export const warn = (message: string, ...buttons: string[]) => notify('warning', message, ...buttons);
export const fail = (message: string, ...buttons: string[]) => notify('error', message, ...buttons);

/** A modal dialog; VS Code adds Cancel. Resolves to the button chosen, undefined when cancelled. */
export function ask(severity: Severity, message: string, detail: Detail | undefined, ...buttons: string[]): Thenable<string | undefined> {
  return present(severity, message, true, detail, buttons);
}

/** A short message in the status bar (it renders `$(name)` as icons: only `icon` becomes one). */
export function flash(message: string, icon?: string): vscode.Disposable {
  const text = (icon ? `$(${icon}) ` : '') + iconSafe(message);
  record({ seq: ++shownSoFar, surface: 'statusBar', severity: 'info', message: text, buttons: [] });
  return vscode.window.setStatusBarMessage(text, 5000);
}
