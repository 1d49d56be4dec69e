// Two censuses compared, to find leaks: the sessions and paths whose watches grew, the most growth first. The older
// one is usually a saved `--json` file: read as untrusted input. A census lists only its top sessions and paths, so
// one missing from the older list had at most the smallest count listed there: its growth is then a lower bound.
import type { CensusServer, WatchCensus } from './model';

export class CensusFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CensusFormatError';
  }
}

export interface Growth {
  /** The count in the older census; undefined when it did not list this one (see `atLeast`). */
  before?: number;
  now: number;
  grew: number;
  /** The older list was cut at its top: `grew` is the least it grew by. */
  atLeast?: true;
}

export interface SessionGrowth extends Growth {
  id: string;
  clientAddress?: string;
  server: string;
}

export interface PathGrowth extends Growth {
  path: string;
}

export interface ServerGrowth {
  server: string;
  dataWatches: { before?: number; now?: number };
  childWatches: { before?: number; now?: number };
}

export interface CensusComparison {
  /** When each census was taken (ms since the epoch). */
  before: number;
  now: number;
  sessions: SessionGrowth[];
  paths: PathGrowth[];
  servers: ServerGrowth[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Reads a saved census (`zooscope watches --json`); throws CensusFormatError saying what is wrong. */
export function readSavedCensus(text: string): WatchCensus {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CensusFormatError(`not JSON (${(error as Error).message})`);
  }
  if (!isObject(json)) throw new CensusFormatError('not a census: a JSON object is expected');
  const { takenAt, servers, sessions, paths, totals } = json;
  if (!isCount(takenAt) || !Array.isArray(servers) || !Array.isArray(sessions) || !Array.isArray(paths) || !isObject(totals)) {
    throw new CensusFormatError('not a census of zooscope watches --json: takenAt, servers, sessions, paths and totals are expected');
  }
  sessions.forEach((s, i) => {
    if (!isObject(s) || typeof s.id !== 'string' || !isCount(s.watches) || typeof s.server !== 'string') throw new CensusFormatError(`sessions[${i}]: id, server and watches are expected`);
  });
  paths.forEach((p, i) => {
    if (!isObject(p) || typeof p.path !== 'string' || !isCount(p.watchers)) throw new CensusFormatError(`paths[${i}]: path and watchers are expected`);
  });
  servers.forEach((s, i) => {
    if (!isObject(s) || typeof s.server !== 'string') throw new CensusFormatError(`servers[${i}]: server is expected`);
  });
  if (!isCount(totals.watchingSessions) || !isCount(totals.watchedPaths)) throw new CensusFormatError('totals: watchingSessions and watchedPaths are expected');
  return json as unknown as WatchCensus;
}

/** How much one listed count grew, against the older list (complete or cut at its top). */
function growthOf(now: number, before: number | undefined, olderComplete: boolean, olderSmallest: number): Growth | undefined {
  if (before !== undefined) return now > before ? { before, now, grew: now - before } : undefined;
  if (olderComplete) return now > 0 ? { before: 0, now, grew: now } : undefined;
  // Not listed before: it had at most the smallest listed count.
  return now > olderSmallest ? { now, grew: now - olderSmallest, atLeast: true } : undefined;
}

const ranked = <T extends Growth>(key: (t: T) => string) => (a: T, b: T) => b.grew - a.grew || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
const smallest = (counts: number[]) => (counts.length ? Math.min(...counts) : 0);

export function compareCensuses(older: WatchCensus, newer: WatchCensus): CensusComparison {
  const oldSessions = new Map(older.sessions.map((s) => [s.id, s.watches]));
  const sessionsComplete = older.sessions.length >= older.totals.watchingSessions;
  const sessionFloor = smallest(older.sessions.map((s) => s.watches));
  const sessions: SessionGrowth[] = [];
  for (const s of newer.sessions) {
    const growth = growthOf(s.watches, oldSessions.get(s.id), sessionsComplete, sessionFloor);
    if (growth) sessions.push({ id: s.id, ...(s.clientAddress !== undefined ? { clientAddress: s.clientAddress } : {}), server: s.server, ...growth });
  }
  const oldPaths = new Map(older.paths.map((p) => [p.path, p.watchers]));
  const pathsComplete = older.paths.length >= older.totals.watchedPaths;
  const pathFloor = smallest(older.paths.map((p) => p.watchers));
  const paths: PathGrowth[] = [];
  for (const p of newer.paths) {
    const growth = growthOf(p.watchers, oldPaths.get(p.path), pathsComplete, pathFloor);
    if (growth) paths.push({ path: p.path, ...growth });
  }
  const oldServers = new Map<string, CensusServer>(older.servers.map((s) => [s.server, s]));
  const servers = newer.servers.map((s): ServerGrowth => {
    const o = oldServers.get(s.server);
    return { server: s.server, dataWatches: { before: o?.dataWatches, now: s.dataWatches }, childWatches: { before: o?.childWatches, now: s.childWatches } };
  });
  return {
    before: older.takenAt, now: newer.takenAt,
    sessions: sessions.sort(ranked((s) => s.id)), paths: paths.sort(ranked((p) => p.path)), servers,
  };
}
