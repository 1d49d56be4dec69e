// A path as each member serves it: one session per member with only that member in the connect string, reading
// the path's stat and data (and children, when asked), then each compared with the leader's. No `sync` is issued, on
// purpose: a follower may legitimately be a little behind the leader, and seeing that is the point of this mode.
import type { SessionOptions } from '../session/session';
import { ZkSession } from '../session/session';
import { firstLine, ZkError } from '../errors';

export type PathDifference = 'existence' | 'mzxid' | 'version' | 'data' | 'children';

export interface MemberPathRead {
  address: string;
  /** Set when the member could not be read (no session within the deadline, a request failed). */
  error?: string;
  exists?: boolean;
  mzxid?: bigint;
  version?: number;
  dataLength?: number;
  numChildren?: number;
  data?: Buffer;
  children?: string[];
  /** How it differs from the leader's read (empty when it matches, undefined for the leader or without one). */
  differences?: PathDifference[];
}

export interface PathComparison {
  path: string;
  /** The member compared against; undefined when there is no single leader (nothing is then called stale). */
  reference?: string;
  members: MemberPathRead[];
  /** Some member serves something else than the leader. */
  stale: boolean;
}

export interface PathCompareOptions {
  /** The leader's address (from the consistency check). */
  leader?: string;
  withChildren?: boolean;
  /** Per member: the session and the reads must be done within this long. */
  deadlineMs: number;
  signal?: AbortSignal;
  /** The connection's settings (chroot, TLS, SASL, digest, SSH): each member is reached as the session would. */
  session?: Omit<SessionOptions, 'connectString'>;
}

async function readOne(address: string, path: string, options: PathCompareOptions): Promise<MemberPathRead> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.deadlineMs);
  const onCancel = () => deadline.abort();
  options.signal?.addEventListener('abort', onCancel, { once: true });
  const session = new ZkSession({
    ...options.session, connectString: address,
    sessionTimeoutMs: Math.max(4000, options.deadlineMs), requestTimeoutMs: options.deadlineMs,
  });
  const read: MemberPathRead = { address };
  try {
    await session.open(deadline.signal);
    const stopped = new Promise<never>((_, reject) => deadline.signal.addEventListener('abort', () => reject(new Error('deadline')), { once: true }));
    try {
      const { data, stat } = await Promise.race([session.getData(path), stopped]);
      Object.assign(read, { exists: true, data, mzxid: stat.mzxid, version: stat.version, dataLength: stat.dataLength, numChildren: stat.numChildren });
      if (options.withChildren) read.children = [...(await Promise.race([session.getChildren(path), stopped])).children].sort();
    } catch (error) {
      if (!(error instanceof ZkError && error.code === 'noNode')) throw error;
      read.exists = false;
    }
  } catch (error) {
    if (options.signal?.aborted) throw error;
    read.error = deadline.signal.aborted ? `no answer within ${options.deadlineMs} ms` : firstLine(error);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
    session.close();
  }
  return read;
}

function sameChildren(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a === undefined || b === undefined || (a.length === b.length && a.every((name, i) => name === b[i]));
}

export function differencesFrom(reference: MemberPathRead, read: MemberPathRead): PathDifference[] {
  if (read.exists !== reference.exists) return ['existence'];
  if (!read.exists) return [];
  const found: PathDifference[] = [];
  if (read.mzxid !== reference.mzxid) found.push('mzxid');
  if (read.version !== reference.version) found.push('version');
  if (!(read.data ?? Buffer.alloc(0)).equals(reference.data ?? Buffer.alloc(0))) found.push('data');
  if (!sameChildren(read.children, reference.children)) found.push('children');
  return found;
}

/** Reads `path` from every member alone, in parallel, and marks what differs from the leader's read. */
export async function comparePathAcrossMembers(members: readonly string[], path: string, options: PathCompareOptions): Promise<PathComparison> {
  const reads = await Promise.all(members.map((address) => readOne(address, path, options)));
  const reference = reads.find((r) => r.address === options.leader && r.error === undefined);
  for (const read of reads) {
    if (reference && read !== reference && read.error === undefined) read.differences = differencesFrom(reference, read);
  }
  return { path, reference: reference?.address, members: reads, stale: reads.some((r) => (r.differences?.length ?? 0) > 0) };
}
