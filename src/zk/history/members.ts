// The members of the queues a recorder follows from the server's own notifications (a persistent recursive watch):
// each create and delete under a queue changes its member set in the order the server tells, and who holds follows
// under the same rules the analysis uses. Locks and elections need only the member names. Semaphores (leases and
// an internal lock in two folders) and fixed leader nodes (one node, its own queue) also need each node's owner
// and data: the recorder reads that one node when its create is told, and holds the queue's later changes until
// the read is back, so they still apply in the order told.
import { baseName, parentPath } from '../paths';
import { fixedLeaderHolder, orderQueue, participantsOf, QueueNode } from '../analysis/queueRules';
import type { Family } from '../analysis/families';
import { recognizeQueue } from '../analysis/recipes';
import { curatorSemaphore, kazooSemaphore } from '../analysis/semaphores';
import type { Participant, RecipeId } from '../../shared/lockAnalysis';
import type { HistoryInterval } from './model';

/** How a queue's members are laid out: names in one folder, a semaphore's two folders, or one fixed node. */
export type QueueShape = 'names' | 'curator-semaphore' | 'kazoo-semaphore' | 'fixed';

const FIXED_RECIPES: ReadonlySet<RecipeId> = new Set(['fixed-leader', 'patroni-leader', 'hbase-master', 'hadoop-ha-elector', 'kafka-controller']);

export function shapeOf(recipe: RecipeId): QueueShape {
  if (recipe === 'curator-semaphore' || recipe === 'kazoo-semaphore') return recipe;
  return FIXED_RECIPES.has(recipe) ? 'fixed' : 'names';
}

/** What one read of a node tells the rules: its owner session and data (undefined when it was already gone). */
export interface NodeDetails {
  owner: bigint;
  data?: Buffer;
}

export interface Member {
  name: string;
  path: string;
  /**
   * `event`: its create was told (at `since`); `read`: found by a read, so its delete may have gone untold (it
   * was there before the watch, or a gap hid it) until a later read confirms or drops it.
   */
  source: 'event' | 'read';
  since: number;
  /** The owner session as a read gave it (semaphores and Curator read/write locks compare owners). */
  owner?: bigint;
  data?: Buffer;
  /** Its intervals so far: what a later read tells of it (session, client, label) is attached to all of them. */
  intervals: HistoryInterval[];
}

/**
 * A create or delete told while an earlier create of the same queue waits for its read, or while the recorder is
 * not yet synced (held until the first full read after the watch is in: membersAtSync).
 */
export interface PendingChange {
  kind: 'created' | 'deleted';
  path: string;
  at: number;
  ready: boolean;
  details?: NodeDetails;
}

/** Deleted members remembered per queue at most (a read older than the delete may still list them). */
const MAX_GONE = 1000;

export class FollowedQueue {
  readonly members = new Map<string, Member>();
  /**
   * Paths deleted as told, with their intervals: a read older than the delete that still lists one does not bring
   * it back, and what it tells of the node (session, label) still reaches the intervals.
   */
  readonly gone = new Map<string, HistoryInterval[]>();
  /** Changes told after a create whose read is not back yet, in the order told. */
  readonly pending: PendingChange[] = [];
  readonly shape: QueueShape;

  constructor(readonly path: string, public recipe: RecipeId, public family: Family) {
    this.shape = shapeOf(recipe);
  }

  /** Folders whose children are members (a fixed node has none: it is its own member). */
  get dirs(): string[] {
    switch (this.shape) {
      case 'names': return [this.path];
      case 'curator-semaphore': return [`${this.path}/leases`, `${this.path}/locks`];
      case 'kazoo-semaphore': return [this.path, `${this.path}-__lock__`];
      case 'fixed': return [];
    }
  }

  /** Whether the rules need a member's owner or data, read when its create is told. */
  get needsDetails(): boolean {
    return this.shape !== 'names';
  }

  awaitsCreateOf(path: string): boolean {
    return this.pending.some((change) => change.kind === 'created' && change.path === path);
  }

  /**
   * A member's owner where its read found it gone: a semaphore's lease is made by its internal lock's holder, under
   * that lock, so a lease and the lock's holder at its creation share their owner (whichever of the two was read).
   */
  shareOwner(member: Member): void {
    if (this.shape !== 'curator-semaphore' && this.shape !== 'kazoo-semaphore') return;
    const [leaseDir, lockDir] = this.dirs;
    if (parentPath(member.path) !== leaseDir) return;
    const holder = this.lockHolder(lockDir);
    if (!holder) return;
    if (member.owner === undefined) member.owner = holder.owner;
    else holder.owner ??= member.owner;
  }

  /**
   * Participants in queue order, under the queue's rules. A name queue's recipe is recognised again from the
   * names, as a fresh read does (a kazoo lock gains its first reader); an empty queue keeps its own.
   */
  participants(): Participant[] {
    switch (this.shape) {
      case 'fixed': {
        const member = this.members.get(this.path);
        return member ? [fixedLeaderHolder(this.path, nodeOf(member))] : [];
      }
      case 'curator-semaphore': case 'kazoo-semaphore': {
        const [leaseDir, lockDir] = this.dirs;
        const leases = this.nodesIn(leaseDir);
        const locks = this.nodesIn(lockDir);
        return this.shape === 'curator-semaphore' ? curatorSemaphore(leaseDir, leases, locks).participants : kazooSemaphore(this.path, leases, locks).participants;
      }
      case 'names': {
        const nodes = [...this.members.values()].map(nodeOf);
        const recognition = nodes.length > 0 ? recognizeQueue(nodes.map((n) => n.name), this.path) : undefined;
        if (recognition && shapeOf(recognition.recipe) === 'names') {
          this.recipe = recognition.recipe;
          this.family = recognition.family;
        }
        return participantsOf(this.recipe, this.family, nodes);
      }
    }
  }

  remove(member: Member): void {
    this.members.delete(member.path);
    this.gone.set(member.path, member.intervals);
    if (this.gone.size > MAX_GONE) this.gone.delete(this.gone.keys().next().value as string);
  }

  /** A read that no longer lists a deleted path: no later read will (its raw only gets newer). */
  forgetUnlisted(listed: ReadonlySet<string>): void {
    for (const path of this.gone.keys()) if (!listed.has(path)) this.gone.delete(path);
  }

  private nodesIn(dir: string): QueueNode[] {
    const nodes: QueueNode[] = [];
    for (const m of this.members.values()) if (parentPath(m.path) === dir) nodes.push(nodeOf(m));
    return nodes;
  }

  private lockHolder(lockDir: string): Member | undefined {
    const first = orderQueue(this.shape === 'curator-semaphore' ? 'curator' : 'kazoo', this.nodesIn(lockDir), this.shape === 'curator-semaphore' ? 'lock-' : '')[0];
    return first && this.members.get(first.node.path);
  }
}

const nodeOf = (m: Member): QueueNode => ({ name: m.name, path: m.path, ctime: m.since, owner: m.owner ?? 0n, data: m.data });

/** Folders whose names say they belong to a semaphore (its leases or its internal lock): followed once a read shows it. */
function semaphorePart(path: string): boolean {
  const name = baseName(path);
  return name === 'leases' || name === 'locks' || name.endsWith('-__lock__');
}

/**
 * A queue that appears after the recorder began following (no read has shown it yet): a created node whose name a
 * lock or election library writes, in a folder no read called anything else. Its members so far are all told.
 * Semaphores and fixed leader nodes need a read to be told apart: they are followed once an analysis shows them.
 */
export function newQueueFor(nodePath: string, queues: ReadonlyMap<string, FollowedQueue>, knownDirs: ReadonlyMap<string, FollowedQueue>): FollowedQueue | undefined {
  const folder = parentPath(nodePath);
  if (folder === undefined || knownDirs.has(folder) || semaphorePart(folder)) return undefined;
  // A node below a member (a child of a lock node) is not a contender.
  const above = parentPath(folder);
  if (above !== undefined && queues.get(above)?.members.has(folder)) return undefined;
  const recognition = recognizeQueue([baseName(nodePath)], folder);
  if (!recognition || shapeOf(recognition.recipe) !== 'names') return undefined;
  return new FollowedQueue(folder, recognition.recipe, recognition.family);
}

/**
 * Who was a member when the told `changes` began (the watch set, or set again after a reconnect): replies and
 * notifications come on one connection in the server's order, so a full read taken after that moment shows what
 * the changes told before its answer already did. A node's last told change says whether it is there now; one with
 * none told is there now exactly when the read lists it; undoing the changes from the last back then gives the
 * members at the start, with no need to know where among the changes the read fell.
 */
export function membersAtSync(read: ReadonlySet<string>, changes: readonly Pick<PendingChange, 'kind' | 'path'>[]): Set<string> {
  const last = new Map<string, PendingChange['kind']>();
  for (const change of changes) last.set(change.path, change.kind);
  const members = new Set<string>();
  for (const path of read) if (!last.has(path)) members.add(path);
  for (const [path, kind] of last) if (kind === 'created') members.add(path);
  for (let i = changes.length - 1; i >= 0; i--) {
    const { kind, path } = changes[i];
    if (kind === 'created') members.delete(path);
    else members.add(path);
  }
  return members;
}

/** A participant's session (0x-hex) as a member's owner. */
export const ownerOf = (session: string | undefined): bigint | undefined => (session ? BigInt(session) : undefined);
