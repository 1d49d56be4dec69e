// Transfer: a subtree exported to a JSON file, and imported from one after a preview.
import type * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withContext } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { exportTree } from './exportCommand';
import { importTree } from './importCommand';

export function register(_context: vscode.ExtensionContext, core: Core): Registered {
  return {
    api: undefined,
    parts: {},
    disposables: registerCommands({
      [Command.exportSubtree]: withContext(core, exportTree),
      [Command.importSubtree]: withContext(core, importTree),
    }),
  };
}
