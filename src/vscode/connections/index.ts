// Connections: add, edit and remove saved connections (passwords in SecretStorage), connect and disconnect.
import type * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withContext, withPresets } from '../core/commands';
import type { ConnectionSecrets, SavedConnection } from '../core/connectionStore';
import type { Core, Registered } from '../core/core';
import { addConnection, addConnectionPreset, connect, disconnect, editConnection, removeConnection } from './connectionCommands';

/** Adding a connection given in full and removing one unasked: only for the test API. */
function presetCommands(core: Core) {
  return {
    addConnection: withPresets(Command.addConnection, (preset: SavedConnection & ConnectionSecrets) => addConnectionPreset(core, preset)),
    removeConnection: withPresets(Command.removeConnection, (target: unknown, confirmed?: boolean) => removeConnection(core, target, confirmed)),
  };
}

export type ConnectionCommands = ReturnType<typeof presetCommands>;

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, { commands: ConnectionCommands }> {
  return {
    api: undefined,
    parts: { commands: presetCommands(core) },
    disposables: registerCommands({
      [Command.addConnection]: () => addConnection(core),
      [Command.editConnection]: withContext(core, editConnection),
      [Command.removeConnection]: (target) => removeConnection(core, target),
      [Command.connect]: withContext(core, connect),
      [Command.disconnect]: withContext(core, disconnect),
    }),
  };
}
