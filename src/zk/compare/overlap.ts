// Whether a copy's source and target subtrees overlap (one holds the other) on one ensemble: a mirror of /app onto
// /app/copy deletes its own source, and the reverse writes the target into itself. Two sessions may reach one
// ensemble under different texts (127.0.0.1 and localhost, two saved connections, a tunnel, another member), and a
// chroot is only the client's prefix: so the paths are compared as the server names them, and "one ensemble" is
// decided by the servers, from a node both sessions read, never from the connect strings.
//
// The witness is a node's creation: its czxid (the zxid of the transaction that created it, epoch included) and its
// ctime (the leader's clock then, in ms). Both are fixed for the node's life, so a write between the two reads
// cannot make one ensemble look like two (mzxid, pzxid and versions can change in between). Two ensembles agree on
// them only when one was restored from the other's snapshot and the node was never recreated: then the guard
// refuses, the safe side. "/" and the /zookeeper nodes have czxid 0 on every server and witness nothing. Nothing is
// written: exists (which needs no permission) and, only when the source is "/", a listing of "/".
import { ZkError } from '../errors';
import { childrenOnServer, existsOnServer, sync } from '../protocol/operations';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';

export interface Subtree {
  session: ZkSession;
  /** The subtree's root as the session names it (below its chroot, if any). */
  root: string;
}

/** Top-level nodes tried as witnesses when the subtrees' own roots witness nothing ("/" copied elsewhere). */
const TOP_LEVEL_TRIED = 10;

/** Whether one path holds the other (or they are the same). */
export function pathsOverlap(a: string, b: string): boolean {
  const under = (inner: string, outer: string) => outer === '/' || inner === outer || inner.startsWith(`${outer}/`);
  return under(a, b) || under(b, a);
}

/** Whether `a` and `b` are subtrees of one ensemble and one holds the other. */
export async function subtreesOverlap(a: Subtree, b: Subtree): Promise<boolean> {
  const [onServerA, onServerB] = [a.session.channel.serverPath(a.root), b.session.channel.serverPath(b.root)];
  if (!pathsOverlap(onServerA, onServerB)) return false;
  return a.session === b.session || sameEnsemble(a.session, b.session, [onServerA, onServerB]);
}

/**
 * Whether two sessions are connected to one ensemble: the first of `candidates` (server paths), then of the
 * top-level nodes, that `a` sees with a creation zxid is looked up through `b`. When no node witnesses anything
 * (an empty server), they count as one: refusing is the safe answer.
 */
export async function sameEnsemble(a: ZkSession, b: ZkSession, candidates: readonly string[] = []): Promise<boolean> {
  const stat = (session: ZkSession, path: string) => session.request(existsOnServer(session.channel, path), 'exists', path);
  const witness = async (path: string): Promise<ZnodeStat | undefined> => {
    const seen = await stat(a, path);
    return seen && seen.czxid !== 0n ? seen : undefined;
  };
  // b may be on a follower that has not yet applied the witness's create (a source made a moment ago): it catches
  // up with the leader first, or one ensemble would look like two and the mirror would go ahead.
  let synced = false;
  const compare = async (path: string, seen: ZnodeStat) => {
    if (!synced) await b.request(sync(b.channel, '/'), 'sync', '/');
    synced = true;
    const there = await stat(b, path);
    return there !== undefined && there.czxid === seen.czxid && there.ctime === seen.ctime;
  };
  for (const path of candidates) {
    const seen = await witness(path);
    if (seen) return compare(path, seen);
  }
  let topLevel: string[];
  try {
    topLevel = await a.request(childrenOnServer(a.channel, '/'), 'getChildren', '/');
  } catch (error) {
    if (ZkError.from(error, 'getChildren', '/').code === 'noAuth') return true;
    throw error;
  }
  for (const name of topLevel.filter((n) => n !== 'zookeeper').slice(0, TOP_LEVEL_TRIED)) {
    const seen = await witness(`/${name}`);
    if (seen) return compare(`/${name}`, seen);
  }
  return true;
}
