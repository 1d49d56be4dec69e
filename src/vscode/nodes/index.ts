// Nodes: create (every mode), delete (one, several, or a subtree after a preview), ACLs and credentials.
import type * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { addCredentials, CredentialsPreset } from './addCredentialsCommand';
import { createNode, CreatePreset } from './createNodeCommand';
import { DeleteOptions, deleteNodes } from './deleteCommand';
import { deleteRecursively, RecursiveDeleteOptions } from './deleteRecursiveCommand';
import { AclPreset, editAcl } from './editAclCommand';

/** The commands with their presets (answers instead of questions), arguments as they were: only for the test API. */
function presetCommands(core: Core) {
  return {
    createNode: withPresets(Command.createNode, (target: unknown, preset?: CreatePreset) => createNode(core, target, preset)),
    delete: withPresets(Command.delete, (node: unknown, nodes: unknown, options?: DeleteOptions) => deleteNodes(core, node, nodes, options)),
    deleteRecursive: withPresets(Command.deleteRecursive, (node: unknown, nodes: unknown, options?: RecursiveDeleteOptions) => deleteRecursively(core, node, nodes, options)),
    editAcl: withPresets(Command.editAcl, (target: unknown, preset?: AclPreset) => editAcl(core, target, preset)),
    addCredentials: withPresets(Command.addCredentials, (target: unknown, preset?: CredentialsPreset) => addCredentials(core, target, preset)),
  };
}

export type NodeCommands = ReturnType<typeof presetCommands>;

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, { commands: NodeCommands }> {
  return {
    api: undefined,
    parts: { commands: presetCommands(core) },
    disposables: registerCommands({
      [Command.createNode]: (target) => createNode(core, target),
      [Command.delete]: (node, nodes) => deleteNodes(core, node, nodes),
      [Command.deleteRecursive]: (node) => deleteRecursively(core, node),
      [Command.editAcl]: (target) => editAcl(core, target),
      [Command.addCredentials]: (target) => addCredentials(core, target),
    }),
  };
}
