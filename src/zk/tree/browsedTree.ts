// What the explorer browses under a root: the live tree of a connection (connectionTree.ts) or a tree rebuilt from
// the servers' logs at a past moment (pastTree.ts). Both list children through a ChildListing (the same paging,
// natural order and filter), so the view treats them alike; only the live one watches and writes.
import { baseName, parentPath } from '../paths';
import type { ChildListing } from './childListing';
import type { ConnectionNode, PathNode, ZnodeNode } from './treeNodes';

export interface BrowsedTree {
  readonly root: ConnectionNode;
  /** The element of a path whose parent is listed (and its Stat read), or the root. */
  nodeAt(path: string): PathNode | undefined;
  listing(path: string): ChildListing<ZnodeNode> | undefined;
  /** The listing of `element`'s children, loaded; its entries are the child elements. */
  openListing(element: PathNode): Promise<ChildListing<ZnodeNode>>;
  /** An element for any existing path (for reveal), built from its ancestors down. */
  resolve(path: string): Promise<PathNode | undefined>;
  /** Collapsed: the listings below are forgotten (a 100k-name list is big). */
  collapse(path: string): void;
  /** Re-reads a node's children and its Stat. */
  refresh(path: string): Promise<void>;
  dispose(): void;
}

/** BrowsedTree.resolve, the same for both trees: each ancestor listed, the name paged into view. */
export async function resolveThrough(tree: BrowsedTree, path: string): Promise<PathNode | undefined> {
  if (path === '/') return tree.root;
  const parent = await resolveThrough(tree, parentPath(path) ?? '/');
  if (!parent) return undefined;
  const listing = await tree.openListing(parent);
  if (!listing.showName(baseName(path))) {
    if (listing.filter) listing.setFilter(undefined);
    await listing.reload();
    if (!listing.showName(baseName(path))) return undefined;
  }
  // Reads the shown page's Stats, this child's among them.
  await listing.entries();
  return listing.entry(baseName(path));
}
