// The children of one node as the tree shows them: all names, sorted once per listing, optionally filtered, and
// Stats for the visible page only, fetched with a bounded number of requests in flight (node-zookeeper-client's
// pending queue slows down badly when tens of thousands are outstanding).
import { NameFilter } from './nameFilter';
import { firstInOrder, placeInOrder, rankInOrder } from './naturalOrder';
import { joinPath } from '../paths';
import type { ZnodeStat } from '../stat';
import { mapBounded } from '../timeouts';

export interface ChildReader {
  getChildren(path: string): Promise<{ children: string[]; stat: ZnodeStat }>;
  exists(path: string): Promise<ZnodeStat | undefined>;
}

/** One listed child whose Stat has been read. Its `stat` is replaced as newer ones come. */
export interface ChildEntry {
  readonly name: string;
  readonly path: string;
  stat: ZnodeStat;
}

/** Makes the entry of a child the first time its Stat is read (the tree makes its elements here). */
export type EntryMaker<E extends ChildEntry> = (name: string, path: string, stat: ZnodeStat) => E;

const plainEntry: EntryMaker<ChildEntry> = (name, path, stat) => ({ name, path, stat });

export interface ListingOptions {
  pageSize: number;
  /** Most Stat requests in flight at once. */
  window: number;
}

export class ChildListing<E extends ChildEntry = ChildEntry> {
  /** Names of the last listing, as the server sent them. */
  private names: string[] = [];
  /** Names that pass the filter, unordered. */
  private visibleNames: string[] = [];
  /** The first names of `visibleNames` in display order (at least as many as are shown, once computed). */
  private ordered: string[] = [];
  /**
   * The entry of each listed child whose Stat was read, by name: one object per child for as long as it is listed
   * (the tree's elements are these objects, so there is no second map of them by path).
   */
  private readonly known = new Map<string, E>();
  /** Names whose Stat must be read again before they are shown (a reload that asked for fresh Stats). */
  private stale: Set<string> | undefined;
  private filterValue: NameFilter | undefined;
  private shown: number;
  /**
   * Whether children created or deleted reach this listing one by one (childCreated/childDeleted): the display
   * order is then kept a page longer than shown, so deletions within the page do not each sort the rest again.
   */
  private followed = false;
  /** Counts every change to the names (listings and single changes), so a caller can tell whether any came. */
  private revisionValue = 0;
  parentStat: ZnodeStat | undefined;
  loaded = false;

  constructor(private readonly reader: ChildReader, readonly path: string, private readonly options: ListingOptions,
    private readonly makeEntry: EntryMaker<E> = plainEntry as EntryMaker<ChildEntry> as EntryMaker<E>) {
    this.shown = options.pageSize;
  }

  get filter(): NameFilter | undefined {
    return this.filterValue;
  }

  /** Children the node has (before filtering). */
  get total(): number {
    return this.names.length;
  }

  /** Children that pass the filter. */
  get matching(): number {
    return this.visibleNames.length;
  }

  get hasMore(): boolean {
    return this.visibleNames.length > this.shown;
  }

  /** Changes with every listing and every single change applied. */
  get revision(): number {
    return this.revisionValue;
  }

  /**
   * Lists the names again. The entries of names no longer listed are dropped; those still listed are kept (the
   * same objects), with their Stats read again before they are next shown when `restat`, or when some of them were
   * deleted and made again since the last listing. Answers whether the children changed since that listing.
   */
  async reload(restat = false): Promise<boolean> {
    const { children, stat } = await this.reader.getChildren(this.path);
    const previous = this.parentStat;
    const before = this.names;
    this.parentStat = stat;
    this.names = children;
    if (this.known.size > 0) {
      const present = new Set(children);
      for (const name of [...this.known.keys()]) if (!present.has(name)) this.known.delete(name);
      if (restat || (previous && remadeSince(previous, stat, before, children))) this.stale = new Set(this.known.keys());
    }
    this.applyFilter();
    this.loaded = true;
    this.revisionValue++;
    // The child version counts every create and delete under the node: the same one means the same children.
    return !previous || previous.cversion !== stat.cversion;
  }

  /**
   * A child created since the listing, as a watch event told: its name goes into place without listing again. A
   * name listed already was listed after its creation, unless it was `remade` (deleted and created again since the
   * last look): then its Stat is read again. Answers whether the listing changed.
   */
  childCreated(name: string, remade = false): boolean {
    if (!this.loaded) return false;
    this.followed = true;
    if (this.has(name)) {
      if (!remade || !this.known.has(name)) return false;
      (this.stale ??= new Set()).add(name);
      return true;
    }
    this.revisionValue++;
    const { names, visibleNames, ordered } = this;
    // `names` and `visibleNames` may be the very array `ordered` is (every name shown): that one takes it in place.
    if (names !== ordered) names.push(name);
    if (this.filterValue && !this.filterValue.test(name)) return true;
    if (visibleNames !== names && visibleNames !== ordered) visibleNames.push(name);
    if (ordered.length > 0 || ordered === visibleNames) {
      const at = placeInOrder(ordered, name);
      // `ordered` holds the first names in display order: one that goes after them all stays out, unless it holds every one.
      if (at < ordered.length || ordered === visibleNames) ordered.splice(at, 0, name);
    }
    return true;
  }

  /** A child deleted since the listing, as a watch event told: its name and entry go. Answers whether it was listed. */
  childDeleted(name: string): boolean {
    if (!this.loaded || !this.has(name)) return false;
    this.followed = true;
    this.revisionValue++;
    this.known.delete(name);
    this.stale?.delete(name);
    const { names, visibleNames, ordered } = this;
    if (ordered.length > 0) {
      const at = placeInOrder(ordered, name);
      if (ordered[at] === name) ordered.splice(at, 1);
    }
    if (names !== ordered) removeUnordered(names, name);
    if (visibleNames !== names && visibleNames !== ordered) removeUnordered(visibleNames, name);
    return true;
  }

  /** Whether `name` is listed (before filtering). */
  private has(name: string): boolean {
    if (this.names === this.ordered || (this.visibleNames === this.ordered && this.filterValue?.test(name))) {
      const at = placeInOrder(this.ordered, name);
      return this.ordered[at] === name;
    }
    return this.names.includes(name);
  }

  /** The entry of a listed child whose Stat was read. */
  entry(name: string): E | undefined {
    return this.known.get(name);
  }

  setFilter(filter: NameFilter | undefined): void {
    this.filterValue = filter;
    this.shown = this.options.pageSize;
    this.applyFilter();
  }

  /** Shows one more page. */
  showMore(): void {
    this.shown += this.options.pageSize;
  }

  /** Makes sure `name` is within the shown part (for reveal); returns false if it is not listed. */
  showName(name: string): boolean {
    if (!this.visibleNames.includes(name)) return false;
    const index = rankInOrder(this.visibleNames, name);
    if (index >= this.shown) this.shown = Math.ceil((index + 1) / this.options.pageSize) * this.options.pageSize;
    return true;
  }

  /** The shown entries with their Stats; names that vanished since the listing are left out. */
  async entries(): Promise<E[]> {
    if (this.ordered.length < Math.min(this.shown, this.visibleNames.length)) {
      this.ordered = firstInOrder(this.visibleNames, this.followed ? this.shown + this.options.pageSize : this.shown);
      // Every name is shown: the sorted copy replaces the unsorted one (their order matters nowhere else), so a
      // 100,000-name listing holds one array of them, not two.
      if (this.ordered.length === this.visibleNames.length) {
        if (this.visibleNames === this.names) this.names = this.ordered;
        this.visibleNames = this.ordered;
      }
    }
    // The page as it is now: a reload while the Stats are read replaces `ordered`, and a single change edits it in
    // place, so the page is a copy.
    const page = this.ordered.slice(0, this.shown);
    const end = page.length;
    const stale = this.stale;
    const missing: string[] = [];
    for (let i = 0; i < end; i++) if (!this.known.has(page[i]) || stale?.has(page[i])) missing.push(page[i]);
    await mapBounded(missing, this.options.window, async (name) => {
      const path = joinPath(this.path, name);
      const stat = await this.reader.exists(path);
      stale?.delete(name);
      const entry = this.known.get(name);
      if (!stat) this.known.delete(name);
      else if (entry) entry.stat = stat;
      else this.known.set(name, this.makeEntry(name, path, stat));
    });
    if (stale && stale === this.stale && stale.size === 0) this.stale = undefined;
    const result: E[] = [];
    for (let i = 0; i < end; i++) {
      const entry = this.known.get(page[i]);
      if (entry) result.push(entry);
    }
    return result;
  }

  private applyFilter(): void {
    const filter = this.filterValue;
    this.visibleNames = filter ? this.names.filter((n) => filter.test(n)) : this.names;
    this.ordered = [];
  }
}

/** Removes `name` from an array whose order does not matter (the last name takes its place). */
function removeUnordered(names: string[], name: string): void {
  const at = names.indexOf(name);
  if (at < 0) return;
  names[at] = names[names.length - 1];
  names.pop();
}

/**
 * Whether some names listed both times may be other nodes now (deleted and made again in between): the child
 * version counted more creates and deletes than the names that came and went.
 */
function remadeSince(previous: ZnodeStat, now: ZnodeStat, before: string[], after: string[]): boolean {
  const counted = now.cversion - previous.cversion;
  // Each name that came or went moves the count by one, and it is at least the change in their number.
  if (counted <= Math.abs(after.length - before.length)) return false;
  const earlier = new Set(before);
  let came = 0;
  for (const name of after) if (!earlier.has(name)) came++;
  const went = before.length - (after.length - came);
  return counted > came + went;
}
