// The tree state of one live connection: listings of expanded nodes, whose entries are the elements of their
// children (one per path for as long as it is listed), and a live watch on every expanded node (dropped when it
// collapses). Changes are debounced, re-read, then announced. A node with many children follows them from the
// events instead (a persistent recursive watch names each child created or deleted), so a change there does not
// list them all again.
// Free of the vscode API on purpose, so benchmarks can drive it outside VS Code.
import { ChildListing } from './childListing';
import { resolveThrough, type BrowsedTree } from './browsedTree';
import { isZkError } from '../errors';
import { baseName, parentPath } from '../paths';
import type { ZkSession } from '../session/session';
import type { WatchEvent } from '../session/watchRegistry';
import { ConnectionNode, PathNode, ZnodeNode } from './treeNodes';
import { HeldWatches } from '../session/heldWatches';

/**
 * From this many children (as the node's Stat last showed them) an expanded node follows its children from the
 * events: listing them again costs a few milliseconds below it, but grows with every name (about 50 ms at 100,000).
 * Below it a recursive watch would only add the events of deeper nodes, which the tree does not use.
 */
export const FOLLOW_CHILDREN_FROM = 5000;

/**
 * More child events than this in one debounce (a bulk delete or import) are not applied one by one: each looks its
 * name up among all of them (about 0.1 ms at 100,000), and past a few hundred one listing costs less.
 */
export const MOST_CHILD_EVENTS_APPLIED = 256;

type ChildEvent = 'created' | 'deleted' | 'remade';

type PendingChange = {
  timer: NodeJS.Timeout;
  children: boolean;
  data: boolean;
  restat: boolean;
  /** Children created or deleted, by name (followed nodes only): `remade` is a delete and then a create. */
  childEvents: Map<string, ChildEvent> | undefined;
};

export interface TreeSettings {
  pageSize: number;
  window: number;
  liveUpdates: boolean;
  debounceMs: number;
  /** From how many children a node follows them from the events (FOLLOW_CHILDREN_FROM unless set; tests set it low). */
  followChildrenFrom?: number;
}

export class ConnectionTree implements BrowsedTree {
  readonly root: ConnectionNode;
  private readonly listings = new Map<string, ChildListing<ZnodeNode>>();
  /** The element each listing makes its entries under. */
  private readonly listingParents = new WeakMap<ChildListing<ZnodeNode>, PathNode>();
  private readonly watches = new HeldWatches();
  private readonly pending = new Map<string, PendingChange>();
  /** Expanded nodes that follow their children from the events (their watch is recursive). */
  private readonly followed = new Set<string>();
  /** Child events received per followed node, so a check can tell whether any came while it waited. */
  private readonly childEventsReceived = new Map<string, number>();
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

  /** The element of a path whose parent is listed (and its Stat read), or the root. */
  nodeAt(path: string): PathNode | undefined {
    if (path === '/') return this.root;
    const parent = parentPath(path);
    return parent === undefined ? undefined : this.listings.get(parent)?.entry(baseName(path));
  }

  listing(path: string): ChildListing<ZnodeNode> | undefined {
    return this.listings.get(path);
  }

  /**
   * The listing of `element`'s children, loaded, with a live watch set up first so no change slips between the two.
   * Its entries are the child elements; a listing made under an element that has since been replaced (its
   * parent was collapsed and listed again) is made anew, with the filter the user set on it.
   */
  async openListing(element: PathNode): Promise<ChildListing<ZnodeNode>> {
    const { path } = element;
    // A command may hold an element that was replaced since: the listing belongs to the one listed now.
    const parent = this.nodeAt(path) ?? element;
    let listing = this.listings.get(path);
    if (!listing || this.listingParents.get(listing) !== parent) {
      const { pageSize, window } = this.settings();
      const { connectionId } = this.root;
      const filter = listing?.filter;
      listing = new ChildListing(this.session, path, { pageSize, window },
        (name, childPath, stat) => new ZnodeNode(connectionId, childPath, name, stat, parent));
      if (filter) listing.setFilter(filter);
      this.listings.set(path, listing);
      this.listingParents.set(listing, parent);
    }
    // The watch goes out first and the listing right behind it, without waiting for the watch's answer: a server
    // answers one session's requests in order, so no change falls between them. Until the server is known to have
    // persistent watches (an old one closes the connection on addWatch, failing what follows), one after the other.
    const followFrom = this.settings().followChildrenFrom ?? FOLLOW_CHILDREN_FROM;
    const watching = this.ensureWatch(path, parent instanceof ZnodeNode && parent.stat.numChildren >= followFrom);
    if (listing.loaded) {
      await watching;
      return listing;
    }
    if (this.session.watches.persistent !== true) await watching;
    await listing.reload();
    await watching;
    const node = this.adoptOwnStat(path, listing);
    // The node itself is already drawn: redraw it (after VS Code has these children) when its count changed.
    if (node) setTimeout(() => { if (!this.disposed) this.changed(node); }, 0);
    return listing;
  }

  /**
   * A listing also brings the node's own Stat: its element takes it, so the child count shown on the node agrees
   * with the rows listed under it (a collapsed node's count has no watch and may have gone stale). Answers the node
   * when its look changed.
   */
  private adoptOwnStat(path: string, listing: ChildListing<ZnodeNode>): ZnodeNode | undefined {
    const node = this.nodeAt(path);
    const stat = listing.parentStat;
    if (!(node instanceof ZnodeNode) || !stat) return undefined;
    const redraw = node.stat.numChildren !== stat.numChildren || node.stat.dataLength !== stat.dataLength;
    node.stat = stat;
    return redraw ? node : undefined;
  }

  /** An element for any existing path (for reveal), built from its ancestors down. */
  resolve(path: string): Promise<PathNode | undefined> {
    return resolveThrough(this, path);
  }

  /** Collapsed: stop watching it and everything below, and forget the listings (a 100k-name list is big). */
  collapse(path: string): void {
    const prefix = path === '/' ? '/' : path + '/';
    const within = (p: string) => p === path || p.startsWith(prefix);
    this.watches.releaseAll(within);
    for (const followed of [...this.followed]) if (within(followed)) this.stopFollowing(followed);
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

  /** Re-reads a shown node's Stat into its element, which is its parent listing's entry (the row redraws from it). */
  private async restat(path: string): Promise<void> {
    const node = this.nodeAt(path);
    if (!(node instanceof ZnodeNode)) return;
    const stat = await this.session.exists(path);
    if (stat) node.stat = stat;
  }

  get watchedPaths(): string[] {
    return this.watches.keys();
  }

  dispose(): void {
    this.disposed = true;
    this.watches.releaseAll();
    this.followed.clear();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }

  /** Paths that follow their children from the events now. */
  get followedPaths(): string[] {
    return [...this.followed];
  }

  /**
   * `followChildren`: with a recursive watch, whose events name each child created or deleted. Only once the
   * server is known to have persistent watches: an older one (no addWatch) keeps today's watch and re-lists.
   */
  private async ensureWatch(path: string, followChildren: boolean): Promise<void> {
    if (!this.settings().liveUpdates && !this.watches.has(path)) return;
    const follow = followChildren && this.session.watches.persistent === true && !this.watches.has(path);
    if (follow) this.followed.add(path);
    await this.watches.hold(path, () => (follow
      ? this.session.watches.watchTree(path, (event) => this.onFollowedEvent(path, event))
      : this.session.watches.watch(path, (event) => this.onWatchEvent(event))), (error) => {
      if (follow) this.stopFollowing(path);
      if (!isZkError(error, 'noNode')) this.warn(`watch ${path}: ${String(error)}`);
    });
  }

  private stopFollowing(path: string): void {
    this.followed.delete(path);
    this.childEventsReceived.delete(path);
  }

  /**
   * An event of a followed node's recursive watch: the node's own go the usual way; a direct child created or
   * deleted waits out the debounce with the others; deeper nodes (and children's data) are not the tree's concern.
   */
  private onFollowedEvent(root: string, event: WatchEvent): void {
    if (this.disposed || !this.followed.has(root)) return;
    if (event.path === root) {
      this.onWatchEvent(event);
      return;
    }
    if ((event.kind !== 'created' && event.kind !== 'deleted') || parentPath(event.path) !== root) return;
    this.childEventsReceived.set(root, (this.childEventsReceived.get(root) ?? 0) + 1);
    const entry = this.pendingEntry(root);
    const events = (entry.childEvents ??= new Map());
    const name = baseName(event.path);
    const earlier = events.get(name);
    events.set(name, event.kind === 'created' && (earlier === 'deleted' || earlier === 'remade') ? 'remade' : event.kind);
    this.schedule(root, entry);
  }

  private pendingEntry(path: string): PendingChange {
    return this.pending.get(path) ?? { timer: undefined as unknown as NodeJS.Timeout, children: false, data: false, restat: false, childEvents: undefined };
  }

  private schedule(path: string, entry: PendingChange): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.applyChange(path), this.settings().debounceMs);
    this.pending.set(path, entry);
  }

  private onWatchEvent(event: WatchEvent): void {
    if (this.disposed) return;
    const entry = this.pendingEntry(event.path);
    if (event.kind === 'childrenChanged' || event.kind === 'created') entry.children = true;
    if (event.kind === 'dataChanged' || event.kind === 'created') entry.data = true;
    if (event.kind === 'resync') entry.children = entry.data = entry.restat = true;
    if (event.kind === 'deleted') {
      // The parent's own watch (if it is expanded) reports the removal; this node's state is gone.
      this.watches.release(event.path);
      this.stopFollowing(event.path);
      this.listings.delete(event.path);
      return;
    }
    this.schedule(event.path, entry);
  }

  /** Paths with a change received and not yet applied (it waits out the debounce). */
  get pendingChanges(): string[] {
    return [...this.pending.keys()];
  }

  /** Applies now the changes that are waiting out their debounce (tests use it to choose when they land). */
  async applyPendingChanges(): Promise<void> {
    const paths = this.pendingChanges;
    for (const path of paths) clearTimeout(this.pending.get(path)!.timer);
    await Promise.all(paths.map((path) => this.applyChange(path)));
  }

  private async applyChange(path: string): Promise<void> {
    const entry = this.pending.get(path);
    this.pending.delete(path);
    if (!entry || this.disposed) return;
    const listing = this.listings.get(path);
    // A child event whose change an earlier listing already showed (our own create, then Refresh) redraws nothing:
    // announcing the node would make VS Code fetch its children again and forget their rows for a moment, and a
    // command chosen on one of them in that moment would not know its row.
    let redraw = entry.data || entry.restat || !listing;
    try {
      // A listing (after a reconnect, or for a node that does not follow events) has every child event before it.
      const relist = !!listing && (entry.children || (listing.loaded && (entry.childEvents?.size ?? 0) > MOST_CHILD_EVENTS_APPLIED));
      if (relist) {
        if (await listing.reload(entry.restat)) redraw = true;
      } else if (entry.childEvents && listing?.loaded) {
        if (await this.applyChildEvents(path, listing, entry.childEvents)) redraw = true;
        // The node's Stat was read with them.
        entry.data = false;
      }
      if (entry.data) await this.restat(path);
      // Announced below with its new children, so its count is drawn with them.
      else if (relist && this.adoptOwnStat(path, listing)) redraw = true;
    } catch (error) {
      redraw = true;
      if (!isZkError(error, 'noNode')) this.warn(`refresh ${path}: ${String(error)}`);
    }
    const target = this.nodeAt(path);
    if (target && redraw) this.changed(target);
  }

  /**
   * Applies a followed node's child events to its listing, then reads the node's own Stat (its child count is
   * drawn). When no event and no listing came meanwhile, that count must be the listing's: if not, an event was
   * missed, and the children are listed again. Answers whether something to draw changed.
   */
  private async applyChildEvents(path: string, listing: ChildListing<ZnodeNode>, events: Map<string, ChildEvent>): Promise<boolean> {
    let changed = false;
    for (const [name, kind] of events) {
      if (kind === 'deleted' ? listing.childDeleted(name) : listing.childCreated(name, kind === 'remade')) changed = true;
    }
    const received = this.childEventsReceived.get(path);
    const revision = listing.revision;
    const stat = await this.session.exists(path);
    if (!stat) return changed;
    const node = this.nodeAt(path);
    if (node instanceof ZnodeNode) {
      if (node.stat.numChildren !== stat.numChildren || node.stat.dataLength !== stat.dataLength) changed = true;
      node.stat = stat;
    }
    if (received !== this.childEventsReceived.get(path) || revision !== listing.revision) return changed;
    if (stat.numChildren === listing.total) {
      listing.parentStat = stat;
      return changed;
    }
    this.warn(`refresh ${path}: ${listing.total} children followed, ${stat.numChildren} on the server; listing them again`);
    await listing.reload();
    return true;
  }
}

