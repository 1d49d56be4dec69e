// How each lock library names its queue nodes, orders its queue and decides whom a contender waits for, so that a
// node ZooScope adds to somebody else's queue is one of theirs in their own eyes (shared/notes/lock-recipes.md).
// ZooScope's own queues follow 'plain': `<guid>-lock-|read-|write-<seq10>`, ordered by the sequence number.
import type { LockMode } from './lockMode';

export type ConventionId = 'plain' | 'curator-mutex' | 'curator-rwlock' | 'curator-latch' | 'kazoo' | 'zk-write-lock' | 'zk-election';

export const CONVENTION_IDS: readonly ConventionId[] = ['plain', 'curator-mutex', 'curator-rwlock', 'curator-latch', 'kazoo', 'zk-write-lock', 'zk-election'];

/** What a node means in its queue: exclusive and write nodes exclude everyone; readers exclude writers only. */
export type NodeRole = 'exclusive' | 'read' | 'write';

export interface Contender {
  name: string;
  role: NodeRole;
}

/** What makes a node ours: a fresh GUID per attempt, and the lock session's id (ZooKeeper's WriteLock names by it). */
export interface NodeIdentity {
  guid: string;
  sessionId: bigint;
}

export interface LockConvention {
  readonly id: ConventionId;
  /** The role our node plays for `mode`, or undefined when the library has no such lock. */
  roleFor(mode: LockMode): NodeRole | undefined;
  /** A new node's name before the sequence number the server appends. */
  prefix(role: NodeRole, identity: NodeIdentity): string;
  /** The contenders among `children`, in the library's queue order (children it ignores are left out). */
  order(children: readonly string[]): Contender[];
  /** The node the contender at `index` waits for; undefined when it holds the lock. */
  blocker(queue: readonly Contender[], index: number): Contender | undefined;
  /** Whether a child is the node created with `identity`; undefined when names cannot tell (check the owner). */
  isOwn(name: string, identity: NodeIdentity): boolean | undefined;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const hex32 = (guid: string) => guid.replace(/-/g, '');

/** Waiting rules shared by the libraries: writers wait for the nearest earlier contender of any kind. */
function nearestBlocker(queue: readonly Contender[], index: number, readersWaitForFirstWrite = false): Contender | undefined {
  const me = queue[index];
  if (me.role !== 'read') return index > 0 ? queue[index - 1] : undefined;
  const earlier = queue.slice(0, index).filter((c) => c.role !== 'read');
  // Curator: a reader waits for the FIRST write node ahead of it; kazoo and ZooKeeper's recipe: the nearest one.
  return readersWaitForFirstWrite ? earlier[0] : earlier[earlier.length - 1];
}

/** Sorts by a key; names with equal keys by name (the libraries leave such ties to chance). */
function sortBy<T>(items: T[], key: (item: T) => string | number, name: (item: T) => string): T[] {
  return items.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : byText(String(x), String(y));
    return c || byText(name(a), name(b));
  });
}

const PLAIN = /^(?:(.+)-)?(lock|read|write)-(-?\d{9,10})$/;

const plain: LockConvention = {
  id: 'plain',
  roleFor: (mode) => (mode === 'read' ? 'read' : mode === 'write' ? 'write' : mode === 'unfairElection' ? undefined : 'exclusive'),
  prefix: (role, id) => `${hex32(id.guid)}-${role === 'exclusive' ? 'lock' : role}-`,
  // Runs on every wake-up (once per hand-off): one pass, one numeric sort.
  order(children) {
    const parsed: (Contender & { seq: number })[] = [];
    for (const name of children) {
      const m = PLAIN.exec(name);
      if (m) parsed.push({ name, role: (m[2] === 'lock' ? 'exclusive' : m[2]) as NodeRole, seq: Number(m[3]) });
    }
    return parsed.sort((a, b) => a.seq - b.seq || byText(a.name, b.name));
  },
  blocker: (queue, index) => nearestBlocker(queue, index),
  isOwn: (name, id) => name.startsWith(`${hex32(id.guid)}-`),
};

/**
 * Curator sorts EVERY child (it filters none) by the text after the last occurrence of its lock name, or the whole
 * name when absent, compared as text. Its read/write lock strips `__READ__` then `__WRIT__`.
 */
function curator(id: ConventionId, markers: readonly string[], roleFor: LockConvention['roleFor']): LockConvention {
  const key = (name: string) => markers.reduce((k, m) => (k.lastIndexOf(m) >= 0 ? k.slice(k.lastIndexOf(m) + m.length) : k), name);
  const roleOf = (name: string): NodeRole => (name.includes('__WRIT__') ? 'write' : name.includes('__READ__') ? 'read' : 'exclusive');
  return {
    id,
    roleFor,
    prefix: (role, ident) => `_c_${ident.guid}-${role === 'read' ? '__READ__' : role === 'write' ? '__WRIT__' : markers[0]}`,
    order: (children) => sortBy(children.map((name) => ({ name, role: roleOf(name) })), (c) => key(c.name), (c) => c.name),
    blocker: (queue, index) => nearestBlocker(queue, index, true),
    isOwn: (name, ident) => name.startsWith(`_c_${ident.guid}-`),
  };
}

const KAZOO = /(__lock__|__rlock__)(-?\d{10})$/;

/** kazoo counts only names carrying its markers, sorted by the 10 digits as text; `__rlock__` nodes are readers. */
const kazoo: LockConvention = {
  id: 'kazoo',
  roleFor: (mode) => (mode === 'read' ? 'read' : mode === 'unfairElection' ? undefined : 'write'),
  prefix: (role, id) => `${hex32(id.guid)}${role === 'read' ? '__rlock__' : '__lock__'}`,
  order(children) {
    const parsed = children.flatMap((name) => {
      const m = KAZOO.exec(name);
      return m ? [{ name, role: (m[1] === '__rlock__' ? 'read' : 'write') as NodeRole, key: m[2] }] : [];
    });
    return sortBy(parsed, (c) => c.key, (c) => c.name).map(({ name, role }) => ({ name, role }));
  },
  // Our writer waits for readers too (kazoo's WriteLock; its plain Lock ignores readers, so this is the safe side).
  blocker: (queue, index) => nearestBlocker(queue, index),
  isOwn: (name, id) => name.startsWith(hex32(id.guid)),
};

/** The sequence after the last '-' (ZooKeeper's ZNodeName); names without one sort last. */
function suffixNumber(name: string): number {
  const at = name.lastIndexOf('-');
  const n = at >= 0 ? Number(name.slice(at + 1)) : NaN;
  return Number.isInteger(n) ? n : Number.MAX_SAFE_INTEGER;
}

/** ZooKeeper's WriteLock recipe: `x-<sessionId decimal>-<seq>`; its own recovery finds the node by session id. */
const zkWriteLock: LockConvention = {
  id: 'zk-write-lock',
  roleFor: (mode) => (mode === 'exclusive' || mode === 'write' || mode === 'election' ? 'exclusive' : undefined),
  prefix: (_role, id) => `x-${BigInt.asIntN(64, id.sessionId).toString()}-`,
  order: (children) => sortBy(children.map((name) => ({ name, role: 'exclusive' as NodeRole })), (c) => suffixNumber(c.name), (c) => c.name),
  blocker: (queue, index) => nearestBlocker(queue, index),
  isOwn: (name, id) => name.startsWith(`x-${BigInt.asIntN(64, id.sessionId).toString()}-`),
};

const ZK_ELECTION = /^n_(-?\d{10})$/;

/** ZooKeeper's LeaderElectionSupport: `n_<seq>`, lowest leads. The names hold nothing of ours: check the owner. */
const zkElection: LockConvention = {
  id: 'zk-election',
  roleFor: (mode) => (mode === 'election' ? 'exclusive' : undefined),
  prefix: () => 'n_',
  order: (children) => sortBy(children.filter((n) => ZK_ELECTION.test(n)).map((name) => ({ name, role: 'exclusive' as NodeRole })),
    (c) => Number(c.name.slice(2)), (c) => c.name),
  blocker: (queue, index) => nearestBlocker(queue, index),
  isOwn: () => undefined,
};

const CONVENTIONS: Record<ConventionId, LockConvention> = {
  plain,
  'curator-mutex': curator('curator-mutex', ['lock-'], (m) => (m === 'exclusive' || m === 'write' || m === 'election' ? 'exclusive' : undefined)),
  // An exclusive lock on a read/write queue is its write lock: Curator's readers only recognise `__WRIT__`.
  'curator-rwlock': curator('curator-rwlock', ['__READ__', '__WRIT__'], (m) => (m === 'read' ? 'read' : m === 'unfairElection' || m === 'election' ? undefined : 'write')),
  'curator-latch': curator('curator-latch', ['latch-'], (m) => (m === 'election' ? 'exclusive' : undefined)),
  kazoo,
  'zk-write-lock': zkWriteLock,
  'zk-election': zkElection,
};

export function convention(id: ConventionId): LockConvention {
  return CONVENTIONS[id];
}

export function isConventionId(text: string): text is ConventionId {
  return (CONVENTION_IDS as readonly string[]).includes(text);
}
