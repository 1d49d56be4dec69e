// The children of one node as the tree shows them: all names, sorted once per listing, optionally filtered, and
// Stats for the visible page only, fetched with a bounded number of requests in flight (node-zookeeper-client's
// pending queue slows down badly when tens of thousands are outstanding).
import { NameFilter } from './nameFilter';
import { firstInOrder, rankInOrder } from './naturalOrder';
import { joinPath } from './paths';
import type { ZnodeStat } from './stat';
import { mapBounded } from './timeouts';

export interface ChildReader {
  getChildren(path: string): Promise<{ children: string[]; stat: ZnodeStat }>;
  exists(path: string): Promise<ZnodeStat | undefined>;
}

export interface ChildEntry {
  name: string;
  path: string;
  stat: ZnodeStat;
}

export interface ListingOptions {
  pageSize: number;
  /** Most Stat requests in flight at once. */
  window: number;
}

export class ChildListing {
  /** Names of the last listing, as the server sent them. */
  private names: string[] = [];
  /** Names that pass the filter, unordered. */
  private visibleNames: string[] = [];
  /** The first names of `visibleNames` in display order (at least as many as are shown, once computed). */
  private ordered: string[] = [];
  private readonly stats = new Map<string, ZnodeStat>();
  private filterValue: NameFilter | undefined;
  private shown: number;
  parentStat: ZnodeStat | undefined;
  loaded = false;

  constructor(private readonly reader: ChildReader, readonly path: string, private readonly options: ListingOptions) {
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

  /** Lists the names again; Stats already known for names still present are kept unless `restat`. */
  async reload(restat = false): Promise<void> {
    const { children, stat } = await this.reader.getChildren(this.path);
    this.parentStat = stat;
    this.names = children;
    if (restat) this.stats.clear();
    else if (this.stats.size > 0) {
      const present = new Set(children);
      for (const name of [...this.stats.keys()]) if (!present.has(name)) this.stats.delete(name);
    }
    this.applyFilter();
    this.loaded = true;
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
  async entries(): Promise<ChildEntry[]> {
    if (this.ordered.length < Math.min(this.shown, this.visibleNames.length)) {
      this.ordered = firstInOrder(this.visibleNames, this.shown);
      // Every name is shown: the sorted copy replaces the unsorted one (their order matters nowhere else), so a
      // 100,000-name listing holds one array of them, not two.
      if (this.ordered.length === this.visibleNames.length) {
        if (this.visibleNames === this.names) this.names = this.ordered;
        this.visibleNames = this.ordered;
      }
    }
    // The page as it is now: a reload while the Stats are read replaces `ordered`, it does not change this array.
    const page = this.ordered;
    const end = Math.min(this.shown, page.length);
    const missing: string[] = [];
    for (let i = 0; i < end; i++) if (!this.stats.has(page[i])) missing.push(page[i]);
    await mapBounded(missing, this.options.window, async (name) => {
      const stat = await this.reader.exists(joinPath(this.path, name));
      if (stat) this.stats.set(name, stat);
    });
    const result: ChildEntry[] = [];
    for (let i = 0; i < end; i++) {
      const name = page[i];
      const stat = this.stats.get(name);
      if (stat) result.push({ name, path: joinPath(this.path, name), stat });
    }
    return result;
  }

  /** Updates one child's Stat (after a data change), if it is listed. */
  updateStat(name: string, stat: ZnodeStat): void {
    if (this.stats.has(name)) this.stats.set(name, stat);
  }

  private applyFilter(): void {
    const filter = this.filterValue;
    this.visibleNames = filter ? this.names.filter((n) => filter.test(n)) : this.names;
    this.ordered = [];
  }
}
