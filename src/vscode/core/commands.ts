// The one way a command runs: every handler is registered here, and a failure it does not handle itself is
// described in words, logged and shown through the notifier (so no command shows a raw, possibly hostile, error
// text, and none needs its own catch-all).
import * as vscode from 'vscode';
import { log } from '../common/log';
import { describeError } from '../common/failureTexts';
import { fail, info } from '../common/notifier';
import type { CommandId } from './commandIds';
import { droppedArguments, vscodeArguments } from './commandArguments';
import { COMMANDS_ON_PAST_TREES, holdsPastTarget } from './pastTargets';

/**
 * A registered command gets only what VS Code passes: the row, URI or connection id it runs on (checked inside each
 * handler), and the selected rows. Anything more is dropped before it runs: another extension or a command link may
 * run our commands with any arguments, so an answer that skips a question or names a file (a test's preset) reaches a
 * command only through the test API (`commands`, see withPresets).
 */
export type CommandHandler = (target?: unknown, selection?: readonly unknown[]) => unknown;
export type CommandTable = Partial<Record<CommandId, CommandHandler>>;


/** Describes, logs and shows a failure that escaped a command. */
export function reportCommandFailure(id: CommandId, error: unknown): void {
  const message = describeError(error);
  log().error(`${id} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
  void fail(message);
}

/** Commands on the rows' menus only (not also in a view's title bar), by id: see rowLost. */
let rowMenuCommands: ReadonlySet<string> = new Set();

interface MenuEntry { command?: string; submenu?: string }

/** Reads the commands on the rows' context menus (and their submenus) from the extension's manifest. */
export function learnRowMenuCommands(packageJson: { contributes?: { menus?: Record<string, MenuEntry[]> } }): void {
  const menus = packageJson.contributes?.menus ?? {};
  const rowEntries = [...(menus['view/item/context'] ?? [])];
  for (const entry of menus['view/item/context'] ?? []) if (entry.submenu) rowEntries.push(...(menus[entry.submenu] ?? []));
  const inTitle = new Set((menus['view/title'] ?? []).map((entry) => entry.command));
  rowMenuCommands = new Set(rowEntries.map((entry) => entry.command).filter((id): id is string => !!id && !inTitle.has(id)));
}

/**
 * A row's menu passes the row it was opened on (and the selection). When the tree redrew that row between the right
 * click and the choice, VS Code no longer knows it and passes undefined in its place (the palette passes nothing).
 * Falling back to the selection would act on another node: the command does nothing and says so.
 */
function rowLost(id: CommandId, args: unknown[]): boolean {
  return rowMenuCommands.has(id) && args.length > 0 && args[0] === undefined;
}

export function registerCommand(id: CommandId, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    if (rowLost(id, args)) {
      log().info(`${id}: its row was redrawn before it ran; nothing done`);
      void info(vscode.l10n.t('The tree was redrawn as you chose this command, so nothing was done. Please choose it again.'));
      return undefined;
    }
    if (!COMMANDS_ON_PAST_TREES.has(id) && holdsPastTarget(args, rowMenuCommands.has(id))) {
      log().info(`${id}: refused on a tree at a past moment (read-only)`);
      void info(vscode.l10n.t('A tree at a past moment is read-only: this command works on live connections only.'));
      return undefined;
    }
    const dropped = droppedArguments(args);
    if (dropped > 0) log().info(`${id}: ${dropped} argument(s) beyond its target and selection ignored`);
    try {
      return await handler(...vscodeArguments(args));
    } catch (error) {
      reportCommandFailure(id, error);
      return undefined;
    }
  });
}

/**
 * A command function with its presets (answers instead of questions), for the test API only: it fails as the
 * registered command does (described, logged and shown), so a test sees what a user would.
 */
export function withPresets<A extends unknown[], R>(id: CommandId, run: (...args: A) => R | Promise<R>): (...args: A) => Promise<R | undefined> {
  return async (...args: A) => {
    try {
      return await run(...args);
    } catch (error) {
      reportCommandFailure(id, error);
      return undefined;
    }
  };
}

export function registerCommands(table: CommandTable): vscode.Disposable[] {
  return Object.entries(table).map(([id, handler]) => registerCommand(id as CommandId, handler as CommandHandler));
}

export function runCommand<T = unknown>(id: CommandId, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}

/** A handler for a command function that takes its feature's context first and VS Code's target and selection after it. */
export function withContext<C>(context: C, command: (context: C, target?: unknown, selection?: readonly unknown[]) => unknown): CommandHandler {
  return (target, selection) => command(context, target, selection);
}
