// Compares two subtrees: each side a live subtree (same or another session) or an export. Both sides are read at
// the same time, each pipelined; the differences are then asked again on the live sides (recheck.ts) so a
// subtree written meanwhile is reported as changed, not as a difference.
import { ErrorName, ZkError } from '../errors';
import type { ZkSession } from '../session/session';
import type { ExportDocument } from '../transfer';
import { CompareOptions, Difference, diffSnapshots } from './differences';
import { readLiveTree } from './readLive';
import { snapshotOfExport } from './readExport';
import { RecheckError, recheckDifferences } from './recheck';
import { comparePaths, TreeSnapshot } from './snapshot';
import { hidesDigest } from './hiddenDigest';

export type CompareSide =
  | { session: ZkSession; root: string }
  /** `root` defaults to the export's own root. */
  | { export: ExportDocument; root?: string };

/** What this comparison cannot see, so its silence about it means nothing. */
export type CompareLimit =
  /** Live servers since 3.5.4 report container and TTL nodes as persistent: a mode difference between them is not seen. */
  | 'containerAndTtlLookPersistent'
  /** An export writes null data as "": null and empty data count as equal. */
  | 'exportNullIsEmpty'
  /** An export knows ephemeral nodes only; container and TTL nodes are exported as persistent. */
  | 'exportModes'
  /** The server hid digest password hashes from this session (no ADMIN permission): those entries are compared by
   *  user and permissions only. */
  | 'digestHidden';

export interface CompareProgress {
  left: number;
  right: number;
  phase: 'reading' | 'rechecking';
}

export interface CompareRunOptions extends CompareOptions {
  window?: number;
  /** Nodes each side's read keeps at most (ReadOptions.maxNodes). */
  maxNodes?: number;
  signal?: AbortSignal;
  onProgress?: (progress: CompareProgress) => void;
}

export interface CompareResult {
  /** In path order; `changed` entries say a path was written during the comparison. */
  differences: Difference[];
  /** No difference and nothing changed meanwhile; meaningful only when `complete`. */
  equal: boolean;
  /** Both sides were read whole (nothing unreadable, no error, not cancelled). */
  complete: boolean;
  cancelled: boolean;
  nodes: { left: number; right: number };
  /** Relative paths this session may not read, per side. */
  unreadable: { left: string[]; right: string[] };
  error?: { side: 'left' | 'right'; code: ErrorName; operation: string; path: string };
  limits: CompareLimit[];
}

function read(side: CompareSide, options: CompareRunOptions, onCount: (n: number) => void): Promise<TreeSnapshot> {
  if ('export' in side) return Promise.resolve(snapshotOfExport(side.export, side.root));
  return readLiveTree(side.session, side.root, { maxNodes: options.maxNodes, window: options.window, acls: !options.ignoreAcls, signal: options.signal, onProgress: onCount });
}

function limitsOf(left: TreeSnapshot, right: TreeSnapshot): CompareLimit[] {
  const sources = new Set([left.source, right.source]);
  const limits: CompareLimit[] = [];
  if (sources.has('live')) limits.push('containerAndTtlLookPersistent');
  if (sources.has('export')) limits.push('exportNullIsEmpty', 'exportModes');
  const hidden = (snapshot: TreeSnapshot) => [...snapshot.nodes.values()].some((node) => hidesDigest(node.acl));
  if (hidden(left) || hidden(right)) limits.push('digestHidden');
  return limits;
}

export async function compareSubtrees(left: CompareSide, right: CompareSide, options: CompareRunOptions = {}): Promise<CompareResult> {
  const counts = { left: 0, right: 0 };
  const report = (phase: CompareProgress['phase']) => options.onProgress?.({ ...counts, phase });
  const [l, r] = await Promise.all([
    read(left, options, (n) => { counts.left = n; report('reading'); }),
    read(right, options, (n) => { counts.right = n; report('reading'); }),
  ]);
  const result: CompareResult = {
    differences: [], equal: false, complete: false, cancelled: l.cancelled || r.cancelled,
    nodes: { left: l.nodes.size, right: r.nodes.size }, unreadable: { left: l.unreadable, right: r.unreadable },
    limits: limitsOf(l, r),
  };
  const failure = l.error ? { side: 'left' as const, ...l.error } : r.error ? { side: 'right' as const, ...r.error } : undefined;
  if (failure) result.error = failure;
  if (result.cancelled || result.error) return result;
  const found = diffSnapshots(l, r, options);
  report('rechecking');
  try {
    result.differences = (await recheckDifferences(found, sessionSide(left, l), sessionSide(right, r), options.window))
      .sort((a, b) => comparePaths(a.path, b.path));
  } catch (error) {
    const side = error instanceof RecheckError ? error.side : 'left';
    const zkError = error instanceof RecheckError ? error.error : ZkError.from(error, 'exists', '/');
    result.error = { side, code: zkError.code, operation: zkError.operation, path: zkError.path ?? '/' };
    return result;
  }
  if (options.signal?.aborted) result.cancelled = true;
  result.complete = !result.cancelled && l.unreadable.length === 0 && r.unreadable.length === 0;
  result.equal = result.differences.length === 0;
  return result;
}

function sessionSide(side: CompareSide, snapshot: TreeSnapshot) {
  return 'session' in side ? { snapshot, session: side.session } : { snapshot };
}
