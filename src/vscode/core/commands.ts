// The one way a command runs: every handler is registered here, and a failure it does not handle itself is
// described in words, logged and shown through the notifier (so no command shows a raw, possibly hostile, error
// text, and none needs its own catch-all).
import * as vscode from 'vscode';
import { log } from '../common/log';
import { describeError } from '../common/messages';
import { fail } from '../common/notifier';
import type { CommandId } from './commandIds';

// Handlers take what VS Code passes (a tree node, a URI, arguments from another feature): checked inside each.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandHandler = (...args: any[]) => unknown;
export type CommandTable = Partial<Record<CommandId, CommandHandler>>;

/** Describes, logs and shows a failure that escaped a command. */
export function reportCommandFailure(id: CommandId, error: unknown): void {
  const message = describeError(error);
  log().error(`${id} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
  void fail(message);
}

export function registerCommand(id: CommandId, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      reportCommandFailure(id, error);
      return undefined;
    }
  });
}

export function registerCommands(table: CommandTable): vscode.Disposable[] {
  return Object.entries(table).map(([id, handler]) => registerCommand(id as CommandId, handler as CommandHandler));
}

export function runCommand<T = unknown>(id: CommandId, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}

/** A handler for a command function that takes its feature's context first and VS Code's arguments after it. */
export function withContext<C, A extends unknown[]>(context: C, command: (context: C, ...args: A) => unknown): CommandHandler {
  return (...args: unknown[]) => command(context, ...(args as A));
}
