// Connections: add, edit and remove saved connections (passwords in SecretStorage), connect and disconnect.
import type * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withContext } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { addConnection, connect, disconnect, editConnection, removeConnection } from './connectionCommands';

export function register(_context: vscode.ExtensionContext, core: Core): Registered {
  return {
    api: undefined,
    parts: {},
    disposables: registerCommands({
      [Command.addConnection]: withContext(core, addConnection),
      [Command.editConnection]: withContext(core, editConnection),
      [Command.removeConnection]: withContext(core, removeConnection),
      [Command.connect]: withContext(core, connect),
      [Command.disconnect]: withContext(core, disconnect),
    }),
  };
}
