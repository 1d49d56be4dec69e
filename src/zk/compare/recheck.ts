// A difference seen between two reads may be a write that happened meanwhile, not a difference. Before one is
// reported, each live side is asked again: if the node's Stat moved since it was read (or, for a node missing on
// that side, its nearest read ancestor's child list moved), the path is reported as changed during the
// comparison instead.
import { ZkError } from '../errors';
import * as ops from '../protocol/operations';
import type { ZkSession } from '../session/session';
import { mapBounded } from '../timeouts';
import type { ZnodeStat } from '../stat';
import { parentPath } from '../paths';
import type { Difference } from './differences';
import { absolutePath, TreeSnapshot } from './snapshot';

export interface LiveSide {
  snapshot: TreeSnapshot;
  /** Absent for an export (nothing to ask again). */
  session?: ZkSession;
}

const moved = (now: ZnodeStat | undefined, then: ZnodeStat | undefined) => !now || !then ||
  now.czxid !== then.czxid || now.mzxid !== then.mzxid || now.pzxid !== then.pzxid || now.cversion !== then.cversion || now.aversion !== then.aversion;

/** Whether `path` (relative) changed on this side since the snapshot; memoized per absolute path asked. */
function changeChecker(side: LiveSide): (path: string) => Promise<boolean> {
  const { snapshot, session } = side;
  const asked = new Map<string, Promise<ZnodeStat | undefined>>();
  const statNow = (absolute: string) => {
    let reply = asked.get(absolute);
    if (!reply) {
      reply = session!.request(ops.exists(session!.channel, absolute), 'exists', absolute);
      asked.set(absolute, reply);
    }
    return reply;
  };
  return async (path) => {
    if (!session || snapshot.source !== 'live') return false;
    const node = snapshot.nodes.get(path);
    if (node) return moved(await statNow(absolutePath(path, snapshot.root)), node.stat);
    // Missing here: did a node appear under the nearest ancestor that was read?
    for (let ancestor = parentPath(path); ancestor !== undefined; ancestor = parentPath(ancestor)) {
      const read = snapshot.nodes.get(ancestor);
      if (read) {
        const now = await statNow(absolutePath(ancestor, snapshot.root));
        return !now || now.pzxid !== read.stat?.pzxid;
      }
    }
    return (await statNow(snapshot.root)) !== undefined; // the root was missing: is it still?
  };
}

/** A side could not be asked again. */
export class RecheckError extends Error {
  constructor(readonly side: 'left' | 'right', readonly error: ZkError) {
    super(error.message);
    this.name = 'RecheckError';
  }
}

/** Whether `path` is at or below one of `roots` (relative paths). */
function under(path: string, roots: ReadonlySet<string>): boolean {
  for (let p: string | undefined = path; p !== undefined; p = parentPath(p)) if (roots.has(p)) return true;
  return false;
}

/**
 * The differences with those that moved since they were read replaced by one `changed` entry per path (also for
 * paths the reads themselves saw changing). Throws a RecheckError when a side cannot be asked.
 */
export async function recheckDifferences(differences: Difference[], left: LiveSide, right: LiveSide, window = 256): Promise<Difference[]> {
  const seenChanging = new Set([...left.snapshot.changed, ...right.snapshot.changed]);
  const leftChanged = changeChecker(left);
  const rightChanged = changeChecker(right);
  const verdicts = new Map<string, Promise<boolean>>();
  const changed = (path: string) => {
    let verdict = verdicts.get(path);
    if (!verdict) {
      verdict = under(path, seenChanging) ? Promise.resolve(true)
        : Promise.all([
          leftChanged(path).catch((error: unknown) => { throw new RecheckError('left', ZkError.from(error, 'exists', path)); }),
          rightChanged(path).catch((error: unknown) => { throw new RecheckError('right', ZkError.from(error, 'exists', path)); }),
        ]).then(([l, r]) => l || r);
      verdicts.set(path, verdict);
    }
    return verdict;
  };
  const flags = await mapBounded(differences, window, (d) => changed(d.path));
  const result: Difference[] = [];
  const reported = new Set<string>();
  differences.forEach((difference, i) => {
    if (!flags[i]) return void result.push(difference);
    if (reported.has(difference.path)) return;
    reported.add(difference.path);
    result.push({ path: difference.path, kind: 'changed', left: difference.left, right: difference.right });
  });
  // Paths seen changing that made no difference still say the comparison may be stale there.
  for (const path of seenChanging) {
    if (!reported.has(path)) result.push({ path, kind: 'changed' });
  }
  return result;
}
