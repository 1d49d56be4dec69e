// Transfer: a subtree exported to a JSON file, and imported from one (copied from it by the compare feature's plan).
import type * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { exportTree } from './exportCommand';
import type { CompareApi } from '../compare';
import { importTree, ImportPreset } from './importCommand';

/** The commands with the file (and answers) given, arguments as they were: only for the test API. */
function presetCommands(core: Core, compare: CompareApi) {
  return {
    exportSubtree: withPresets(Command.exportSubtree, (target: unknown, preset?: { file: string }) => exportTree(core, target, preset)),
    importSubtree: withPresets(Command.importSubtree, (target: unknown, preset?: ImportPreset) => importTree(core, compare, target, preset)),
  };
}

export type TransferCommands = ReturnType<typeof presetCommands>;

export function register(_context: vscode.ExtensionContext, core: Core, compare: CompareApi): Registered<undefined, { commands: TransferCommands }> {
  return {
    api: undefined,
    parts: { commands: presetCommands(core, compare) },
    disposables: registerCommands({
      // Only the target: a file or an answer comes from the dialogs, never from whoever ran the command.
      [Command.exportSubtree]: (target) => exportTree(core, target),
      [Command.importSubtree]: (target) => importTree(core, compare, target),
    }),
  };
}
