// Queue order, roles and "waits for" under each library's own rules, from the nodes of one queue directory.
// Pure functions: no ZooKeeper access, so every rule is unit-tested on name lists.
import { CONTAINER_OWNER, sessionIdHex } from '../stat';
import { dataLabel } from './labels';
import type { Participant, ParticipantKind, RecipeId } from '../../shared/lockAnalysis';
import type { Family } from './families';
import { curatorKey, ELECTION_RECIPES, ParsedName, parseName } from './recipes';

/** One child of a queue directory as read from ZooKeeper. */
export interface QueueNode {
  name: string;
  path: string;
  ctime: number;
  /** Absent in hand-made test data: hold times are then not inferred from the parent's counters. */
  czxid?: bigint;
  /** ephemeralOwner (0 for persistent nodes). */
  owner: bigint;
  data?: Buffer;
}

interface Ranked {
  node: QueueNode;
  parsed?: ParsedName;
  /** Whether the library counts the node as one of its contenders (kazoo ignores foreign names). */
  counted: boolean;
}

const KAZOO_MARKERS = ['__lock__', '__rlock__'];

/** The library's sort key for any child of the queue, foreign names included (as the library would treat them). */
function sortKey(family: Family, marker: string, name: string, parsed?: ParsedName): string | number {
  if (family === 'curator') return curatorKey(name, marker);
  if (family === 'kazoo') {
    for (const m of KAZOO_MARKERS) {
      const at = name.indexOf(m);
      if (at >= 0) return name.slice(at + m.length);
    }
    return '~'; // kazoo sorts unknown names last
  }
  return parsed?.sequence ?? Number.MAX_SAFE_INTEGER;
}

function compareKeys(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const KIND_TIE_ORDER: Record<ParticipantKind, number> = { write: 0, exclusive: 1, candidate: 2, lease: 3, read: 4 };

/** Sorts a queue's nodes the way `family` does; ties (a Curator read lock reusing its writer's number) put the writer first. */
export function orderQueue(family: Family, nodes: readonly QueueNode[], recipeMarker = ''): Ranked[] {
  const ranked = nodes.map((node) => {
    const parsed = parseName(node.name);
    const mine = !!parsed && (family === 'unknown' || parsed.family === family);
    return { node, parsed, counted: family !== 'kazoo' || mine, key: sortKey(family, recipeMarker || (parsed?.marker ?? ''), node.name, parsed) };
  });
  ranked.sort((a, b) => compareKeys(a.key, b.key) ||
    (KIND_TIE_ORDER[a.parsed?.kind ?? 'exclusive'] - KIND_TIE_ORDER[b.parsed?.kind ?? 'exclusive']) ||
    (a.node.name < b.node.name ? -1 : a.node.name > b.node.name ? 1 : 0));
  return ranked.map(({ node, parsed, counted }) => ({ node, parsed, counted }));
}

export function ownerSession(owner: bigint): string | undefined {
  return owner === 0n || owner === CONTAINER_OWNER ? undefined : sessionIdHex(owner);
}

export function baseParticipant(r: Ranked, position: number, kind: ParticipantKind): Participant {
  return {
    path: r.node.path,
    name: r.node.name,
    sequence: r.parsed?.sequence,
    kind,
    role: 'waiter',
    position,
    session: ownerSession(r.node.owner),
    label: dataLabel(r.node.data),
    since: r.node.ctime,
    waitsFor: [],
    watches: [],
  };
}

/** A fixed leader node's holder: the node's owner, for as long as the node is there. */
export function fixedLeaderHolder(path: string, node: QueueNode): Participant {
  return {
    path, name: node.name, kind: 'candidate', role: 'leader', position: 0, session: ownerSession(node.owner),
    label: dataLabel(node.data), since: node.ctime, waitsFor: [], watches: [],
  };
}

/** The marker a queue's recipe sorts by (Curator keys depend on it). */
function recipeMarker(recipe: RecipeId): string {
  switch (recipe) {
    case 'curator-rwlock': return '__READ__';
    case 'curator-leader-latch': return 'latch-';
    case 'curator-semaphore': return 'lease-';
    case 'curator-mutex': case 'curator-leader-selector': return 'lock-';
    default: return '';
  }
}

function isWrite(r: Ranked): boolean {
  return r.parsed?.kind === 'write' || (r.parsed?.family === 'kazoo' && r.parsed.marker === '__lock__');
}

/**
 * A child with no sequence number that the library sorts after every contender (a folder of other queues beside
 * the lock nodes, a config node) is no participant: nothing waits on it and it waits on nothing. One that sorts
 * before a contender stays: that library's client would wait on it.
 */
function withoutTrailingForeign(ordered: Ranked[]): Ranked[] {
  let end = ordered.length;
  while (end > 0 && !ordered[end - 1].parsed) end--;
  return end === ordered.length ? ordered : ordered.slice(0, end);
}

/**
 * Participants of one queue directory in queue order, with roles and what each waits for. Semaphores are built
 * elsewhere (several directories); this handles locks, read/write locks, elections and unknown sequential queues.
 */
export function participantsOf(recipe: RecipeId, family: Family, nodes: readonly QueueNode[]): Participant[] {
  const ordered = withoutTrailingForeign(orderQueue(family, nodes, recipeMarker(recipe)));
  const election = ELECTION_RECIPES.has(recipe);
  const readWrite = recipe === 'curator-rwlock' || recipe === 'kazoo-rwlock' || recipe === 'plain-rwlock';
  const result: Participant[] = [];
  // One pass, keeping what the rules look back for: the last contender, the first and the nearest write node.
  let lastCounted: Ranked | undefined;
  let firstWrite: Ranked | undefined;
  let nearestWrite: Ranked | undefined;
  ordered.forEach((r, index) => {
    const kind: ParticipantKind = election ? 'candidate'
      : readWrite ? (r.parsed?.kind === 'read' ? 'read' : 'write')
      : r.parsed?.kind === 'lease' ? 'lease' : 'exclusive';
    const p = baseParticipant(r, index, kind);
    let blocker: Ranked | undefined;
    if (kind === 'read') {
      if (recipe === 'curator-rwlock') {
        // Curator: a reader holds unless a write node comes before it; then it waits for the FIRST write node,
        // except that the write-lock holder's own read lock (same session, same number) holds with it.
        const ownWriter = firstWrite && firstWrite === ordered[0] && ownerSession(firstWrite.node.owner) === p.session && p.session !== undefined;
        blocker = ownWriter ? undefined : firstWrite;
      } else {
        // kazoo and the plain recipe: the nearest earlier write node.
        blocker = nearestWrite;
      }
    } else if (r.counted) {
      blocker = lastCounted;
    } else {
      blocker = ordered[index - 1];
    }
    if (blocker) {
      p.waitsFor = [blocker.node.path];
    } else {
      p.role = election ? 'leader' : 'holder';
    }
    result.push(p);
    if (r.counted) {
      lastCounted = r;
      if (isWrite(r)) {
        firstWrite ??= r;
        nearestWrite = r;
      }
    }
  });
  return result;
}
