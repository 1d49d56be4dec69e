// Nodes: create (every mode), delete (one, several, or a subtree after a preview), ACLs and credentials.
import type * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withContext } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { addCredentials } from './addCredentialsCommand';
import { createNode } from './createNodeCommand';
import { deleteNodes } from './deleteCommand';
import { deleteRecursively } from './deleteRecursiveCommand';
import { editAcl } from './editAclCommand';

export function register(_context: vscode.ExtensionContext, core: Core): Registered {
  return {
    api: undefined,
    parts: {},
    disposables: registerCommands({
      [Command.createNode]: withContext(core, createNode),
      [Command.delete]: withContext(core, deleteNodes),
      [Command.deleteRecursive]: withContext(core, deleteRecursively),
      [Command.editAcl]: withContext(core, editAcl),
      [Command.addCredentials]: withContext(core, addCredentials),
    }),
  };
}
