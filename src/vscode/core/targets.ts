// What a command works on: the tree node it was invoked on (or the selected nodes), a data document's URI, or —
// from the palette — a connection and a path the user types.
import * as vscode from 'vscode';
import { askZnodePath } from '../common/askZnodePath';
import { pickConnection } from './pickConnection';
import { parseLocation, ZNODE_SCHEME } from '../common/znodeUriPath';
import type { Core } from './core';
import { isPathNode, ZnodeNode } from '../../zk/tree/treeNodes';

export interface NodeTarget {
  connectionId: string;
  path: string;
}

export function isNodeTarget(arg: unknown): arg is NodeTarget {
  return !!arg && typeof arg === 'object' && typeof (arg as NodeTarget).connectionId === 'string' && typeof (arg as NodeTarget).path === 'string';
}

/** The node of a tree argument, a `zooscope:` URI or a `{ connectionId, path }`. */
export function explicitTarget(arg: unknown): NodeTarget | undefined {
  if (isPathNode(arg)) return { connectionId: arg.connectionId, path: arg.path };
  if (arg instanceof vscode.Uri && arg.scheme === ZNODE_SCHEME) {
    const location = parseLocation(arg.path, arg.query);
    if (location) return { connectionId: location.connectionId, path: location.path };
  }
  if (isNodeTarget(arg)) return { connectionId: arg.connectionId, path: arg.path };
  return undefined;
}

/** The node of the command's argument, else the explorer's selection; undefined when there is none. */
export function nodeTarget(core: Core, arg: unknown): NodeTarget | undefined {
  const explicit = explicitTarget(arg);
  if (explicit) return explicit;
  const selected = core.view.selection[0];
  return isPathNode(selected) ? { connectionId: selected.connectionId, path: selected.path } : undefined;
}

/**
 * The node a command is about: its argument, or — from the palette — a connection and a path the user types
 * (starting from the explorer's selection).
 */
export async function nodeTargetOrAsk(core: Core, arg: unknown, title: string): Promise<NodeTarget | undefined> {
  const given = explicitTarget(arg);
  if (given) return given;
  const connectionId = await pickConnection(core, arg, false);
  if (!connectionId) return undefined;
  const selected = nodeTarget(core, undefined);
  const path = await askZnodePath(undefined, { title, value: selected?.connectionId === connectionId ? selected.path : '/' });
  return path === undefined ? undefined : { connectionId, path };
}

/** The znodes a context-menu command got: VS Code passes (clicked node, all selected nodes). */
export function selectedZnodes(core: Core, node: unknown, nodes: unknown): ZnodeNode[] {
  const list = Array.isArray(nodes) && nodes.length > 0 ? nodes : node !== undefined ? [node] : core.view.selection;
  return list.filter((n): n is ZnodeNode => isPathNode(n) && n.kind === 'znode');
}
