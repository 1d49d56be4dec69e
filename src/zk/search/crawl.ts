// A pipelined walk of a subtree: one getChildren2 per node (names and the node's own Stat), optionally a getData,
// with at most `window` requests in flight (node-zookeeper-client degrades past ~16k outstanding) and a stack of
// pending child-name lists, so memory holds the current frontier, not the tree. Parents are always reported
// before their children. Cancellable; nodes that vanish meanwhile are skipped; nodes we may not read are listed.
import { DepthFirstPaths } from './depthFirstPaths';
import { ErrorName, isZkError, ZkError } from '../errors';
import * as ops from '../protocol/operations';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';

export interface CrawledNode {
  path: string;
  stat: ZnodeStat;
  /** Present when `wantData` asked for it. */
  data?: Buffer;
}

export interface CrawlProgress {
  visited: number;
  inFlight: number;
}

export interface CrawlOptions {
  /** Most requests in flight (default 256). */
  window?: number;
  signal?: AbortSignal;
  /** Called at most every `progressIntervalMs` (default 100) and once at the end. */
  onProgress?: (progress: CrawlProgress) => void;
  progressIntervalMs?: number;
  /** Whether to fetch this node's data (asked once its Stat is known: e.g. only when dataLength > 0). */
  wantData?: (path: string, stat: ZnodeStat) => boolean;
  /** Whether to walk below this node (default: always). */
  descend?: (path: string, stat: ZnodeStat) => boolean;
  /** Give up when no reply came for this long (default: the session's request timeout). */
  stallTimeoutMs?: number;
}

export interface CrawlSummary {
  visited: number;
  /** Listed by their parent but gone when we asked (deleted meanwhile). */
  vanished: number;
  /** Nodes we were not allowed to read (noAuth), up to 100; `unreadableCount` counts all. */
  unreadable: { path: string; code: ErrorName }[];
  unreadableCount: number;
  cancelled: boolean;
  /** onNode returned false (e.g. enough results). */
  stoppedEarly: boolean;
  /** Why the walk stopped before the end (connection lost, session expired, root missing, ...). */
  error?: { code: ErrorName; operation: string; path: string };
}

const MAX_UNREADABLE = 100;

/**
 * Walks `root` and its descendants, calling `onNode` for each (return false to stop). Resolves when the walk is
 * complete, stopped, cancelled or failed; never rejects for ZooKeeper errors.
 */
export function crawl(session: ZkSession, root: string, onNode: (node: CrawledNode) => boolean | void, options: CrawlOptions = {}): Promise<CrawlSummary> {
  const window = Math.max(1, options.window ?? 256);
  const channel = session.channel;
  const stallMs = options.stallTimeoutMs ?? session.requestTimeoutMs;
  const progressMs = options.progressIntervalMs ?? 100;
  const summary: CrawlSummary = { visited: 0, vanished: 0, unreadable: [], unreadableCount: 0, cancelled: false, stoppedEarly: false };
  const order = new DepthFirstPaths(root);
  let inFlight = 0;
  let stopped = false;
  let done = false;
  let lastReply = Date.now();
  let lastProgress = 0;

  return new Promise<CrawlSummary>((resolve) => {
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(watchdog);
      options.signal?.removeEventListener('abort', onAbort);
      options.onProgress?.({ visited: summary.visited, inFlight });
      resolve(summary);
    };
    const stop = (error?: ZkError, path?: string) => {
      if (error && !summary.error) summary.error = { code: error.code, operation: error.operation, path: path ?? error.path ?? root };
      stopped = true;
    };
    const onAbort = () => {
      summary.cancelled = true;
      stop();
      finish(); // answer at once; replies still in flight are ignored
    };
    const watchdog = setInterval(() => {
      if (inFlight > 0 && Date.now() - lastReply > stallMs) {
        stop(new ZkError('clientTimeout', 'getChildren', root));
        finish();
      }
    }, Math.min(1000, stallMs));
    watchdog.unref();
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const deliver = (path: string, reply: ops.ChildrenReply, data?: Buffer) => {
      if (stopped) return;
      summary.visited++;
      if (reply.children.length > 0 && (!options.descend || options.descend(path, reply.stat))) {
        order.add(path, reply.children);
      }
      if (onNode(data === undefined ? { path, stat: reply.stat } : { path, stat: reply.stat, data }) === false) {
        summary.stoppedEarly = true;
        stop();
      }
    };

    const failed = (path: string, error: unknown) => {
      if (stopped) return;
      const zkError = ZkError.from(error, 'getChildren', path);
      if (path !== root && isZkError(zkError, 'noNode')) summary.vanished++;
      else if (isZkError(zkError, 'noAuth')) {
        summary.unreadableCount++;
        if (summary.unreadable.length < MAX_UNREADABLE) summary.unreadable.push({ path, code: zkError.code });
      } else stop(zkError, path);
    };

    const visit = (path: string) => {
      inFlight++;
      ops.getChildren2(channel, path).then((reply) => {
        if (!stopped && options.wantData?.(path, reply.stat)) {
          return ops.getData(channel, path).then((d) => deliver(path, reply, d.data));
        }
        deliver(path, reply);
      }).catch((error: unknown) => failed(path, error)).finally(() => {
        inFlight--;
        lastReply = Date.now();
        pump();
      });
    };

    const pump = () => {
      if (done) return;
      while (!stopped && inFlight < window) {
        const path = order.next();
        if (path === undefined) break;
        visit(path);
      }
      if (options.onProgress && lastReply - lastProgress >= progressMs) {
        lastProgress = lastReply;
        options.onProgress({ visited: summary.visited, inFlight });
      }
      if (inFlight === 0) finish();
    };
    pump();
  });
}
