// The tree state of one live connection: listings of expanded nodes, one element per path, and a live watch on
// every expanded node (dropped when it collapses). Changes are debounced, re-read, then announced.
// Free of the vscode API on purpose, so benchmarks can drive it outside VS Code.
import { ChildListing } from '../childListing';
import { isZkError } from '../errors';
import { baseName, parentPath } from '../paths';
import type { ZkSession } from '../session';
import type { ZnodeStat } from '../stat';
import type { WatchEvent } from '../watchRegistry';
import { ConnectionNode, PathNode, ZnodeNode } from './treeNodes';
import { HeldWatches } from '../heldWatches';

export interface TreeSettings {
  pageSize: number;
  window: number;
  liveUpdates: boolean;
  debounceMs: number;
}

export class ConnectionTree {
  readonly root: ConnectionNode;
  private readonly listings = new Map<string, ChildListing>();
  private readonly nodes = new Map<string, ZnodeNode>();
  private readonly watches = new HeldWatches();
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; children: boolean; data: boolean; restat: boolean }>();
  private disposed = false;

  constructor(
    root: ConnectionNode,
    readonly session: ZkSession,
    private readonly settings: () => TreeSettings,
    /** Called with the element whose children or look changed, after the new data is in. */
    private readonly changed: (node: PathNode) => void,
    /** Where failures of background refreshes go (the log; a benchmark may pass console.warn). */
    private readonly warn: (message: string) => void,
  ) {
    this.root = root;
  }

  nodeAt(path: string): PathNode | undefined {
    return path === '/' ? this.root : this.nodes.get(path);
  }

  listing(path: string): ChildListing | undefined {
    return this.listings.get(path);
  }

  /** The listing for `path`, loaded, with a live watch set up first so no change slips between the two. */
  async openListing(path: string): Promise<ChildListing> {
    let listing = this.listings.get(path);
    if (!listing) {
      const { pageSize, window } = this.settings();
      listing = new ChildListing(this.session, path, { pageSize, window });
      this.listings.set(path, listing);
    }
    await this.ensureWatch(path);
    if (!listing.loaded) {
      await listing.reload();
      const node = this.adoptOwnStat(path, listing);
      // The node itself is already drawn: redraw it (after VS Code has these children) when its count changed.
      if (node) setTimeout(() => { if (!this.disposed) this.changed(node); }, 0);
    }
    return listing;
  }

  /**
   * A listing also brings the node's own Stat: its element takes it, so the child count shown on the node agrees
   * with the rows listed under it (a collapsed node's count has no watch and may have gone stale). Answers the node
   * when its look changed.
   */
  private adoptOwnStat(path: string, listing: ChildListing): ZnodeNode | undefined {
    const node = this.nodes.get(path);
    const stat = listing.parentStat;
    if (!node || !stat) return undefined;
    const redraw = node.stat.numChildren !== stat.numChildren || node.stat.dataLength !== stat.dataLength;
    node.stat = stat;
    this.listings.get(parentPath(path) ?? '/')?.updateStat(node.name, stat);
    return redraw ? node : undefined;
  }

  /** Elements for listed children, reusing the instances VS Code already knows. */
  nodesFor(parent: PathNode, entries: { name: string; path: string; stat: ZnodeStat }[]): ZnodeNode[] {
    return entries.map((entry) => {
      let node = this.nodes.get(entry.path);
      if (!node || node.parent !== parent) {
        node = new ZnodeNode(this.root.connectionId, entry.path, entry.name, entry.stat, parent);
        this.nodes.set(entry.path, node);
      } else node.stat = entry.stat;
      return node;
    });
  }

  /** An element for any existing path (for reveal), built from its ancestors down. */
  async resolve(path: string): Promise<PathNode | undefined> {
    if (path === '/') return this.root;
    const parentPathValue = parentPath(path) ?? '/';
    const parent = await this.resolve(parentPathValue);
    if (!parent) return undefined;
    const listing = await this.openListing(parentPathValue);
    if (!listing.showName(baseName(path))) {
      if (listing.filter) listing.setFilter(undefined);
      await listing.reload();
      if (!listing.showName(baseName(path))) return undefined;
    }
    const entries = await listing.entries();
    const entry = entries.find((e) => e.path === path);
    return entry ? this.nodesFor(parent, [entry])[0] : undefined;
  }

  /** Collapsed: stop watching it and everything below, and forget the listings (a 100k-name list is big). */
  collapse(path: string): void {
    const prefix = path === '/' ? '/' : path + '/';
    const within = (p: string) => p === path || p.startsWith(prefix);
    this.watches.releaseAll(within);
    for (const [listed, listing] of [...this.listings]) {
      if (!within(listed)) continue;
      // A filter the user set survives collapsing; only its names are dropped.
      if (listing.filter) listing.loaded = false;
      else this.listings.delete(listed);
    }
  }

  /** Re-reads a node's children (and their Stats) now, e.g. for the Refresh command. */
  async refresh(path: string): Promise<void> {
    const listing = this.listings.get(path);
    if (listing) await listing.reload(true);
    await this.restat(path);
  }

  /** Re-reads a shown node's Stat into its element and into its parent's listing (which redraws from it). */
  private async restat(path: string): Promise<void> {
    const node = this.nodes.get(path);
    if (!node) return;
    const stat = await this.session.exists(path);
    if (!stat) return;
    node.stat = stat;
    this.listings.get(parentPath(path) ?? '/')?.updateStat(node.name, stat);
  }

  get watchedPaths(): string[] {
    return this.watches.keys();
  }

  dispose(): void {
    this.disposed = true;
    this.watches.releaseAll();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }

  private async ensureWatch(path: string): Promise<void> {
    if (!this.settings().liveUpdates && !this.watches.has(path)) return;
    await this.watches.hold(path, () => this.session.watches.watch(path, (event) => this.onWatchEvent(event)), (error) => {
      if (!isZkError(error, 'noNode')) this.warn(`watch ${path}: ${String(error)}`);
    });
  }

  private onWatchEvent(event: WatchEvent): void {
    if (this.disposed) return;
    const entry = this.pending.get(event.path) ?? { timer: undefined as unknown as NodeJS.Timeout, children: false, data: false, restat: false };
    if (event.kind === 'childrenChanged' || event.kind === 'created') entry.children = true;
    if (event.kind === 'dataChanged' || event.kind === 'created') entry.data = true;
    if (event.kind === 'resync') entry.children = entry.data = entry.restat = true;
    if (event.kind === 'deleted') {
      // The parent's own watch (if it is expanded) reports the removal; this node's state is gone.
      this.watches.release(event.path);
      this.listings.delete(event.path);
      return;
    }
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.applyChange(event.path), this.settings().debounceMs);
    this.pending.set(event.path, entry);
  }

  private async applyChange(path: string): Promise<void> {
    const entry = this.pending.get(path);
    this.pending.delete(path);
    if (!entry || this.disposed) return;
    try {
      const listing = this.listings.get(path);
      if (entry.children && listing) await listing.reload(entry.restat);
      if (entry.data) await this.restat(path);
      // applyChange announces the node below in any case, so its new count is drawn with its new children.
      else if (entry.children && listing) this.adoptOwnStat(path, listing);
    } catch (error) {
      if (!isZkError(error, 'noNode')) this.warn(`refresh ${path}: ${String(error)}`);
    }
    const target = this.nodeAt(path);
    if (target) this.changed(target);
  }
}

