// Who holds and who waits in a followed queue, from its members under the queue's rules, written as intervals: a new
// member opens one, a waiter now holding closes its wait and opens its hold, a member gone closes what it had.
import type { Participant } from '../../shared/lockAnalysis';
import { IntervalBook, isExclusive } from './intervalBook';
import type { FollowedQueue, Member } from './members';
import type { HistoryInterval } from './model';

export class FollowedRoles {
  constructor(private readonly book: IntervalBook) {}

  /**
   * Who holds and who waits, from the members under the queue's rules: a new member opens (from when it was told,
   * or from what the read that found it says), a waiter now holding closes its wait and opens its hold at `at`.
   * What a told event changes is exact even before a full read confirmed the members: a node the members miss was
   * created later (its sequence sorts after theirs), and one they still hold that went untold only delays a take-over
   * until the read that drops it (a bound then). Returns the earliest start of an exclusive hold opened here.
   */
  apply(queue: FollowedQueue, at: number, exact: boolean, read?: ReadonlyMap<string, Participant>): number {
    const participants = queue.participants();
    let firstHold = Infinity;
    for (const p of participants) {
      const member = queue.members.get(p.path);
      if (!member) continue;
      const opened = this.applyTo(queue.path, member, p, at, exact, read?.get(p.path));
      member.intervals.push(...opened);
      for (const i of opened) if (i.kind === 'hold' && isExclusive(i)) firstHold = Math.min(firstHold, i.start);
    }
    // A member the rules no longer count (a semaphore's internal-lock holder once its lease is made) stops waiting:
    // its part goes on as its lease.
    const counted = new Set(participants.map((p) => p.path));
    for (const member of queue.members.values()) {
      const current = counted.has(member.path) ? undefined : this.book.history.open.get(member.path);
      if (current) this.book.closeAs(member.path, current, at, exact, 'unknown');
    }
    this.book.sample(queue.path, participants.length, at);
    return firstHold;
  }

  /** A member gone at `at`: what it had open closes (exact when told, a bound when a read found it missing). */
  drop(queue: FollowedQueue, member: Member, at: number, exact: boolean): void {
    queue.remove(member);
    const interval = this.book.history.open.get(member.path);
    if (interval) this.book.close(member.path, interval, at, exact);
  }

  /** One member's part as the rules give it now; `hint`: what the read that caused this change says of the node. */
  private applyTo(lock: string, member: Member, p: Participant, at: number, exact: boolean, hint: Participant | undefined): HistoryInterval[] {
    const holding = p.role !== 'waiter';
    const current = this.book.history.open.get(p.path);
    if (!current) {
      if (hint) return this.openFound(lock, { ...hint, kind: p.kind }, holding, at);
      return [this.book.open(holding ? 'hold' : 'wait', lock, p, member.since, exact)];
    }
    const asBefore = { ...p, session: current.session, clientAddress: current.clientAddress, label: current.label };
    if (current.kind === 'wait' && holding) {
      // As on the poll path: a take-over a read shows began between the last read and this one.
      const readHold = hint && hint.role !== 'waiter' ? hint.held : undefined;
      const since = hint && exact ? Math.min(at, Math.max(current.start, readHold?.since ?? at)) : at;
      const sinceExact = hint ? exact && readHold?.exact !== false : exact;
      this.book.closeAs(p.path, current, since, sinceExact, 'acquired');
      return [this.book.open('hold', lock, asBefore, since, sinceExact)];
    }
    if (current.kind === 'hold' && !holding) {
      // Only a change of rules does this (a queue's recipe recognised anew): not a release anyone made.
      this.book.closeAs(p.path, current, at, false, 'unknown');
      return [this.book.open('wait', lock, asBefore, at, false)];
    }
    return [];
  }

  /** A node a read found (not told of): its wait from its ctime, its hold from when the read says, as the poll path does. */
  private openFound(lock: string, p: Participant, holding: boolean, at: number): HistoryInterval[] {
    if (!holding) return [this.book.open('wait', lock, p, p.since > 0 ? p.since : at, p.since > 0)];
    // A read after `at` (the one that syncs) may say a hold began later than the members at `at` show it held.
    const readSince = p.role !== 'waiter' ? p.held?.since ?? at : at;
    const heldSince = Math.min(at, readSince);
    const heldExact = p.role !== 'waiter' && p.held?.exact === true && readSince <= at;
    const opened: HistoryInterval[] = [];
    if (heldExact && p.since > 0 && heldSince > p.since) {
      const wait = this.book.open('wait', lock, p, p.since, true);
      this.book.closeAs(p.path, wait, heldSince, true, 'acquired');
      opened.push(wait);
    }
    opened.push(this.book.open('hold', lock, p, heldSince, heldExact));
    return opened;
  }
}
