// Recognising lock, semaphore and election queues from child names, as real client libraries write them
// (see shared/notes/lock-recipes.md): which library, what kind of node, its GUID and its sequence number, and the
// key that library sorts by (the raw name order differs whenever prefixes differ).
import type { ParticipantKind, RecipeId } from '../../shared/lockAnalysis';
import type { Family } from './families';
import { systemQueueRecipe } from './systemElections';

export interface ParsedName {
  name: string;
  family: Family;
  /** The library's marker in the name: `lock-`, `__READ__`, `__lock__`, `read-`, … ('' when none). */
  marker: string;
  kind: ParticipantKind;
  /** What makes a node its creator's (Curator/go protection id, kazoo uuid, a session id, a plain guid). */
  guid?: string;
  sequence?: number;
  /** Library sort key: strings compare as text (Curator, kazoo), numbers by value (the others). */
  sortKey: string | number;
}

const SEQ = '(-\\d{9}|\\d{10})';
const UUID36 = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const CURATOR = new RegExp(`^_c_(${UUID36})-(lock-|__READ__|__WRIT__|latch-|lease-)${SEQ}$`);
const CURATOR_OTHER = new RegExp(`^_c_(${UUID36})-(.*?)${SEQ}$`);
const GO_LOCK = new RegExp(`^_c_([0-9a-f]{32})-lock-${SEQ}$`);
const KAZOO = new RegExp(`^([0-9a-f]{32})(__lock__|__rlock__)${SEQ}$`);
const ZK_WRITE_LOCK = new RegExp(`^x-(-?\\d{1,20})-${SEQ}$`);
const ZK_ELECTION = new RegExp(`^n_${SEQ}$`);
const SOLR = new RegExp(`^(-?\\d{1,20})-(.+)-n_${SEQ}$`);
const PLAIN = new RegExp(`^(?:(.+)-)?(lock|read|write)-${SEQ}$`);
const ANY_SEQUENTIAL = new RegExp(`^(.*?)${SEQ}$`);
const KAZOO_SEMAPHORE_LEASE = /^[0-9a-f]{32}$/;

const CURATOR_KINDS: Record<string, ParticipantKind> = {
  'lock-': 'exclusive', '__READ__': 'read', '__WRIT__': 'write', 'latch-': 'candidate', 'lease-': 'lease',
};

/** Curator: the text after the LAST occurrence of the lock name (the whole name when absent). */
export function curatorKey(name: string, marker: string): string {
  const markers = marker === '__READ__' || marker === '__WRIT__' ? ['__READ__', '__WRIT__'] : [marker];
  let key = name;
  for (const m of markers) {
    const at = key.lastIndexOf(m);
    if (at >= 0) key = key.slice(at + m.length);
  }
  return key;
}

/** Parses one child name; undefined when it carries no sequence number and no known shape. */
export function parseName(name: string): ParsedName | undefined {
  let m = CURATOR.exec(name);
  if (m) return { name, family: 'curator', marker: m[2], kind: CURATOR_KINDS[m[2]], guid: m[1], sequence: Number(m[3]), sortKey: curatorKey(name, m[2]) };
  m = GO_LOCK.exec(name);
  if (m) return { name, family: 'go-zookeeper', marker: 'lock-', kind: 'exclusive', guid: m[1], sequence: Number(m[2]), sortKey: Number(m[2]) };
  m = KAZOO.exec(name);
  if (m) {
    return { name, family: 'kazoo', marker: m[2], kind: m[2] === '__rlock__' ? 'read' : 'exclusive', guid: m[1], sequence: Number(m[3]), sortKey: m[3] };
  }
  m = ZK_WRITE_LOCK.exec(name);
  if (m) return { name, family: 'zk-write-lock', marker: 'x-', kind: 'exclusive', guid: m[1], sequence: Number(m[2]), sortKey: Number(m[2]) };
  m = ZK_ELECTION.exec(name);
  if (m) return { name, family: 'zk-leader-election', marker: 'n_', kind: 'candidate', sequence: Number(m[1]), sortKey: Number(m[1]) };
  m = SOLR.exec(name);
  if (m) return { name, family: 'solr', marker: 'n_', kind: 'candidate', guid: m[1], sequence: Number(m[3]), sortKey: Number(m[3]) };
  m = PLAIN.exec(name);
  if (m) {
    const kind: ParticipantKind = m[2] === 'read' ? 'read' : m[2] === 'write' ? 'write' : 'exclusive';
    return { name, family: 'plain', marker: `${m[2]}-`, kind, guid: m[1], sequence: Number(m[3]), sortKey: Number(m[3]) };
  }
  m = CURATOR_OTHER.exec(name);
  if (m) return { name, family: 'unknown', marker: m[2], kind: 'exclusive', guid: m[1], sequence: Number(m[3]), sortKey: Number(m[3]) };
  m = ANY_SEQUENTIAL.exec(name);
  if (m) return { name, family: 'unknown', marker: m[1], kind: 'exclusive', sequence: Number(m[2]), sortKey: Number(m[2]) };
  return undefined;
}

/** Names that suggest the queue is an election rather than a lock (Curator and kazoo use one node shape for both). */
const ELECTION_PATH = /(leader|elect|selector|master|primary)/i;

export interface Recognition {
  recipe: RecipeId;
  family: Family;
  /** The names that belong to the recognised library (others are foreign to it). */
  parsed: ParsedName[];
}

/**
 * kazoo's Semaphore names each lease a bare uuid4 in hex. About one lease in a hundred ends in ten decimal digits and
 * so also reads as a sequential name: the leases are told first. Only names sharing everything before the last ten
 * characters are a prefix with sequence numbers instead (two uuids never share 22 hex digits).
 */
function areKazooLeases(childNames: readonly string[]): boolean {
  if (childNames.length === 0 || !childNames.every((c) => KAZOO_SEMAPHORE_LEASE.test(c))) return false;
  const prefix = childNames[0].slice(0, -10);
  return childNames.length === 1 || childNames.some((c) => !c.startsWith(prefix));
}

/** Recognises a queue from its children; `path` helps tell an election from a lock where names cannot. */
export function recognizeQueue(childNames: readonly string[], path = ''): Recognition | undefined {
  if (childNames.length > 0 && childNames.includes('leases') && childNames.every((c) => c === 'leases' || c === 'locks')) {
    return { recipe: 'curator-semaphore', family: 'curator', parsed: [] };
  }
  if (areKazooLeases(childNames)) return { recipe: 'kazoo-semaphore', family: 'kazoo', parsed: [] };
  const parsed: ParsedName[] = [];
  const counts = new Map<Family, number>();
  for (const name of childNames) {
    const p = parseName(name);
    if (!p) continue;
    parsed.push(p);
    counts.set(p.family, (counts.get(p.family) ?? 0) + 1);
  }
  if (parsed.length === 0) return undefined;
  // The library most names belong to; 'unknown' only when no library matches.
  let family: Family = 'unknown';
  let best = 0;
  for (const [f, n] of counts) if (f !== 'unknown' && n > best) { family = f; best = n; }
  const mine = parsed.filter((p) => p.family === family);
  // A folder with a few sequential names among many others is not a queue.
  if (family === 'unknown' ? parsed.length < childNames.length : mine.length * 2 < childNames.length) return undefined;
  const markers = new Set(mine.map((p) => p.marker));
  const election = ELECTION_PATH.test(path.slice(path.lastIndexOf('/') + 1));
  let recipe: RecipeId;
  switch (family) {
    case 'curator':
      if (markers.has('__READ__') || markers.has('__WRIT__')) recipe = 'curator-rwlock';
      else if (markers.has('latch-')) recipe = 'curator-leader-latch';
      else if (markers.has('lease-')) recipe = 'curator-semaphore';
      else recipe = election ? 'curator-leader-selector' : 'curator-mutex';
      break;
    case 'kazoo':
      recipe = markers.has('__rlock__') ? 'kazoo-rwlock' : election ? 'kazoo-election' : 'kazoo-lock';
      break;
    case 'go-zookeeper': recipe = 'go-zookeeper-lock'; break;
    case 'zk-write-lock': recipe = 'zk-write-lock'; break;
    case 'zk-leader-election': recipe = 'zk-leader-election'; break;
    case 'solr': recipe = 'solr-election'; break;
    case 'plain': recipe = markers.has('read-') || markers.has('write-') ? 'plain-rwlock' : 'plain-lock'; break;
    default: recipe = 'unknown';
  }
  recipe = systemQueueRecipe(path, recipe, family, markers) ?? recipe;
  return { recipe, family, parsed: family === 'unknown' ? parsed : mine.concat(parsed.filter((p) => p.family !== family)) };
}

/** Cheap recognition from child names only, for marking tree nodes that look like lock queues. */
export function looksLikeLockQueue(childNames: readonly string[]): RecipeId | undefined {
  return recognizeQueue(childNames)?.recipe;
}

/** Well-known single ephemeral leader nodes (Kafka, Helix, HBase, Hadoop HA). */
export function isFixedLeaderName(name: string): boolean {
  return /^(controller|master|leader|LEADER|ActiveStandbyElectorLock|active)$/.test(name);
}

export const ELECTION_RECIPES: ReadonlySet<RecipeId> = new Set([
  'curator-leader-latch', 'curator-leader-selector', 'kazoo-election', 'zk-leader-election', 'solr-election', 'fixed-leader',
  'patroni-leader', 'hbase-master', 'hadoop-ha-elector', 'kafka-controller', 'clickhouse-leader-election', 'solr-overseer',
]);
