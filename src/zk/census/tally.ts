// Counting a census as the members' listings stream in, one (session, path) watch at a time: per session its count,
// member and the parents of its paths; per path its watchers over all members. Nothing else of a watch is kept, so
// memory grows with the distinct paths and sessions, not with the answer's size. Pure: tests feed it directly.
import type { CensusPath, CensusSession, PrefixCount } from './model';

/** Parents counted per session at most; the rest of its watches are counted under OTHER_PREFIX. */
export const MAX_PREFIXES_PER_SESSION = 256;
/** Never a path (paths begin with "/"): the watches of a session beyond its first MAX_PREFIXES_PER_SESSION parents. */
export const OTHER_PREFIX = '(other parents)';
/** Parents listed per session in the census. */
const PREFIXES_SHOWN = 5;

interface SessionTally {
  server: string;
  watches: number;
  prefixes: Map<string, number>;
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

const byCountThenName = <T>(count: (t: T) => number, name: (t: T) => string) => (a: T, b: T) =>
  count(b) - count(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

/** The `n` largest of `items` in `order`, without sorting them all (a bounded selection). */
function topOf<T>(items: Iterable<T>, n: number, order: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  for (const item of items) {
    if (kept.length === n && order(item, kept[n - 1]) >= 0) continue;
    let i = kept.length === n ? n - 1 : kept.length;
    while (i > 0 && order(item, kept[i - 1]) < 0) {
      if (i < n) kept[i] = kept[i - 1];
      i--;
    }
    if (i < n) kept[i] = item;
  }
  return kept;
}

export class WatchTally {
  private readonly byPath = new Map<string, number>();
  private readonly bySession = new Map<string, SessionTally>();
  private readonly kept = new Map<string, Set<string>>();
  dataWatches = 0;

  /** `keep`: which watches to remember whole (a lock waiter's watches in its queue, for the herd). */
  constructor(private readonly keep?: (session: string, path: string) => boolean) {}

  add(server: string, session: string, path: string): void {
    this.dataWatches++;
    this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
    let s = this.bySession.get(session);
    if (!s) this.bySession.set(session, s = { server, watches: 0, prefixes: new Map() });
    s.watches++;
    const parent = parentOf(path);
    const prefix = s.prefixes.has(parent) || s.prefixes.size < MAX_PREFIXES_PER_SESSION ? parent : OTHER_PREFIX;
    s.prefixes.set(prefix, (s.prefixes.get(prefix) ?? 0) + 1);
    if (this.keep?.(session, path)) {
      let paths = this.kept.get(session);
      if (!paths) this.kept.set(session, paths = new Set());
      paths.add(path);
    }
  }

  /** The watches `keep` chose, by session. */
  keptWatches(session: string): ReadonlySet<string> {
    return this.kept.get(session) ?? new Set();
  }

  /** The member a session's listed watches were found on. */
  serverOf(session: string): string | undefined {
    return this.bySession.get(session)?.server;
  }

  get watchingSessions(): number { return this.bySession.size; }
  get watchedPaths(): number { return this.byPath.size; }

  topPaths(n: number): CensusPath[] {
    const order = byCountThenName<[string, number]>(([, c]) => c, ([p]) => p);
    return topOf(this.byPath, n, order).map(([path, watchers]) => ({ path, watchers }));
  }

  topSessions(n: number, clientOf: (session: string) => string | undefined): CensusSession[] {
    const order = byCountThenName<[string, SessionTally]>(([, s]) => s.watches, ([id]) => id);
    return topOf(this.bySession, n, order).map(([id, s]) => {
      const session: CensusSession = { id, server: s.server, watches: s.watches, prefixes: topPrefixes(s.prefixes) };
      const client = clientOf(id);
      if (client !== undefined) session.clientAddress = client;
      return session;
    });
  }
}

function topPrefixes(prefixes: Map<string, number>): PrefixCount[] {
  const order = byCountThenName<[string, number]>(([, c]) => c, ([p]) => p);
  return topOf(prefixes, PREFIXES_SHOWN, order).map(([prefix, watches]) => ({ prefix, watches }));
}
