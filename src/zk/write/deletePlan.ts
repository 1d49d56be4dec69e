// Step 1 of a recursive delete: a preview of exactly what would be deleted. The plan lists every node (deepest
// first, with the version seen) so that executing it deletes only those nodes, at those versions; it counts them,
// keeps a few sample paths, and lists ephemeral nodes owned by OTHER sessions (deleting them pulls the floor from
// under a live client: a lock holder, a registered service).
import { crawl, CrawlOptions, CrawlSummary } from '../search/crawl';
import type { ZkSession } from '../session/session';
import { nodeKind, sessionIdHex } from '../stat';
import { depthOf } from './deleteMany';
import { checkTarget } from './guard';
import { refused, WriteFailure } from './outcome';

export interface ForeignEphemeral {
  path: string;
  /** The owning session, `0x…`. */
  owner: string;
}

export interface DeletePlan {
  root: string;
  /** Number of nodes that would be deleted (the root included). */
  count: number;
  /** Every node to delete, deepest first; `versions[i]` is the data version `paths[i]` had in the preview. */
  paths: string[];
  versions: number[];
  /** The first nodes met (top of the tree first), for the confirmation dialog. */
  samples: string[];
  /** Ephemeral nodes of other sessions, up to `maxListed`; `foreignEphemeralCount` counts all. */
  foreignEphemerals: ForeignEphemeral[];
  foreignEphemeralCount: number;
  /** Ephemeral nodes of this session. */
  ownEphemeralCount: number;
  /** The walk: vanished and unreadable nodes, cancelled, or the error that stopped it. */
  crawl: CrawlSummary;
  /** True when the walk saw the whole subtree (not cancelled, no error): only a complete plan can be executed. */
  complete: boolean;
}

export interface PlanOptions extends Pick<CrawlOptions, 'window' | 'signal' | 'stallTimeoutMs'> {
  onProgress?: (progress: { visited: number }) => void;
  /** Sample paths kept (default 10). */
  samples?: number;
  /** Foreign ephemerals listed (default 1000). */
  maxListed?: number;
}

export async function planRecursiveDelete(session: ZkSession, root: string, options: PlanOptions = {}): Promise<{ ok: true; plan: DeletePlan } | { ok: false; failure: WriteFailure }> {
  const refusal = checkTarget(root);
  if (refusal) return refused('delete', root, refusal);
  const ourSession = session.sessionId;
  const sampleCount = options.samples ?? 10;
  const maxListed = options.maxListed ?? 1000;
  // Grouped by depth while walking, so the deepest-first order needs no sort of the whole list.
  const byDepth: { paths: string[]; versions: number[] }[] = [];
  const plan: Omit<DeletePlan, 'crawl' | 'complete' | 'paths' | 'versions'> = {
    root, count: 0, samples: [], foreignEphemerals: [], foreignEphemeralCount: 0, ownEphemeralCount: 0,
  };
  const rootDepth = depthOf(root);
  const summary = await crawl(session, root, ({ path, stat }) => {
    const level = depthOf(path) - rootDepth;
    (byDepth[level] ??= { paths: [], versions: [] }).paths.push(path);
    byDepth[level].versions.push(stat.version);
    plan.count++;
    if (plan.samples.length < sampleCount) plan.samples.push(path);
    if (nodeKind(stat) === 'ephemeral') {
      const owner = sessionIdHex(stat.ephemeralOwner);
      if (owner === ourSession) plan.ownEphemeralCount++;
      else {
        plan.foreignEphemeralCount++;
        if (plan.foreignEphemerals.length < maxListed) plan.foreignEphemerals.push({ path, owner });
      }
    }
  }, { window: options.window, signal: options.signal, stallTimeoutMs: options.stallTimeoutMs, onProgress: options.onProgress });
  if (summary.error?.code === 'noNode' && summary.error.path === root) {
    return { ok: false, failure: { code: 'noNode', operation: 'delete', path: root } };
  }
  const paths: string[] = [];
  const versions: number[] = [];
  for (let level = byDepth.length - 1; level >= 0; level--) {
    const group = byDepth[level];
    if (!group) continue;
    for (let i = 0; i < group.paths.length; i++) {
      paths.push(group.paths[i]);
      versions.push(group.versions[i]);
    }
    byDepth[level] = { paths: [], versions: [] };
  }
  const complete = !summary.cancelled && !summary.error && !summary.stoppedEarly;
  return { ok: true, plan: { ...plan, paths, versions, crawl: summary, complete } };
}
