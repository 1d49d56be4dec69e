// Turns what the live monitor sees into history. Once it follows the server's notifications (followEvents), each
// create and delete under a queue changes that queue's members as told, and holds and waits open and close at the
// moment the event arrived (members.ts); the analyses then only add what reads tell (session, client, label) and
// what was there before the watch. Where the rules need a node's owner or data (semaphores, fixed leaders), that
// one node is read when its create is told, and the queue's later changes wait for it, so they apply in the order
// told; a node gone before the read is still recorded, from its create to its delete. Until the first full read
// after the watch is set (and after every gap) has come in, what is told is only held: the members known then may
// be stale or short (changes between the last read and the watch went untold), so no one is judged a holder from
// events alone; that read, with the changes held, tells who was there when they began (membersAtSync), and the
// changes are then applied in order, exact. Before the watch is set,
// every queue follows the analyses: each is compared with the participants open so far; a node
// that appeared opens a wait (from its ctime) or a hold; a waiter now holding closes its wait and opens its hold; a
// node gone closes what was open. While the monitor cannot see the servers (gapStarted … gapEnded, then a full read,
// resync) nothing is invented: what changed meanwhile closes and opens as bounds.
import { baseName, parentPath } from '../paths';
import type { LockAnalysis, LockQueue, Participant, RecipeId } from '../../shared/lockAnalysis';
import { recognizeQueue } from '../analysis/recipes';
import { LockHistory } from './history';
import { FollowedQueue, Member, membersAtSync, newQueueFor, NodeDetails, PendingChange } from './members';
import type { EndReason, HistoryGap, HistoryInterval, QueueSample } from './model';
import { AwaitedEnd, judgeEnd, TrackerReading, TrackerSightings } from './sessionEnds';

const isExclusive = (interval: HistoryInterval) => interval.participant === 'exclusive' || interval.participant === 'write';

/** What an interval takes from its participant. */
type Who = Pick<Participant, 'path' | 'name' | 'kind' | 'session' | 'clientAddress' | 'label'>;

const ownerOf = (session: string | undefined) => (session ? BigInt(session) : undefined);

/** Reads one node for the rules that need its owner or data; undefined when it is gone. */
export type NodeReader = (path: string) => Promise<NodeDetails | undefined>;

export type HistoryEvent =
  | { type: 'open'; interval: HistoryInterval }
  | { type: 'close'; interval: HistoryInterval }
  /** A closed interval's end reason learnt later (its session was seen again, or seen gone). */
  | { type: 'ended'; interval: HistoryInterval }
  | { type: 'gap'; gap: HistoryGap }
  | { type: 'queue'; sample: QueueSample };

/** Closed intervals whose session is still to be told alive or gone, at most this many (then left unknown). */
const MAX_PENDING_ENDS = 10_000;
/** Changes held until the full read at most (then dropped: a gap until that read). */
const MAX_HELD = 200_000;

export class LockRecorder {
  private readonly listeners = new Set<(event: HistoryEvent) => void>();
  /** Until the first analysis, and after a gap, what is found was not seen happening. */
  private seenLive = false;
  private openGap?: HistoryGap;
  private readonly lengths = new Map<string, number>();
  /** Session → intervals that ended with their node while nothing yet told whether the session lived on. */
  private readonly pendingEnds = new Map<string, HistoryInterval[]>();
  private pendingCount = 0;
  /** The pending ends' nodes, for the leader's tracker to tell (sessionEnds.ts). */
  private readonly awaited = new Map<HistoryInterval, AwaitedEnd>();
  private readonly sightings = new TrackerSightings();
  /** The latest moment anything was learnt (wall ms): a delete learnt then had happened by then. */
  private learnt = 0;
  /** Per lock: the folder's change counter at the last read, when, and the creates and deletes seen since. */
  private readonly counters = new Map<string, { cversion: number; at: number; seen: number }>();
  /** Intervals opened by the observation in progress. */
  private readonly openedNow: HistoryInterval[] = [];
  /** Set once the server's notifications are followed (followEvents). */
  private following = false;
  /** Whether the followed members are known as they are (false from a gap until the full read after it). */
  private synced = false;
  /** The creates and deletes told while not synced, in the order told (every path under the watch). */
  private held: PendingChange[] = [];
  /** When the held changes grew past MAX_HELD and were dropped (undefined: none dropped). */
  private heldDroppedAt?: number;
  /** A full read that began before this (the watch set, a gap's end) cannot sync: changes before it went untold. */
  private syncableFrom = 0;
  /** Queues followed from the events, by path, and by the folders their members are in. */
  private readonly followed = new Map<string, FollowedQueue>();
  private readonly memberDirs = new Map<string, FollowedQueue>();
  private readNode?: NodeReader;
  /** As the last analysis showed them: each queue's recipe, and whether it was cut short. */
  private lastRecipes = new Map<string, RecipeId>();
  private truncated = false;
  /** Events are applied in the order told: a clock that steps back does not reorder them. */
  private lastEventAt = 0;

  constructor(readonly history = new LockHistory()) {}

  onEvent(listener: (event: HistoryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The monitor lost sight of the servers at `at` (disconnected, suspended, a read failed). */
  gapStarted(at: number): void {
    this.synced = false;
    // What was held before the gap cannot be told apart from what the gap hid: the read after it finds the rest.
    this.held = [];
    if (this.openGap) return;
    this.openGap = { from: at };
    this.history.gaps.push(this.openGap);
    this.seenLive = false;
    this.emit({ type: 'gap', gap: this.openGap });
  }

  /** It sees again from `at`; the next analysis is compared as bounds. */
  gapEnded(at: number): void {
    if (!this.openGap) return;
    this.syncableFrom = Math.max(this.syncableFrom, at);
    this.openGap.to = at;
    this.emit({ type: 'gap', gap: this.openGap });
    this.openGap = undefined;
  }

  /** A read showed the same participants as the last analysis observed: changes from now on are seen live. */
  sawUnchanged(): void {
    if (!this.openGap) this.seenLive = true;
  }

  /**
   * `_tablesAskedAt`: when the servers' tables behind `analysis.sessions` were asked for. Not used while a session
   * end cannot be told exactly from them (see close()); kept so the monitor's callers need not change when it can.
   */
  observe(analysis: LockAnalysis, at = analysis.takenAt, _tablesAskedAt?: number): void {
    const live = this.seenLive;
    this.learnt = Math.max(this.learnt, at);
    const present = new Set<string>();
    const sessionsWithNodes = new Set<string>();
    this.lastRecipes = new Map(analysis.queues.map((q) => [q.path, q.recipe]));
    this.truncated = analysis.truncated === true;
    for (const queue of analysis.queues) {
      if (this.following) {
        this.observeFollowed(queue, at, live);
        // A node deleted as told that an older read still lists is no sign of its session being alive.
        const gone = this.followed.get(queue.path)?.gone;
        for (const p of queue.participants) if (!p.nodeless && p.session && !gone?.has(p.path)) sessionsWithNodes.add(p.session);
        continue;
      }
      let length = 0;
      for (const p of queue.participants) {
        if (p.nodeless) continue;
        length++;
        present.add(p.path);
        if (p.session) sessionsWithNodes.add(p.session);
        this.observeParticipant(queue.path, p, at, live);
      }
      this.sample(queue.path, length, at);
    }
    const firstNewHold = this.firstExclusiveHoldSince(at);
    for (const [path, interval] of this.history.open) {
      if (present.has(path) || this.followed.has(interval.lock)) continue;
      this.seenChange(interval.lock);
      // An exclusive hold that began before this read (held from its node's creation) proves the one that left
      // had gone by then: the read came after both changes.
      const newHold = interval.kind === 'hold' && isExclusive(interval) ? firstNewHold.get(interval.lock) : undefined;
      this.close(path, interval, newHold !== undefined ? Math.min(at, newHold) : at, live);
    }
    const queues = new Set(analysis.queues.map((q) => q.path));
    for (const followed of [...this.followed.values()]) {
      if (queues.has(followed.path) || this.truncated) continue;
      // Gone from the reads (a Curator container removed): what it had from reads alone is gone too.
      this.observeFollowed({ path: followed.path, recipe: followed.recipe, participants: [], anomalies: [] }, at, live);
      // A name queue comes back with its next create (newQueueFor); a semaphore or fixed leader node, which a name
      // alone does not tell, goes from the reads while empty and stays followed, so its next create is told.
      if (this.synced && followed.members.size === 0 && followed.pending.length === 0 && followed.shape === 'names') this.forget(followed);
    }
    for (const [lock, length] of this.lengths) {
      if (length > 0 && !queues.has(lock) && !this.followed.has(lock)) this.sample(lock, 0, at);
    }
    // A queue gone (a Curator container removed) starts its counter afresh when it is back.
    for (const lock of this.counters.keys()) if (!queues.has(lock)) this.counters.delete(lock);
    this.resolveEnds(sessionsWithNodes);
    this.seenLive = !this.openGap;
  }

  /**
   * From `at` on, the server's notifications are followed (a persistent recursive watch on the monitored path is
   * set): the queues the last analysis showed are followed from their members as read, until the full read after
   * the watch (resync) confirms them. `readNode` reads a node whose owner or data the rules need (without it,
   * such a node's create applies at once, its owner unknown).
   */
  followEvents(at: number, readNode?: NodeReader): void {
    if (this.following) return;
    this.following = true;
    this.synced = false;
    this.held = [];
    this.syncableFrom = Math.max(this.syncableFrom, at);
    this.readNode = readNode;
    this.lastEventAt = Math.max(this.lastEventAt, at);
    for (const [path, recipe] of this.lastRecipes) {
      const queue = this.followedQueue(path, recipe, []);
      for (const [nodePath, interval] of this.history.open) {
        if (interval.lock !== path) continue;
        queue.members.set(nodePath, { name: interval.node, path: nodePath, source: 'read', since: interval.start, owner: ownerOf(interval.session), intervals: [interval] });
      }
    }
  }

  /** Whether the server's notifications are followed, and the members known as they are (no gap since the last full read). */
  get followingEvents(): { following: boolean; synced: boolean } {
    return { following: this.following, synced: this.synced };
  }

  /** The server told that `path` was created; `at` is when that was heard. */
  nodeCreated(path: string, at: number): void {
    if (!this.following) return;
    at = this.eventTime(at);
    if (!this.synced) {
      this.holdUntilSynced({ kind: 'created', path, at, ready: true });
      return;
    }
    let queue = this.queueOfNode(path);
    if (!queue && !this.truncated) {
      queue = newQueueFor(path, this.followed, this.memberDirs);
      if (queue) this.track(queue);
    }
    if (!queue) return;
    if (!queue.needsDetails || !this.readNode) {
      this.applyCreated(queue, path, at);
      return;
    }
    const change: PendingChange = { kind: 'created', path, at, ready: false };
    queue.pending.push(change);
    this.readDetails(queue, change, this.readNode);
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
    if (this.heldDroppedAt !== undefined) return;
    if (this.held.length >= MAX_HELD) {
      this.held = [];
      this.heldDroppedAt = change.at;
      return;
    }
    this.held.push(change);
    const queue = this.queueOfNode(change.path);
    if (change.kind === 'created' && queue?.needsDetails && this.readNode) {
      change.ready = false;
      this.readDetails(queue, change, this.readNode);
    }
  }

  /** The server told that `path` was deleted. */
  nodeDeleted(path: string, at: number): void {
    if (!this.following) return;
    at = this.eventTime(at);
    this.learnt = Math.max(this.learnt, at);
    if (!this.synced) {
      this.holdUntilSynced({ kind: 'deleted', path, at, ready: true });
      return;
    }
    const queue = this.queueOfNode(path);
    if (!queue) return;
    if (queue.pending.length > 0) queue.pending.push({ kind: 'deleted', path, at, ready: true });
    else this.applyDeleted(queue, path, at);
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
    this.applyRoles(queue, at, true);
  }

  private applyDeleted(queue: FollowedQueue, path: string, at: number): void {
    const member = queue.members.get(path);
    if (!member) {
      queue.gone.set(path, []);
      return;
    }
    this.dropMember(queue, member, at, true);
    this.applyRoles(queue, at, true);
  }

  /**
   * `analysis` is a full read that began at `readsFrom` or later (after a gap, or after the watch was set), on the
   * session the changes are told on. With the changes held since then it tells each queue's members when they
   * began: members missing there went unseen (before the watch, or in the gap) and end by then as bounds; members
   * there but not known begin as bounds (a wait from its node's ctime, where the read gives it). The held changes
   * then apply in the order told, exact.
   */
  resync(analysis: LockAnalysis, readsFrom: number): void {
    if (!this.following || this.openGap || readsFrom < this.syncableFrom) return;
    this.learnt = Math.max(this.learnt, analysis.takenAt);
    const held = this.held;
    this.held = [];
    if (this.heldDroppedAt !== undefined) {
      const gap: HistoryGap = { from: this.heldDroppedAt, to: readsFrom };
      this.history.gaps.push(gap);
      this.emit({ type: 'gap', gap });
      this.heldDroppedAt = undefined;
    }
    // A queue a held create makes (as nodeCreated would), before the changes are shared out: a delete told before
    // that create belongs to it too.
    if (analysis.truncated !== true) {
      for (const change of held) {
        if (change.kind !== 'created' || this.queueOfNode(change.path)) continue;
        const queue = newQueueFor(change.path, this.followed, this.memberDirs);
        if (queue) this.track(queue);
      }
    }
    const changesOf = new Map<FollowedQueue, PendingChange[]>();
    for (const change of held) {
      const queue = this.queueOfNode(change.path);
      if (!queue) continue;
      const changes = changesOf.get(queue) ?? [];
      changes.push(change);
      changesOf.set(queue, changes);
    }
    const read = new Map(analysis.queues.map((q) => [q.path, q]));
    for (const queue of [...this.followed.values()]) {
      const changes = changesOf.get(queue) ?? [];
      this.syncQueue(queue, read.get(queue.path), analysis.truncated === true, changes, Math.min(readsFrom, changes[0]?.at ?? readsFrom));
    }
    this.synced = true;
    this.seenLive = true;
  }

  /** One queue's members at `since` (when its held `changes` began) from the full read, then the changes applied. */
  private syncQueue(queue: FollowedQueue, lockQueue: LockQueue | undefined, truncated: boolean, changes: PendingChange[], since: number): void {
    // Changes told before the gap whose node reads were still out: applied first, where they were told.
    for (const change of queue.pending) change.ready = true;
    this.applyPending(queue);
    const listed = new Map<string, Participant>();
    for (const p of lockQueue?.participants ?? []) if (!p.nodeless) listed.set(p.path, p);
    // A queue a cut-short read left out: what was known stands.
    const readNow = lockQueue || !truncated ? new Set(listed.keys()) : new Set(queue.members.keys());
    const members = membersAtSync(readNow, changes);
    for (const member of [...queue.members.values()]) if (!members.has(member.path)) this.dropMember(queue, member, since, false);
    for (const path of members) {
      const p = listed.get(path);
      const member = queue.members.get(path);
      if (member) {
        member.source = 'event';
        if (p) {
          member.owner ??= ownerOf(p.session);
          this.attach(member.intervals, p);
        }
        continue;
      }
      queue.gone.delete(path);
      queue.members.set(path, { name: baseName(path), path, source: 'event', since: p && p.since > 0 ? Math.min(p.since, since) : since, owner: ownerOf(p?.session), intervals: [] });
    }
    this.applyRoles(queue, since, false, listed);
    queue.pending.push(...changes);
    this.applyPending(queue);
  }

  private eventTime(at: number): number {
    this.lastEventAt = Math.max(this.lastEventAt, at);
    return this.lastEventAt;
  }

  private followedQueue(path: string, recipe: RecipeId, names: string[]): FollowedQueue {
    let queue = this.followed.get(path);
    if (!queue) {
      queue = new FollowedQueue(path, recipe, recognizeQueue(names, path)?.family ?? 'unknown');
      this.track(queue);
    }
    return queue;
  }

  private track(queue: FollowedQueue): void {
    this.followed.set(queue.path, queue);
    for (const dir of queue.dirs) this.memberDirs.set(dir, queue);
  }

  private forget(queue: FollowedQueue): void {
    this.followed.delete(queue.path);
    for (const dir of queue.dirs) if (this.memberDirs.get(dir) === queue) this.memberDirs.delete(dir);
  }

  /** The followed queue `path` is a member of (a child of one of its folders, or a fixed node itself). */
  private queueOfNode(path: string): FollowedQueue | undefined {
    const fixed = this.followed.get(path);
    if (fixed?.shape === 'fixed') return fixed;
    const folder = parentPath(path);
    return folder === undefined ? undefined : this.memberDirs.get(folder);
  }

  /**
   * A followed queue as a read shows it: what the read tells of known members is attached to their intervals;
   * a node no event told of and not deleted since is found (there before the watch, or hidden by a gap); a member
   * only a read gave that this read no longer lists went before the watch was set (or in a gap): as on the
   * analysis-driven path, seen between two reads with no gap (`live`) it ends at this read, else as a bound.
   */
  private observeFollowed(lockQueue: LockQueue, at: number, live: boolean): void {
    const present = lockQueue.participants.filter((p) => !p.nodeless);
    const queue = this.followedQueue(lockQueue.path, lockQueue.recipe, present.map((p) => p.name));
    if (!this.synced) {
      // Members wait for the full read that syncs (resync): this read may be older than what was told since.
      for (const p of present) {
        const member = queue.members.get(p.path);
        if (member) member.owner ??= ownerOf(p.session);
        this.attach(member?.intervals ?? queue.gone.get(p.path) ?? [], p);
      }
      return;
    }
    const listed = new Map<string, Participant>();
    let found = 0;
    for (const p of present) {
      listed.set(p.path, p);
      const member = queue.members.get(p.path);
      if (member) {
        member.owner ??= ownerOf(p.session);
        this.attach(member.intervals, p);
        continue;
      }
      const gone = queue.gone.get(p.path);
      if (gone) {
        this.attach(gone, p);
        continue;
      }
      // Its create was told and waits for its read: the event brings it, from when it was told.
      if (queue.awaitsCreateOf(p.path)) continue;
      queue.members.set(p.path, { name: p.name, path: p.path, source: 'read', since: p.since > 0 ? p.since : at, owner: ownerOf(p.session), intervals: [] });
      found++;
    }
    queue.forgetUnlisted(new Set(listed.keys()));
    const leaving: Member[] = [];
    for (const member of [...queue.members.values()]) {
      if (member.source !== 'read' || listed.has(member.path)) continue;
      queue.remove(member);
      leaving.push(member);
    }
    if (found === 0 && leaving.length === 0) return;
    const firstHold = this.applyRoles(queue, at, live, listed);
    for (const member of leaving) {
      const interval = this.history.open.get(member.path);
      // An exclusive hold that began before this read proves the one that left had gone by then.
      if (interval) this.close(member.path, interval, interval.kind === 'hold' && isExclusive(interval) ? Math.min(at, firstHold) : at, live);
    }
  }

  /** Session, client and label, from a read, reach every interval of the node (an ended one too). */
  private attach(intervals: HistoryInterval[], p: Participant): void {
    for (const interval of intervals) {
      if (!interval.session && p.session) {
        interval.session = p.session;
        if (interval.end !== undefined && interval.ended === 'unknown' && interval.endExact) this.awaitEnd(interval, p.path);
      }
      this.refresh(interval, p);
    }
  }

  private dropMember(queue: FollowedQueue, member: Member, at: number, exact: boolean): void {
    queue.remove(member);
    const interval = this.history.open.get(member.path);
    if (interval) this.close(member.path, interval, at, exact);
  }

  /**
   * Who holds and who waits, from the members under the queue's rules: a new member opens (from when it was told,
   * or from what the read that found it says), a waiter now holding closes its wait and opens its hold at `at`.
   * What a told event changes is exact even before a full read confirmed the members: a node the members miss was
   * created later (its sequence sorts after theirs), and one they still hold that went untold only delays a take-over
   * until the read that drops it (a bound then).
   */
  private applyRoles(queue: FollowedQueue, at: number, exact: boolean, read?: ReadonlyMap<string, Participant>): number {
    const participants = queue.participants();
    /** The earliest start of an exclusive hold opened here. */
    let firstHold = Infinity;
    for (const p of participants) {
      const member = queue.members.get(p.path);
      if (!member) continue;
      const holding = p.role !== 'waiter';
      const current = this.history.open.get(p.path);
      // What the read that caused this change says of the node (its hold's start, from the folder's counters).
      const hint = read?.get(p.path);
      const opened: HistoryInterval[] = [];
      if (!current) {
        if (hint) opened.push(...this.openFound(queue.path, { ...hint, kind: p.kind }, holding, at));
        else opened.push(this.openInterval(holding ? 'hold' : 'wait', queue.path, p, member.since, exact, true));
      } else if (current.kind === 'wait' && holding) {
        // As on the analysis-driven path: a take-over a read shows began between the last read and this one.
        const readHold = hint && hint.role !== 'waiter' ? hint.held : undefined;
        const since = hint && exact ? Math.min(at, Math.max(current.start, readHold?.since ?? at)) : at;
        const sinceExact = hint ? exact && readHold?.exact !== false : exact;
        this.closeAs(p.path, current, since, sinceExact, 'acquired');
        opened.push(this.openInterval('hold', queue.path, { ...p, session: current.session, clientAddress: current.clientAddress, label: current.label }, since, sinceExact, true));
      } else if (current.kind === 'hold' && !holding) {
        // Only a change of rules does this (a queue's recipe recognised anew): not a release anyone made.
        this.closeAs(p.path, current, at, false, 'unknown');
        opened.push(this.openInterval('wait', queue.path, { ...p, session: current.session, clientAddress: current.clientAddress, label: current.label }, at, false, true));
      }
      member.intervals.push(...opened);
      for (const i of opened) if (i.kind === 'hold' && isExclusive(i)) firstHold = Math.min(firstHold, i.start);
    }
    // A member the rules no longer count (a semaphore's internal-lock holder once its lease is made) stops waiting:
    // its part goes on as its lease.
    const counted = new Set(participants.map((p) => p.path));
    for (const member of queue.members.values()) {
      const current = counted.has(member.path) ? undefined : this.history.open.get(member.path);
      if (current) this.closeAs(member.path, current, at, exact, 'unknown');
    }
    this.sample(queue.path, participants.length, at);
    return firstHold;
  }

  /** A node a read found (not told of): its wait from its ctime, its hold from when the read says, as the analysis-driven path does. */
  private openFound(lock: string, p: Participant, holding: boolean, at: number): HistoryInterval[] {
    if (!holding) return [this.openInterval('wait', lock, p, p.since > 0 ? p.since : at, p.since > 0, true)];
    // A read after `at` (the one that syncs) may say a hold began later than the members at `at` show it held.
    const readSince = p.role !== 'waiter' ? p.held?.since ?? at : at;
    const heldSince = Math.min(at, readSince);
    const heldExact = p.role !== 'waiter' && p.held?.exact === true && readSince <= at;
    const opened: HistoryInterval[] = [];
    if (heldExact && p.since > 0 && heldSince > p.since) {
      const wait = this.openInterval('wait', lock, p, p.since, true, true);
      this.closeAs(p.path, wait, heldSince, true, 'acquired');
      opened.push(wait);
    }
    opened.push(this.openInterval('hold', lock, p, heldSince, heldExact, true));
    return opened;
  }

  /** Per lock, the earliest start of an exclusive hold opened by the current observation (then forgets them). */
  private firstExclusiveHoldSince(at: number): Map<string, number> {
    const first = new Map<string, number>();
    for (const interval of this.openedNow) {
      if (interval.kind !== 'hold' || !isExclusive(interval) || interval.start > at) continue;
      first.set(interval.lock, Math.min(first.get(interval.lock) ?? Infinity, interval.start));
    }
    this.openedNow.length = 0;
    return first;
  }

  /**
   * The queues' change counters after a read (LockMonitor.onCounters, after the analysis of that read, if any):
   * creates and deletes the counter shows beyond those the analyses showed came and went unseen, a gap on that lock.
   */
  noteCounters(counters: readonly { path: string; cversion: number }[], at: number): void {
    for (const { path, cversion } of counters) {
      // Followed queues are told every create and delete: nothing there goes unseen.
      if (this.followed.has(path)) continue;
      const last = this.counters.get(path);
      const unseen = last ? cversion - last.cversion - last.seen : 0;
      if (last && unseen > 0 && this.seenLive) {
        const gap: HistoryGap = { from: last.at, to: at, lock: path, unseen };
        this.history.gaps.push(gap);
        this.emit({ type: 'gap', gap });
      }
      this.counters.set(path, { cversion, at, seen: 0 });
    }
  }

  private seenChange(lock: string): void {
    const counter = this.counters.get(lock);
    if (counter) counter.seen++;
  }

  private observeParticipant(lock: string, p: Participant, at: number, live: boolean): void {
    const holding = p.role !== 'waiter';
    const current = this.history.open.get(p.path);
    if (!current) {
      this.seenChange(lock);
      if (!holding) {
        this.openInterval('wait', lock, p, p.since > 0 ? p.since : at, p.since > 0);
        return;
      }
      const heldSince = p.held?.since ?? at;
      // Held from its creation, or seen taking over between two live reads: its wait, if any, is known too.
      const heldExact = p.held?.exact === true;
      if (heldExact && p.since > 0 && heldSince > p.since) {
        const wait = this.openInterval('wait', lock, p, p.since, true);
        this.closeAs(p.path, wait, heldSince, true, 'acquired');
      }
      this.openInterval('hold', lock, p, heldSince, heldExact);
      return;
    }
    this.refresh(current, p);
    if (current.kind === 'wait' && holding) {
      const heldSince = live ? Math.min(at, Math.max(current.start, p.held?.since ?? at)) : at;
      const exact = live && p.held?.exact !== false;
      this.closeAs(p.path, current, heldSince, exact, 'acquired');
      this.openInterval('hold', lock, p, heldSince, exact);
    }
  }

  /** Client address and label arrive with the servers' tables, after the node itself. */
  private refresh(interval: HistoryInterval, p: Participant): void {
    if (p.clientAddress) interval.clientAddress = p.clientAddress;
    if (p.label !== undefined) interval.label = p.label;
  }

  private openInterval(kind: HistoryInterval['kind'], lock: string, p: Who, start: number, startExact: boolean, told = false): HistoryInterval {
    const interval: HistoryInterval = {
      id: this.history.newId(), kind, lock, node: p.name, participant: p.kind, start, startExact,
      ...(p.session ? { session: p.session } : {}), ...(p.clientAddress ? { clientAddress: p.clientAddress } : {}),
      ...(p.label !== undefined ? { label: p.label } : {}),
    };
    this.history.open.set(p.path, interval);
    if (!told) this.openedNow.push(interval);
    this.emit({ type: 'open', interval });
    return interval;
  }

  /**
   * A node gone ends what it had `unknown` until its session tells (resolveEnds) or the leader's tracker does
   * (noteTracker). After a gap nothing tells; it stays so.
   */
  private close(path: string, interval: HistoryInterval, at: number, live: boolean): void {
    // A session the servers' tables showed connected nowhere while its node was there is not proof of its end: a
    // client cut off for a moment comes back and releases (runs R1, R5, R6 recorded live workers as lost that way).
    this.closeAs(path, interval, at, live, 'unknown');
    if (live) this.awaitEnd(interval, path);
  }

  /** An interval closed as seen: its session, seen alive again or in the leader's tracker, tells how it ended. */
  private awaitEnd(interval: HistoryInterval, path: string): void {
    if (!interval.session || this.pendingCount >= MAX_PENDING_ENDS) return;
    const list = this.pendingEnds.get(interval.session) ?? [];
    list.push(interval);
    this.pendingEnds.set(interval.session, list);
    this.pendingCount++;
    const end: AwaitedEnd = { session: interval.session, path, learntAt: Math.max(this.learnt, interval.end ?? 0) };
    const sighting = this.sightings.get(interval.session);
    if (sighting?.paths.has(path)) end.sighting = sighting;
    this.awaited.set(interval, end);
  }

  /** Whether `interval`'s end is still to be told (by its session seen again, or by the leader's tracker). */
  awaitsEnd(interval: HistoryInterval): boolean {
    return this.awaited.has(interval) || (this.pendingEnds.get(interval.session ?? '')?.includes(interval) ?? false);
  }

  /**
   * A reading of the leader's session tracker (followMonitor, after every reading of the servers' tables): it
   * follows the sessions of what is open, and tells pending ends released, expired (`sessionEnded`), or never.
   */
  noteTracker(reading: TrackerReading): void {
    const sessions = new Set(this.pendingEnds.keys());
    for (const interval of this.history.open.values()) if (interval.session) sessions.add(interval.session);
    this.sightings.note(reading, sessions);
    for (const [session, intervals] of [...this.pendingEnds]) {
      const left = intervals.filter((interval) => {
        const end = this.awaited.get(interval);
        const verdict = end && judgeEnd(end, reading, this.sightings);
        if (!verdict) return true;
        this.awaited.delete(interval);
        if (verdict !== 'unknown') {
          interval.ended = verdict === 'expired' ? 'sessionEnded' : interval.kind === 'wait' ? 'gaveUp' : 'released';
          this.emit({ type: 'ended', interval });
        }
        return false;
      });
      this.pendingCount -= intervals.length - left.length;
      if (left.length) this.pendingEnds.set(session, left);
      else this.pendingEnds.delete(session);
    }
  }

  /** When a reading of the tracker would tell more than the regular poll can (see TrackerSightings.readingWantedAt). */
  trackerReadingWantedAt(): number | undefined {
    return this.sightings.readingWantedAt();
  }

  private closeAs(path: string, interval: HistoryInterval, at: number, exact: boolean, ended: EndReason): void {
    interval.end = Math.max(at, interval.start);
    interval.endExact = exact;
    interval.ended = ended;
    if (this.history.open.get(path) === interval) this.history.open.delete(path);
    this.history.addClosed(interval);
    this.emit({ type: 'close', interval });
  }

  /**
   * A session that still owns a node after its node went was alive: a release (or a give-up). A session gone
   * afterwards tells nothing (clients close their session right after releasing): undecided ones stay `unknown`.
   */
  private resolveEnds(sessionsWithNodes: Set<string>): void {
    if (this.pendingEnds.size === 0) return;
    for (const [session, intervals] of this.pendingEnds) {
      if (!sessionsWithNodes.has(session)) continue;
      const ended: EndReason = 'released';
      for (const interval of intervals) {
        interval.ended = ended === 'released' && interval.kind === 'wait' ? 'gaveUp' : ended;
        this.awaited.delete(interval);
        this.emit({ type: 'ended', interval });
      }
      this.pendingCount -= intervals.length;
      this.pendingEnds.delete(session);
    }
  }

  private sample(lock: string, length: number, at: number): void {
    if (this.lengths.get(lock) === length) return;
    this.lengths.set(lock, length);
    const sample = { lock, at, length };
    this.history.addSample(sample);
    this.emit({ type: 'queue', sample });
  }

  private emit(event: HistoryEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
