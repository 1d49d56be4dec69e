// Observing by polls (before the server's notifications are followed): each queue an analysis shows is compared with
// the participants open so far; a node that appeared opens a wait (from its ctime) or a hold; a waiter now holding
// closes its wait and opens its hold; a node gone closes what was open. Read live (no gap since the last read), a
// change happened between the two reads; else its time is a bound.
import type { LockQueue, Participant } from '../../shared/lockAnalysis';
import type { ChangeCounters } from './changeCounters';
import { IntervalBook, isExclusive, Who } from './intervalBook';
import type { HistoryInterval } from './model';

export class PollObserver {
  /** Intervals opened by the observation in progress. */
  private readonly openedNow: HistoryInterval[] = [];

  constructor(private readonly book: IntervalBook, private readonly counters: ChangeCounters) {}

  /** One queue of a read: its participants' paths go into `present`, their sessions into `sessionsWithNodes`. */
  observeQueue(queue: LockQueue, at: number, live: boolean, present: Set<string>, sessionsWithNodes: Set<string>): void {
    let length = 0;
    for (const p of queue.participants) {
      if (p.nodeless) continue;
      length++;
      present.add(p.path);
      if (p.session) sessionsWithNodes.add(p.session);
      this.observeParticipant(queue.path, p, at, live);
    }
    this.book.sample(queue.path, length, at);
  }

  /** What is open and no longer `present` (and not followed from events) ended by this read. */
  closeAbsent(present: ReadonlySet<string>, followed: (lock: string) => boolean, at: number, live: boolean): void {
    const firstNewHold = this.firstExclusiveHoldSince(at);
    for (const [path, interval] of this.book.history.open) {
      if (present.has(path) || followed(interval.lock)) continue;
      this.counters.seenChange(interval.lock);
      // An exclusive hold that began before this read (held from its node's creation) proves the one that left
      // had gone by then: the read came after both changes.
      const newHold = interval.kind === 'hold' && isExclusive(interval) ? firstNewHold.get(interval.lock) : undefined;
      this.book.close(path, interval, newHold !== undefined ? Math.min(at, newHold) : at, live);
    }
  }

  private observeParticipant(lock: string, p: Participant, at: number, live: boolean): void {
    const holding = p.role !== 'waiter';
    const current = this.book.history.open.get(p.path);
    if (!current) {
      this.counters.seenChange(lock);
      if (!holding) {
        this.open('wait', lock, p, p.since > 0 ? p.since : at, p.since > 0);
        return;
      }
      const heldSince = p.held?.since ?? at;
      // Held from its creation, or seen taking over between two live reads: its wait, if any, is known too.
      const heldExact = p.held?.exact === true;
      if (heldExact && p.since > 0 && heldSince > p.since) {
        const wait = this.open('wait', lock, p, p.since, true);
        this.book.closeAs(p.path, wait, heldSince, true, 'acquired');
      }
      this.open('hold', lock, p, heldSince, heldExact);
      return;
    }
    this.book.refresh(current, p);
    if (current.kind === 'wait' && holding) {
      const heldSince = live ? Math.min(at, Math.max(current.start, p.held?.since ?? at)) : at;
      const exact = live && p.held?.exact !== false;
      this.book.closeAs(p.path, current, heldSince, exact, 'acquired');
      this.open('hold', lock, p, heldSince, exact);
    }
  }

  private open(kind: HistoryInterval['kind'], lock: string, p: Who, start: number, startExact: boolean): HistoryInterval {
    const interval = this.book.open(kind, lock, p, start, startExact);
    this.openedNow.push(interval);
    return interval;
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
}
