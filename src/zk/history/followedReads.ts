// What a read tells of a followed queue (eventFollower.ts): before the full read that syncs, only what it says of
// members already known (their session, client, label); at that read, who was there when the held changes began;
// after it, the members no event told of (there before the watch, or hidden by a gap) begin, and those only reads
// gave that a read no longer lists end.
import type { LockQueue, Participant } from '../../shared/lockAnalysis';
import type { FollowedQueues } from './followedQueues';
import type { FollowedRoles } from './followedRoles';
import { IntervalBook, isExclusive } from './intervalBook';
import { baseName } from '../paths';
import { FollowedQueue, Member, membersAtSync, ownerOf, PendingChange } from './members';

export class FollowedReads {
  constructor(private readonly queues: FollowedQueues, private readonly roles: FollowedRoles, private readonly book: IntervalBook) {}

  /** `synced`: whether the followed members are known as they are (see EventFollower.synced). */
  observe(lockQueue: LockQueue, at: number, live: boolean, synced: boolean): void {
    const present = lockQueue.participants.filter((p) => !p.nodeless);
    const queue = this.queues.follow(lockQueue.path, lockQueue.recipe, present.map((p) => p.name));
    if (!synced) {
      // Members wait for the full read that syncs (resync): this read may be older than what was told since.
      for (const p of present) {
        const member = queue.members.get(p.path);
        if (member) member.owner ??= ownerOf(p.session);
        this.book.attach(member?.intervals ?? queue.gone.get(p.path) ?? [], p);
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
        this.book.attach(member.intervals, p);
        continue;
      }
      const gone = queue.gone.get(p.path);
      if (gone) {
        this.book.attach(gone, p);
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
    const firstHold = this.roles.apply(queue, at, live, listed);
    for (const member of leaving) {
      const interval = this.book.history.open.get(member.path);
      // An exclusive hold that began before this read proves the one that left had gone by then.
      if (interval) this.book.close(member.path, interval, interval.kind === 'hold' && isExclusive(interval) ? Math.min(at, firstHold) : at, live);
    }
  }

  /**
   * The members of a followed queue at `since` (when its held `changes` began), as the full read that syncs shows
   * them with those changes: members it lacks went unseen and end then; members it lists that were not known begin.
   */
  syncMembers(queue: FollowedQueue, lockQueue: LockQueue | undefined, truncated: boolean, changes: PendingChange[], since: number): void {
    const listed = new Map<string, Participant>();
    for (const p of lockQueue?.participants ?? []) if (!p.nodeless) listed.set(p.path, p);
    // A queue a cut-short read left out: what was known stands.
    const readNow = lockQueue || !truncated ? new Set(listed.keys()) : new Set(queue.members.keys());
    const members = membersAtSync(readNow, changes);
    for (const member of [...queue.members.values()]) if (!members.has(member.path)) this.roles.drop(queue, member, since, false);
    for (const path of members) {
      const p = listed.get(path);
      const member = queue.members.get(path);
      if (member) {
        member.source = 'event';
        if (p) {
          member.owner ??= ownerOf(p.session);
          this.book.attach(member.intervals, p);
        }
        continue;
      }
      queue.gone.delete(path);
      queue.members.set(path, { name: baseName(path), path, source: 'event', since: p && p.since > 0 ? Math.min(p.since, since) : since, owner: ownerOf(p?.session), intervals: [] });
    }
    this.roles.apply(queue, since, false, listed);
  }
}
