// What the Watch Census view lists of a census, sorted and filtered as the user chose. Pure (no vscode): the
// view's order and filter are tested on plain data.
import type { CensusPath, CensusSession, HerdRisk, WatchCensus } from '../../zk/census';

export type CensusSort = 'count' | 'name';

export interface CensusRows {
  sessions: CensusSession[];
  paths: CensusPath[];
  herd: HerdRisk[];
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Case-insensitive: a session matches by id, client address or member, a path by itself, a queue by its lock or a waiter. */
export function censusRows(census: WatchCensus, sort: CensusSort, filter?: string): CensusRows {
  const needle = filter?.trim().toLowerCase();
  const matches = (...texts: (string | undefined)[]) => !needle || texts.some((t) => t !== undefined && t.toLowerCase().includes(needle));
  const sessions = census.sessions.filter((s) => matches(s.id, s.clientAddress, s.server, ...s.prefixes.map((p) => p.prefix)));
  const paths = census.paths.filter((p) => matches(p.path));
  const herd = census.herd.filter((h) => matches(h.lock, ...h.named.flatMap((w) => [w.node, w.session, w.clientAddress])));
  if (sort === 'name') {
    sessions.sort((a, b) => byName(a.id, b.id));
    paths.sort((a, b) => byName(a.path, b.path));
    herd.sort((a, b) => byName(a.lock, b.lock));
  }
  // 'count': the census' own order (the most first, the worst risk first).
  return { sessions, paths, herd };
}
