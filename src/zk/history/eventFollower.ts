// Following the server's events. Once a persistent recursive watch is set (followEvents), each create and delete
// under a queue changes that queue's members as told, and holds and waits open and close at the moment the event
// arrived (members.ts, followedRoles.ts); the reads then only add what they tell (session, client, label) and what
// was there before the watch. Where the rules need a node's owner or data (semaphores, fixed leaders), that one node
// is read when its create is told, and the queue's later changes wait for it, so they apply in the order told; a
// node gone before the read is still recorded, from its create to its delete. Until the first full read after the
// watch is set (and after every gap) has come in, what is told is only held: the members known then may be stale or
// short (changes between the last read and the watch went untold), so no one is judged a holder from events alone;
// that read, with the changes held, tells who was there when they began (membersAtSync), and the changes are then
// applied in order, exact.
import type { LockAnalysis, LockQueue, RecipeId } from '../../shared/lockAnalysis';
import { baseName } from '../paths';
import { FollowedQueues } from './followedQueues';
import { FollowedReads } from './followedReads';
import { HeldChanges } from './heldChanges';
import { FollowedRoles } from './followedRoles';
import type { Gaps } from './gaps';
import type { IntervalBook } from './intervalBook';
import { FollowedQueue, Member, NodeDetails, ownerOf, PendingChange } from './members';
import type { PendingEnds } from './pendingEnds';

/** Reads one node for the rules that need its owner or data; undefined when it is gone. */
export type NodeReader = (path: string) => Promise<NodeDetails | undefined>;

export class EventFollower {
  /** Set once the server's notifications are followed (follow). */
  following = false;
  /** Whether the followed members are known as they are (false from a gap until the full read after it). */
  synced = false;
  private readonly queues = new FollowedQueues();
  private readonly roles: FollowedRoles;
  private readonly reads: FollowedReads;
  /** The creates and deletes told while not synced, in the order told (every path under the watch). */
  private readonly held = new HeldChanges();
  /** A full read that began before this (the watch set, a gap's end) cannot sync: changes before it went untold. */
  private syncableFrom = 0;
  private readNode?: NodeReader;
  /** As the last analysis showed them: each queue's recipe, and whether it was cut short. */
  private lastRecipes = new Map<string, RecipeId>();
  private truncated = false;
  /** Events are applied in the order told: a clock that steps back does not reorder them. */
  private lastEventAt = 0;

  constructor(private readonly book: IntervalBook, private readonly gaps: Gaps, private readonly ends: PendingEnds) {
    this.roles = new FollowedRoles(book);
    this.reads = new FollowedReads(this.queues, this.roles, book);
  }

  /** Whether the queue at `lock` is followed from the events (its creates and deletes are all told). */
  follows(lock: string): boolean {
    return this.queues.has(lock);
  }

  /** The recipe of the queue at `lock`: as followed (recognised anew from its names), else as the last analysis showed it. */
  recipeOf(lock: string): RecipeId | undefined {
    return this.queues.get(lock)?.recipe ?? this.lastRecipes.get(lock);
  }

  /** What every analysis tells, followed yet or not: the queues' recipes (to follow from), and whether it was cut short. */
  noteRead(analysis: LockAnalysis): void {
    this.lastRecipes = new Map(analysis.queues.map((q) => [q.path, q.recipe]));
    this.truncated = analysis.truncated === true;
  }

  /** Sight is lost: what was held cannot be told apart from what the gap hides, and the read after it finds the rest. */
  lostSight(): void {
    this.synced = false;
    this.held.forget();
  }

  /** Sight is back from `at`: only a full read begun from then on can sync. */
  seesFrom(at: number): void {
    this.syncableFrom = Math.max(this.syncableFrom, at);
  }

  /** From `at` on the events are followed: the queues the last analysis showed, from their members as read. */
  follow(at: number, readNode?: NodeReader): void {
    if (this.following) return;
    this.following = true;
    this.lostSight();
    this.seesFrom(at);
    this.readNode = readNode;
    this.lastEventAt = Math.max(this.lastEventAt, at);
    for (const [path, recipe] of this.lastRecipes) {
      const queue = this.queues.follow(path, recipe, []);
      for (const [nodePath, interval] of this.book.history.open) {
        if (interval.lock !== path) continue;
        queue.members.set(nodePath, { name: interval.node, path: nodePath, source: 'read', since: interval.start, owner: ownerOf(interval.session), intervals: [interval] });
      }
    }
  }

  nodeCreated(path: string, at: number): void {
    if (!this.following) return;
    at = this.eventTime(at);
    if (!this.synced) {
      this.holdUntilSynced({ kind: 'created', path, at, ready: true });
      return;
    }
    let queue = this.queues.queueOfNode(path);
    if (!queue && !this.truncated) queue = this.queues.followNew(path);
    if (!queue) return;
    if (!queue.needsDetails || !this.readNode) {
      this.applyCreated(queue, path, at);
      return;
    }
    const change: PendingChange = { kind: 'created', path, at, ready: false };
    queue.pending.push(change);
    this.readDetails(queue, change, this.readNode);
  }

  nodeDeleted(path: string, at: number): void {
    if (!this.following) return;
    at = this.eventTime(at);
    this.ends.learntAt(at);
    if (!this.synced) {
      this.holdUntilSynced({ kind: 'deleted', path, at, ready: true });
      return;
    }
    const queue = this.queues.queueOfNode(path);
    if (!queue) return;
    if (queue.pending.length > 0) queue.pending.push({ kind: 'deleted', path, at, ready: true });
    else this.applyDeleted(queue, path, at);
  }

  /**
   * `analysis` is a full read that began at `readsFrom` or later (after a gap, or after the watch was set), on the
   * session the changes are told on. With the changes held since then it tells each queue's members when they
   * began: members missing there went unseen (before the watch, or in the gap) and end by then as bounds; members
   * there but not known begin as bounds (a wait from its node's ctime, where the read gives it). The held changes
   * then apply in the order told, exact.
   */
  resync(analysis: LockAnalysis, readsFrom: number): void {
    if (!this.following || this.gaps.away || readsFrom < this.syncableFrom) return;
    this.ends.learntAt(analysis.takenAt);
    const { changes: held, droppedAt } = this.held.take();
    if (droppedAt !== undefined) this.gaps.add({ from: droppedAt, to: readsFrom });
    // A queue a held create makes (as nodeCreated would), before the changes are shared out: a delete told before
    // that create belongs to it too.
    if (analysis.truncated !== true) {
      for (const change of held) if (change.kind === 'created' && !this.queues.queueOfNode(change.path)) this.queues.followNew(change.path);
    }
    const changesOf = new Map<FollowedQueue, PendingChange[]>();
    for (const change of held) {
      const queue = this.queues.queueOfNode(change.path);
      if (!queue) continue;
      const changes = changesOf.get(queue) ?? [];
      changes.push(change);
      changesOf.set(queue, changes);
    }
    const read = new Map(analysis.queues.map((q) => [q.path, q]));
    for (const queue of this.queues.all()) {
      const changes = changesOf.get(queue) ?? [];
      this.syncQueue(queue, read.get(queue.path), analysis.truncated === true, changes, Math.min(readsFrom, changes[0]?.at ?? readsFrom));
    }
    this.synced = true;
    this.gaps.seenLive = true;
  }

  /**
   * A followed queue as a read shows it: what the read tells of known members is attached to their intervals;
   * a node no event told of and not deleted since is found (there before the watch, or hidden by a gap); a member
   * only a read gave that this read no longer lists went before the watch was set (or in a gap): as on the poll
   * path, seen between two reads with no gap (`live`) it ends at this read, else as a bound. The sessions that
   * still have nodes there go into `sessionsWithNodes`.
   */
  observeQueue(lockQueue: LockQueue, at: number, live: boolean, sessionsWithNodes: Set<string>): void {
    this.reads.observe(lockQueue, at, live, this.synced);
    // A node deleted as told that an older read still lists is no sign of its session being alive.
    const gone = this.queues.get(lockQueue.path)?.gone;
    for (const p of lockQueue.participants) if (!p.nodeless && p.session && !gone?.has(p.path)) sessionsWithNodes.add(p.session);
  }

  /** Followed queues no longer in the reads (`read`: the queues a read showed). */
  observeGoneQueues(read: ReadonlySet<string>, at: number, live: boolean): void {
    for (const followed of this.queues.all()) {
      if (read.has(followed.path) || this.truncated) continue;
      // Gone from the reads (a Curator container removed): what it had from reads alone is gone too.
      this.reads.observe({ path: followed.path, recipe: followed.recipe, participants: [], anomalies: [] }, at, live, this.synced);
      // A name queue comes back with its next create (newQueueFor); a semaphore or fixed leader node, which a name
      // alone does not tell, goes from the reads while empty and stays followed, so its next create is told.
      if (this.synced && followed.members.size === 0 && followed.pending.length === 0 && followed.shape === 'names') this.queues.forget(followed);
    }
  }

  /** Reads a created node's owner and data, then applies what waited for it. */
  private readDetails(queue: FollowedQueue, change: PendingChange, readNode: NodeReader): void {
    const settle = (details?: NodeDetails) => {
      change.ready = true;
      change.details = details;
      this.applyPending(queue);
    };
    // A read that fails (the connection went) leaves the owner unknown; the gap it causes says the rest.
    readNode(change.path).then(settle, () => settle());
  }

  /** A change told before the full read that syncs: kept for it (its node read at once where the rules need it). */
  private holdUntilSynced(change: PendingChange): void {
    if (!this.held.hold(change)) return;
    const queue = this.queues.queueOfNode(change.path);
    if (change.kind === 'created' && queue?.needsDetails && this.readNode) {
      change.ready = false;
      this.readDetails(queue, change, this.readNode);
    }
  }

  /** The changes held behind a read, in the order told, as far as the reads are back. */
  private applyPending(queue: FollowedQueue): void {
    while (queue.pending[0]?.ready) {
      const change = queue.pending.shift()!;
      if (change.kind === 'created') this.applyCreated(queue, change.path, change.at, change.details);
      else this.applyDeleted(queue, change.path, change.at);
    }
  }

  private applyCreated(queue: FollowedQueue, path: string, at: number, details?: NodeDetails): void {
    if (queue.members.has(path)) return;
    queue.gone.delete(path);
    const member: Member = { name: baseName(path), path, source: 'event', since: at, intervals: [], owner: details?.owner, data: details?.data };
    queue.members.set(path, member);
    queue.shareOwner(member);
    this.roles.apply(queue, at, true);
  }

  private applyDeleted(queue: FollowedQueue, path: string, at: number): void {
    const member = queue.members.get(path);
    if (!member) {
      queue.gone.set(path, []);
      return;
    }
    this.roles.drop(queue, member, at, true);
    this.roles.apply(queue, at, true);
  }

  /** One queue's members at `since` (when its held `changes` began) from the full read, then the changes applied. */
  private syncQueue(queue: FollowedQueue, lockQueue: LockQueue | undefined, truncated: boolean, changes: PendingChange[], since: number): void {
    // Changes told before the gap whose node reads were still out: applied first, where they were told.
    for (const change of queue.pending) change.ready = true;
    this.applyPending(queue);
    this.reads.syncMembers(queue, lockQueue, truncated, changes, since);
    queue.pending.push(...changes);
    this.applyPending(queue);
  }

  private eventTime(at: number): number {
    this.lastEventAt = Math.max(this.lastEventAt, at);
    return this.lastEventAt;
  }
}
