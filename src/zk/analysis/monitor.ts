// A live analysis: persistent watches on the queue directories show queue changes at once (only the changed
// queue is read again), and the members' watch/connection tables are polled gently, only while started.
// dispose() stops every timer and removes every watch.
import { isZkError } from '../errors';
import type { ZkSession } from '../session/session';
import type { ServerTables } from '../servers/serverTables';
import type { WatchEvent } from '../session/watchRegistry';
import { AnalyzeOptions, ourSessionsOf, readSpecs, readTables } from './analyze';
import { buildAnalysis, DEFAULT_HELD_TOO_LONG_MS } from './build';
import { queueWatchPaths, RawQueue } from './rawQueue';
import { CrawledDir, Discovery, discoverQueues, QueueSpec } from './discover';
import { HoldHistory } from './holdTimes';
import type { LockAnalysis, UnreadablePath } from '../../shared/lockAnalysis';
import { readQueue } from './readQueue';
import { HeldWatches } from '../session/heldWatches';
import { mapBounded } from '../timeouts';

export const DEFAULT_POLL_INTERVAL_MS = 2000;
/** Changes that arrive together (a release and the next acquire) are read once. */
const CHANGE_DEBOUNCE_MS = 10;
/**
 * After a queue changes, the tables are read again this soon (new waiters set their watches meanwhile) rather
 * than at the next regular poll, but never more often than every POLL_SOON_SPACING_MS: the load stays gentle.
 */
const POLL_SOON_DELAY_MS = 150;
const POLL_SOON_SPACING_MS = 1000;
/** Newly watched folders and queues checked at once (catchUp). */
const CATCH_UP_WINDOW = 64;

/** A queue folder's child-change counter as read (simple queues only): every create and delete under it adds one. */
export interface QueueCounter {
  path: string;
  cversion: number;
}

/** One reading of every server's tables: begun at `askedAt`, complete at `answeredAt` (ms since the epoch). */
export interface TablesReading {
  tables: ServerTables[];
  askedAt: number;
  answeredAt: number;
}

export class LockMonitor {
  private readonly updateListeners = new Set<(analysis: LockAnalysis) => void>();
  private readonly counterListeners = new Set<(counters: QueueCounter[], takenAt: number) => void>();
  private readonly errorListeners = new Set<(error: Error) => void>();
  private readonly tablesListeners = new Set<(reading: TablesReading) => void>();
  private readonly pollIntervalMs: number;
  /** A reading of the tables asked for by this time (wall ms; 0: none), sooner than the regular poll. */
  private tablesWantedAt = 0;
  private readonly abort = new AbortController();
  private specs: QueueSpec[] = [];
  private readonly raws = new Map<string, RawQueue>();
  private tables?: ServerTables[];
  private truncated = false;
  /** Folders the last discovery could not list. */
  private unreadable: UnreadablePath[] = [];
  /** Holders seen across snapshots: a take-over seen here has a known start, unlike the node's ctime. */
  private readonly holds = new HoldHistory();
  /** Non-queue folders of a subtree, watched for queues that appear. */
  private dirs: CrawledDir[] = [];
  private readonly watches = new HeldWatches();
  private readonly dirty = new Set<string>();
  private rediscoverPending = false;
  private work: Promise<void> = Promise.resolve();
  private pollTimer?: NodeJS.Timeout;
  /** When the pending poll fires, and when the last one started (ms since epoch). */
  private pollDueAt = 0;
  private lastPollAt = 0;
  private changeTimer?: NodeJS.Timeout;
  private tablesAskedAtValue?: number;
  private started = false;
  private disposed = false;
  private lastShape?: string;

  constructor(private readonly session: ZkSession, private readonly root: string, private readonly options: AnalyzeOptions & { pollIntervalMs?: number } = {}) {
    this.pollIntervalMs = Math.max(100, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  }

  onUpdate(listener: (analysis: LockAnalysis) => void): () => void {
    this.updateListeners.add(listener);
    return () => this.updateListeners.delete(listener);
  }

  /**
   * After every read of the queues (also those that change nothing shown, which onUpdate leaves out), after the
   * update listeners: the folders' counters, so a recorder can tell how many creates and deletes it did not see.
   */
  onCounters(listener: (counters: QueueCounter[], takenAt: number) => void): () => void {
    this.counterListeners.add(listener);
    return () => this.counterListeners.delete(listener);
  }

  /**
   * After every reading of the servers' tables, including those that change no analysis. While someone listens,
   * each regular poll first touches the monitor's own session (one exists): its expiry time in the leader's tables
   * then tells how late the tracker's clock was at least (history/sessionEnds.ts).
   */
  onTables(listener: (reading: TablesReading) => void): () => void {
    this.tablesListeners.add(listener);
    return () => this.tablesListeners.delete(listener);
  }

  onError(listener: (error: Error) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** The path analysed (a queue or a subtree). */
  get path(): string {
    return this.root;
  }

  /**
   * When the servers' tables the analyses use were asked for (ms since the epoch; undefined without tables): a
   * session they leave out was connected nowhere then only if its node already existed at that moment.
   */
  get tablesAskedAt(): number | undefined {
    return this.tablesAskedAtValue;
  }

  /** Reads everything, watches the queues and starts polling the servers' tables. */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    this.refresh().catch(() => undefined).finally(() => this.schedulePoll());
  }

  /** A full snapshot now (rediscovers the queues under root); always notifies. */
  refresh(): Promise<void> {
    return this.enqueue(async () => {
      const withTables = this.options.serverWatches !== false;
      const tablesAskedAt = Date.now();
      const tables = withTables ? readTables(this.session, this.analysisOptions) : Promise.resolve(undefined);
      tables.catch(() => undefined);
      await this.rediscover();
      this.tables = await tables;
      if (this.tables) this.tablesAskedAtValue = tablesAskedAt;
      this.emitTables(tablesAskedAt);
      this.emit(true);
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.abort.abort();
    clearTimeout(this.pollTimer);
    clearTimeout(this.changeTimer);
    this.watches.releaseAll();
    this.updateListeners.clear();
    this.counterListeners.clear();
    this.errorListeners.clear();
    this.tablesListeners.clear();
  }

  private get analysisOptions(): AnalyzeOptions {
    return { ...this.options, signal: this.abort.signal };
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.work.then(async () => {
      if (this.disposed) return;
      try {
        await task();
      } catch (error) {
        if (!this.disposed) this.fail(error);
        throw error;
      }
    });
    this.work = run.catch(() => undefined);
    return run;
  }

  private async rediscover(): Promise<void> {
    this.rediscoverPending = false;
    // Cleared before the reads, not after: a queue that changes while it is being read (its watch fires after its
    // listing) is read again next time, instead of the change being forgotten until the next one.
    this.dirty.clear();
    // The root's watch is armed before it is listed: a queue node created between the listing and the watch would
    // otherwise go unseen until the next change (the panel stayed empty right after acquiring).
    if (this.started && !this.watches.has(this.root)) await this.watchPath(this.root);
    let discovery: Discovery;
    try {
      discovery = await discoverQueues(this.session, this.root, { maxQueues: this.options.maxQueues, signal: this.abort.signal });
    } catch (error) {
      // Curator's lock folders are containers: gone while nobody contends, back with the next contender. Keep
      // watching the path (a watch on a missing node reports its creation) and show no queue meanwhile.
      if (!isZkError(error, 'noNode')) throw error;
      discovery = { specs: [], truncated: false, dirs: [], unreadable: [] };
    }
    if (this.disposed) return;
    this.specs = discovery.specs;
    this.truncated = discovery.truncated;
    this.unreadable = discovery.unreadable;
    this.dirs = discovery.dirs;
    const queues = await readSpecs(this.session, this.specs, false);
    this.raws.clear();
    for (const q of queues) this.raws.set(q.path, q);
    await this.syncWatches();
  }

  /** Watches what the analysis covers now and lets go of the rest; then catches up on what was newly watched. */
  private async syncWatches(): Promise<void> {
    if (!this.started || this.disposed) return;
    const wanted = new Set<string>([this.root, ...this.dirs.map((dir) => dir.path)]);
    for (const raw of this.raws.values()) for (const p of queueWatchPaths(raw)) wanted.add(p);
    this.watches.releaseAll((path) => !wanted.has(path));
    const fresh = [...wanted].filter((path) => !this.watches.has(path));
    await Promise.all(fresh.map((path) => this.watchPath(path)));
    if (this.disposed) return;
    // Only watches that are armed now (a failed one frees its path; checking it again would go round forever).
    await this.catchUp(new Set(fresh.filter((path) => this.watches.has(path))));
  }

  /**
   * A path first watched just now was read before its watch was armed: a change in between would go unseen until
   * the next one. A folder or a queue is checked against the cversion its listing had (crawled or read again if it
   * moved); a queue read without one (a semaphore's folders, a fixed leader) is read again.
   */
  private async catchUp(armed: Set<string>): Promise<void> {
    const listed: { path: string; cversion: number; moved: () => void }[] = [];
    for (const dir of this.dirs) {
      if (armed.has(dir.path)) listed.push({ ...dir, moved: () => { this.rediscoverPending = true; } });
    }
    for (const raw of this.raws.values()) {
      const paths = queueWatchPaths(raw).filter((path) => armed.has(path));
      if (paths.length === 0) continue;
      const reread = () => { this.dirty.add(raw.path); };
      // A simple queue watches its own folder only, whose cversion its listing had.
      if (raw.shape === 'simple' && raw.parent) listed.push({ path: raw.path, cversion: raw.parent.cversion, moved: reread });
      else reread();
    }
    await mapBounded(listed, CATCH_UP_WINDOW, async (seen) => {
      const stat = await this.session.exists(seen.path).catch(() => undefined);
      if (stat?.cversion !== seen.cversion) seen.moved();
    });
    if (this.rediscoverPending || this.dirty.size > 0) this.scheduleChanges();
  }

  private onWatchEvent(path: string, event: WatchEvent): void {
    if (this.disposed) return;
    const spec = this.specs.find((s) => s.path === path || (this.raws.has(s.path) && queueWatchPaths(this.raws.get(s.path) as RawQueue).includes(path)));
    // A folder's data changing does not make or unmake a queue.
    if (!spec && event.kind === 'dataChanged') return;
    if (event.kind === 'resync' || !spec) this.rediscoverPending = true;
    else this.dirty.add(spec.path);
    this.scheduleChanges();
    this.pollSoon();
  }

  private scheduleChanges(): void {
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(() => { void this.applyChanges().catch(() => undefined); }, CHANGE_DEBOUNCE_MS);
  }

  private watchPath(path: string): Promise<void> {
    const listener = (event: WatchEvent) => this.onWatchEvent(path, event);
    return this.watches.hold(path, () => this.session.watches.watch(path, listener), (error) => this.fail(error));
  }

  private applyChanges(): Promise<void> {
    return this.enqueue(async () => {
      if (this.rediscoverPending) {
        await this.rediscover();
      } else {
        const paths = [...this.dirty];
        this.dirty.clear();
        for (const path of paths) {
          const spec = this.specs.find((s) => s.path === path);
          if (spec) this.raws.set(path, await readQueue(this.session, spec, true));
        }
        await this.syncWatches();
      }
      this.emit(false);
    });
  }

  private schedulePoll(delayMs = this.pollIntervalMs): void {
    if (this.disposed || !this.started || this.options.serverWatches === false) return;
    if (this.tablesWantedAt) delayMs = Math.min(delayMs, Math.max(this.tablesWantedAt, this.lastPollAt + POLL_SOON_SPACING_MS) - Date.now());
    delayMs = Math.max(0, delayMs);
    clearTimeout(this.pollTimer);
    this.pollDueAt = Date.now() + delayMs;
    this.pollTimer = setTimeout(() => {
      this.pollDueAt = 0;
      this.tablesWantedAt = 0;
      this.enqueue(async () => {
        this.lastPollAt = Date.now();
        if (this.tablesListeners.size > 0) await this.session.exists(this.root).catch(() => undefined);
        const askedAt = Date.now();
        this.tables = await readTables(this.session, this.analysisOptions);
        this.tablesAskedAtValue = this.lastPollAt;
        this.emitTables(askedAt);
        this.emit(false);
      }).catch(() => undefined).finally(() => { if (!this.pollDueAt) this.schedulePoll(); });
    }, delayMs);
  }

  /** A queue changed: its watchers and owners show in the tables soon; read them earlier than the regular poll. */
  private pollSoon(): void {
    if (!this.pollDueAt) return; // a poll is running and schedules the next one itself
    const at = Math.max(Date.now() + POLL_SOON_DELAY_MS, this.lastPollAt + POLL_SOON_SPACING_MS);
    if (at < this.pollDueAt) this.schedulePoll(at - Date.now());
  }

  /**
   * Reads the servers' tables again by `at` (wall ms) if the next regular poll comes later, though never sooner than
   * POLL_SOON_SPACING_MS after the last. Asked during a poll, it applies to the poll that one schedules.
   */
  readTablesBy(at: number): void {
    if (!this.tablesWantedAt || at < this.tablesWantedAt) this.tablesWantedAt = at;
    if (this.pollDueAt) this.schedulePoll(this.pollDueAt - Date.now());
  }

  private emitTables(askedAt: number): void {
    if (this.disposed || !this.tables) return;
    const reading: TablesReading = { tables: this.tables, askedAt, answeredAt: Date.now() };
    for (const listener of [...this.tablesListeners]) listener(reading);
  }

  private emit(always: boolean): void {
    if (this.disposed) return;
    const takenAt = Date.now();
    try {
      this.emitAnalysis(always, takenAt);
    } finally {
      if (!this.disposed && this.counterListeners.size > 0) {
        const counters: QueueCounter[] = [];
        for (const raw of this.raws.values()) if (raw.shape === 'simple' && raw.parent) counters.push({ path: raw.path, cversion: raw.parent.cversion });
        for (const listener of [...this.counterListeners]) listener(counters, takenAt);
      }
    }
  }

  private emitAnalysis(always: boolean, takenAt: number): void {
    const analysis = buildAnalysis({
      root: this.root, takenAt, queues: [...this.raws.values()], tables: this.tables,
      heldTooLongMs: this.options.heldTooLongMs ?? DEFAULT_HELD_TOO_LONG_MS,
      ourSessions: ourSessionsOf(this.session, this.options), truncated: this.truncated,
      chroot: this.session.parsed.chroot, unreadable: this.unreadable, holds: this.holds,
    });
    // Polls that change nothing stay quiet (held-too-long facts move with the clock, so durations are left out).
    const shape = JSON.stringify({ ...analysis, takenAt: 0 }, (key, value: unknown) => (key === 'heldMs' ? 0 : value));
    if (!always && shape === this.lastShape) return;
    this.lastShape = shape;
    for (const listener of [...this.updateListeners]) listener(analysis);
  }

  private fail(error: unknown): void {
    const e = error instanceof Error ? error : new Error(String(error));
    if (e.name === 'AbortError') return;
    for (const listener of [...this.errorListeners]) listener(e);
  }
}
