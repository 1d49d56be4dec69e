// Shows a path in the explorer, selected: its parent is re-read first, so a node that just got its first child
// can expand to it.
import { parentPath } from '../../zk/paths';
import type { Core } from './core';
import type { PathNode, TreeNode } from '../../zk/tree/treeNodes';

export async function revealPath(core: Core, connectionId: string, path: string): Promise<PathNode | undefined> {
  const tree = core.tree.treeFor(connectionId);
  if (!tree) return undefined;
  try {
    const parent = parentPath(path);
    const parentNode = parent !== undefined ? await tree.resolve(parent) : undefined;
    if (parentNode) await core.tree.refresh(parentNode);
    const node = await tree.resolve(path);
    if (node) await core.view.reveal(node, { select: true, focus: true, expand: false });
    return node;
  } catch {
    return undefined; // gone again meanwhile: nothing to show
  }
}

/** Re-reads the nodes whose children changed (parents of deleted or created nodes) that the explorer shows. */
export async function refreshParents(core: Core, connectionId: string, paths: Iterable<string>): Promise<void> {
  const tree = core.tree.treeFor(connectionId);
  if (!tree) return;
  const parents = new Set<string>();
  for (const path of paths) {
    const parent = parentPath(path);
    if (parent !== undefined) parents.add(parent);
  }
  for (const parent of parents) {
    const node = tree.nodeAt(parent);
    if (node) await core.tree.refresh(node).catch(() => undefined);
  }
}

/**
 * Reveals any path of a connected tree, selected and focused, loading its ancestors. Undefined when the path does
 * not exist. Ancestors open one by one, root first: a node redrawn while a single deep reveal is under way (the
 * root as the connection's state changes, a folder as it turns out to hold a lock queue) makes it land nowhere.
 */
export async function revealWithAncestors(core: Core, connectionId: string, path: string): Promise<PathNode | undefined> {
  const node = await core.tree.treeFor(connectionId)?.resolve(path);
  if (!node) return undefined;
  const ancestors: TreeNode[] = [];
  for (let up = core.tree.getParent(node); up; up = core.tree.getParent(up)) ancestors.unshift(up);
  for (const ancestor of ancestors) await core.view.reveal(ancestor, { expand: true });
  await core.view.reveal(node, { select: true, focus: true, expand: false });
  return node;
}
