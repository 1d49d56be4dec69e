// Connections: add, edit and remove saved connections (passwords in SecretStorage), connect and disconnect.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withContext } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { addConnection, connect, disconnect, editConnection, removeConnection } from './connectionCommands';

const t = vscode.l10n.t;

export function register(_context: vscode.ExtensionContext, core: Core): Registered {
  showRestrictedMode(core);
  return {
    api: undefined,
    parts: {},
    disposables: [
      ...registerCommands({
        [Command.addConnection]: withContext(core, addConnection),
        [Command.editConnection]: withContext(core, editConnection),
        [Command.removeConnection]: withContext(core, removeConnection),
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
