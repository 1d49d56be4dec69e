// A tree rebuilt from the servers' logs as it was at a moment (serverLogs/treeAtMoment.ts), browsed as the live tree
// is: the same ChildListing reads it (paging, natural order, filter, Stats for the shown page only), through a
// ChildReader over the replayed nodes that tells each Stat as a server tells a client. Nothing changes it: no
// watches, and no writer can reach it.
import { ZkError } from '../errors';
import { replayedStat, type ReplayedTree } from '../serverLogs/replayedTree';
import { baseName, parentPath } from '../paths';
import { ChildListing, type ChildReader, type ListingOptions } from './childListing';
import { resolveThrough, type BrowsedTree } from './browsedTree';
import { type PathNode, type PastRootNode, ZnodeNode } from './treeNodes';

/** The replayed nodes read as a session reads a server's (getChildren with the node's Stat, exists). */
export function replayedReader(tree: ReplayedTree): ChildReader {
  return {
    getChildren: async (path) => {
      const node = tree.node(path);
      if (!node) throw new ZkError('noNode', 'getChildren', path);
      return { children: [...node.children], stat: replayedStat(node) };
    },
    exists: async (path) => {
      const node = tree.node(path);
      return node ? replayedStat(node) : undefined;
    },
  };
}

export class PastTree implements BrowsedTree {
  private readonly listings = new Map<string, ChildListing<ZnodeNode>>();
  private readonly reader: ChildReader;

  constructor(readonly root: PastRootNode, readonly replayed: ReplayedTree, private readonly options: () => ListingOptions) {
    this.reader = replayedReader(replayed);
  }

  nodeAt(path: string): PathNode | undefined {
    if (path === this.root.path) return this.root;
    const parent = parentPath(path);
    return parent === undefined ? undefined : this.listings.get(parent)?.entry(baseName(path));
  }

  listing(path: string): ChildListing<ZnodeNode> | undefined {
    return this.listings.get(path);
  }

  async openListing(element: PathNode): Promise<ChildListing<ZnodeNode>> {
    const parent = this.nodeAt(element.path) ?? element;
    let listing = this.listings.get(element.path);
    if (!listing) {
      const { pageSize, window } = this.options();
      listing = new ChildListing(this.reader, element.path, { pageSize, window },
        (name, childPath, stat) => new ZnodeNode(this.root.connectionId, childPath, name, stat, parent));
      this.listings.set(element.path, listing);
    }
    if (!listing.loaded) await listing.reload();
    return listing;
  }

  resolve(path: string): Promise<PathNode | undefined> {
    return resolveThrough(this, path);
  }

  collapse(path: string): void {
    const prefix = path === '/' ? '/' : path + '/';
    for (const [listed, listing] of [...this.listings]) {
      if (listed !== path && !listed.startsWith(prefix)) continue;
      if (listing.filter) listing.loaded = false;
      else this.listings.delete(listed);
    }
  }

  /** The past does not change: nothing to read again. */
  async refresh(): Promise<void> {}

  dispose(): void {
    this.listings.clear();
  }
}
