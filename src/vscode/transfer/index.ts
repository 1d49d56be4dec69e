// Transfer: a subtree exported to a JSON file, and imported from one after a preview.
import type * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { exportTree } from './exportCommand';
import { importTree, ImportPreset } from './importCommand';

/** The commands with the file (and answers) given, arguments as they were: only for the test API. */
function presetCommands(core: Core) {
  return {
    exportSubtree: withPresets(Command.exportSubtree, (target: unknown, preset?: { file: string }) => exportTree(core, target, preset)),
    importSubtree: withPresets(Command.importSubtree, (target: unknown, preset?: ImportPreset) => importTree(core, target, preset)),
  };
}

export type TransferCommands = ReturnType<typeof presetCommands>;

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, { commands: TransferCommands }> {
  return {
    api: undefined,
    parts: { commands: presetCommands(core) },
    disposables: registerCommands({
      // Only the target: a file or an answer comes from the dialogs, never from whoever ran the command.
      [Command.exportSubtree]: (target) => exportTree(core, target),
      [Command.importSubtree]: (target) => importTree(core, target),
    }),
  };
}
