// Which library's queue a lock path holds, so that a node ZooScope adds follows that library's rules. Names are
// parsed by the lock analysis' recognisers (src/zk/analysis/recipes.ts); this decides what joining means.
import { parseName, ParsedName } from '../analysis/recipes';
import { ConventionId } from './conventions';

export type ConventionDetection =
  /** No children that look like lock nodes: any convention works; ZooScope uses 'plain'. */
  | { status: 'empty'; others: number }
  /** One library's queue: join with `convention`. */
  | { status: 'recognised'; convention: ConventionId; contenders: number; others: number }
  /** Several libraries' nodes (they do not exclude each other), or names of no known library. */
  | { status: 'mixed'; conventions: ConventionId[]; unrecognised: string[] }
  | { status: 'unknown'; unrecognised: string[] };

function conventionOf(p: ParsedName): ConventionId | undefined {
  switch (p.family) {
    case 'curator':
      if (p.marker === '__READ__' || p.marker === '__WRIT__') return 'curator-rwlock';
      if (p.marker === 'latch-') return 'curator-latch';
      return p.marker === 'lock-' ? 'curator-mutex' : undefined;
    case 'kazoo': return 'kazoo';
    case 'zk-write-lock': return 'zk-write-lock';
    case 'zk-leader-election': return 'zk-election';
    case 'plain': return 'plain';
    default: return undefined;
  }
}

/** Names of lock nodes that no library recognised here would count: sequential names of an unknown shape. */
const SEQUENTIAL = /-?\d{10}$/;

export function detectConvention(children: readonly string[]): ConventionDetection {
  const found = new Map<ConventionId, number>();
  const unrecognised: string[] = [];
  let others = 0;
  for (const name of children) {
    const parsed = parseName(name);
    const id = parsed && conventionOf(parsed);
    if (id) found.set(id, (found.get(id) ?? 0) + 1);
    else if (SEQUENTIAL.test(name)) unrecognised.push(name);
    else others++;
  }
  // Two libraries on one path do not exclude each other (nor do a Curator mutex and a Curator read/write lock):
  // joining such a queue needs the user's choice.
  const ids = [...found.keys()];
  if (ids.length === 0) return unrecognised.length ? { status: 'unknown', unrecognised } : { status: 'empty', others };
  if (ids.length > 1 || unrecognised.length) return { status: 'mixed', conventions: ids, unrecognised };
  return { status: 'recognised', convention: ids[0], contenders: found.get(ids[0]) ?? 0, others };
}

export type ConventionChoice =
  | { ok: true; convention: ConventionId; detection: ConventionDetection }
  | { ok: false; reason: 'conventionUnknown'; detection: ConventionDetection };

/**
 * The convention to join with: the recognised one, ZooScope's own on an empty path, or `forced` when the caller
 * chose (after warning the user). Unknown or mixed queues are not joined without a choice.
 */
export function chooseConvention(children: readonly string[], forced?: ConventionId): ConventionChoice {
  const detection = detectConvention(children);
  if (forced) return { ok: true, convention: forced, detection };
  if (detection.status === 'recognised') return { ok: true, convention: detection.convention, detection };
  if (detection.status === 'empty') return { ok: true, convention: 'plain', detection };
  return { ok: false, reason: 'conventionUnknown', detection };
}
