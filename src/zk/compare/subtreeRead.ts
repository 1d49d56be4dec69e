// What every live subtree read shares, batched or node by node: its options, the snapshot it fills, how a failed
// read counts (a node gone meanwhile is a change, one we may not read is listed, anything else stops the read),
// cancelling, progress at most every 100 ms, and a watchdog that gives up when replies stop (the reads go straight
// on the channel, without a timer per request).
import { ZkError } from '../errors';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';
import { emptySnapshot, relativePath, TreeSnapshot } from './snapshot';

/**
 * What a subtree read keeps at most, so a server listing endless children cannot exhaust memory: each node kept
 * costs about 700 bytes beside its data (path, Stat, ACL), so 2 million nodes are about 1.4 GB.
 */
export const DEFAULT_MAX_NODES = 2_000_000;
export const DEFAULT_MAX_DATA_BYTES = 1024 * 1024 * 1024;

export interface ReadOptions {
  /** Most nodes in flight (default 256). */
  window?: number;
  /** Read ACLs (default true). */
  acls?: boolean;
  signal?: AbortSignal;
  /** Nodes read so far, at most every 100 ms and once at the end. */
  onProgress?: (nodesRead: number) => void;
  /** Give up when no reply came for this long (default: the session's request timeout). */
  stallTimeoutMs?: number;
  /** Read many nodes a request with multiRead (default true); false, or a server before 3.6: node by node. */
  multiRead?: boolean;
  /** Nodes listed at most (default DEFAULT_MAX_NODES); past it the read stops with `subtreeTooLarge`. */
  maxNodes?: number;
  /** Data bytes kept at most (default DEFAULT_MAX_DATA_BYTES); past it the read stops with `subtreeTooLarge`. */
  maxDataBytes?: number;
}

/** Two Stats of one node read by different requests agree: it was not written between them. */
export const sameStat = (a: ZnodeStat, b: ZnodeStat) =>
  a.czxid === b.czxid && a.mzxid === b.mzxid && a.pzxid === b.pzxid && a.cversion === b.cversion && a.aversion === b.aversion;

export class SubtreeRead<Other = never> {
  readonly snapshot: TreeSnapshot;
  private stoppedValue = false;
  private done = false;
  private lastReply = Date.now();
  private lastProgress = 0;
  /** Nodes listed (read or still to read) and data bytes kept so far, against the read's bounds. */
  private listed = 1;
  private dataBytes = 0;
  private readonly watchdog: NodeJS.Timeout;

  /**
   * `inFlight`: how many reads are unanswered now (the watchdog waits only while some are). `resolve` gets the
   * snapshot, or what `finish` is given instead.
   */
  constructor(
    private readonly root: string,
    private readonly options: ReadOptions,
    session: ZkSession,
    inFlight: () => number,
    private readonly resolve: (result: TreeSnapshot | Other) => void,
  ) {
    this.snapshot = emptySnapshot('live', root);
    const stallMs = options.stallTimeoutMs ?? session.requestTimeoutMs;
    this.watchdog = setInterval(() => {
      if (inFlight() > 0 && Date.now() - this.lastReply > stallMs) {
        this.snapshot.error ??= { code: 'clientTimeout', operation: 'getData', path: root };
        this.finish();
      }
    }, Math.min(1000, stallMs));
    this.watchdog.unref();
    if (options.signal?.aborted) this.onAbort();
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** No more reads are sent, and replies still coming are ignored: a read failed, or the read has ended. */
  get stopped(): boolean {
    return this.stoppedValue;
  }

  /** Whether the read has ended (finished, cancelled or given up). */
  get ended(): boolean {
    return this.done;
  }

  /** A reply came (of any kind). */
  replied(): void {
    this.lastReply = Date.now();
  }

  failed(path: string, error: unknown, operation = 'getData'): void {
    if (this.stoppedValue) return;
    const zkError = ZkError.from(error, operation, path);
    if (zkError.code === 'noNode') {
      if (path === this.root) this.snapshot.rootMissing = true;
      else this.snapshot.changed.add(relativePath(path, this.root));
    } else if (zkError.code === 'noAuth') this.snapshot.unreadable.push(relativePath(path, this.root));
    else {
      this.snapshot.error = { code: zkError.code, operation: zkError.operation, path: zkError.path ?? path };
      this.stoppedValue = true;
    }
  }

  /**
   * Counts `names` more nodes listed below `path` and `bytes` more data kept; past the read's bounds the read stops
   * with `subtreeTooLarge` (a hostile server's endless children must not exhaust memory) and this answers false.
   */
  withinBounds(path: string, names: number, bytes: number): boolean {
    this.listed += names;
    this.dataBytes += bytes;
    if (this.listed <= (this.options.maxNodes ?? DEFAULT_MAX_NODES) && this.dataBytes <= (this.options.maxDataBytes ?? DEFAULT_MAX_DATA_BYTES)) return true;
    this.failed(path, new ZkError('subtreeTooLarge', 'getChildren', path));
    return false;
  }

  /** Tells the nodes read so far, at most every 100 ms. */
  progress(): void {
    const now = Date.now();
    if (this.options.onProgress && now - this.lastProgress >= 100) {
      this.lastProgress = now;
      this.options.onProgress(this.snapshot.nodes.size);
    }
  }

  finish(result: TreeSnapshot | Other = this.snapshot): void {
    if (this.done) return;
    this.done = true;
    this.stoppedValue = true;
    clearInterval(this.watchdog);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    if (result === this.snapshot) this.options.onProgress?.(this.snapshot.nodes.size);
    this.resolve(result);
  }

  private readonly onAbort = () => {
    this.snapshot.cancelled = true;
    this.finish();
  };
}
