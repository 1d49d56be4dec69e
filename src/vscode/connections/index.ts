// Connections: add, edit and remove saved connections (passwords in SecretStorage), connect and disconnect.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withContext, withPresets } from '../core/commands';
import type { ConnectionSecrets, SavedConnection } from '../core/connectionStore';
import type { Core, Registered } from '../core/core';
import { addConnection, addConnectionPreset, connect, disconnect, editConnection, removeConnection } from './connectionCommands';

const t = vscode.l10n.t;

/** Adding a connection given in full and removing one unasked: only for the test API. */
function presetCommands(core: Core) {
  return {
    addConnection: withPresets(Command.addConnection, (preset: SavedConnection & ConnectionSecrets) => addConnectionPreset(core, preset)),
    removeConnection: withPresets(Command.removeConnection, (target: unknown, confirmed?: boolean) => removeConnection(core, target, confirmed)),
  };
}

export type ConnectionCommands = ReturnType<typeof presetCommands>;

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, { commands: ConnectionCommands }> {
  showRestrictedMode(core);
  return {
    api: undefined,
    parts: { commands: presetCommands(core) },
    disposables: [
      ...registerCommands({
        [Command.addConnection]: () => addConnection(core),
        [Command.editConnection]: withContext(core, editConnection),
        [Command.removeConnection]: (target) => removeConnection(core, target),
        [Command.connect]: withContext(core, connect),
        [Command.disconnect]: withContext(core, disconnect),
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => showRestrictedMode(core)),
    ],
  };
}

/** In Restricted Mode the folder's settings cannot add or change connections: the explorer says so above its roots. */
function showRestrictedMode(core: Core): void {
  const folderOpen = !!vscode.workspace.workspaceFolders?.length || !!vscode.workspace.workspaceFile;
  core.view.message = folderOpen && !vscode.workspace.isTrusted
    ? t('Restricted Mode: connections in this folder\'s settings are ignored; your own connections are shown.')
    : undefined;
}
