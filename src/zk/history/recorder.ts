// Turns what the live monitor sees into history, through one part per concern: observing by polls
// (pollObserver.ts) until the server's notifications are followed (eventFollower.ts), judging how sessions ended
// (pendingEnds.ts, from the evidence in sessionEnds.ts), counting each lock's changes to tell those no read saw
// (changeCounters.ts), and the gaps while the monitor cannot see the servers (gaps.ts). All of them write the
// intervals, samples and gaps through one book (intervalBook.ts), which tells the listeners.
import type { LockAnalysis, RecipeId } from '../../shared/lockAnalysis';
import { ChangeCounters } from './changeCounters';
import { EventFollower, NodeReader } from './eventFollower';
import { Gaps } from './gaps';
import { LockHistory } from './history';
import { IntervalBook } from './intervalBook';
import type { HistoryEvent, HistoryInterval } from './model';
import { PendingEnds } from './pendingEnds';
import { PollObserver } from './pollObserver';
import type { TrackerReading } from './sessionEnds';

export type { HistoryEvent } from './model';
export type { NodeReader } from './eventFollower';

export class LockRecorder {
  private readonly listeners = new Set<(event: HistoryEvent) => void>();
  private readonly ends: PendingEnds;
  private readonly book: IntervalBook;
  private readonly gaps: Gaps;
  private readonly counters: ChangeCounters;
  private readonly polls: PollObserver;
  private readonly follower: EventFollower;

  constructor(readonly history = new LockHistory()) {
    const emit = (event: HistoryEvent) => {
      for (const listener of [...this.listeners]) listener(event);
    };
    this.ends = new PendingEnds(history, emit);
    this.book = new IntervalBook(history, this.ends, emit);
    this.gaps = new Gaps(history, emit);
    this.follower = new EventFollower(this.book, this.gaps, this.ends);
    this.counters = new ChangeCounters(this.gaps, (lock) => this.follower.follows(lock));
    this.polls = new PollObserver(this.book, this.counters);
  }

  onEvent(listener: (event: HistoryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the monitor sees the servers now: a read observed, and no gap open since. */
  get seeing(): boolean {
    return this.gaps.seenLive;
  }

  /** The recipe of the queue at `lock` as last recognised (an interval's listeners ask it when it opens). */
  recipeOf(lock: string): RecipeId | undefined {
    return this.follower.recipeOf(lock);
  }

  /** The monitor lost sight of the servers at `at` (disconnected, suspended, a read failed). */
  gapStarted(at: number): void {
    this.follower.lostSight();
    this.gaps.start(at);
  }

  /** It sees again from `at`; the next analysis is compared as bounds. */
  gapEnded(at: number): void {
    if (!this.gaps.away) return;
    this.follower.seesFrom(at);
    this.gaps.end(at);
  }

  /** A read showed the same participants as the last analysis observed: changes from now on are seen live. */
  sawUnchanged(): void {
    if (!this.gaps.away) this.gaps.seenLive = true;
  }

  /**
   * `_tablesAskedAt`: when the servers' tables behind `analysis.sessions` were asked for. Not used while a session
   * end cannot be told exactly from them (see IntervalBook.close); kept so the monitor's callers need not change when it can.
   */
  observe(analysis: LockAnalysis, at = analysis.takenAt, _tablesAskedAt?: number): void {
    const live = this.gaps.seenLive;
    this.ends.learntAt(at);
    this.follower.noteRead(analysis);
    const present = new Set<string>();
    const sessionsWithNodes = new Set<string>();
    for (const queue of analysis.queues) {
      if (this.follower.following) this.follower.observeQueue(queue, at, live, sessionsWithNodes);
      else this.polls.observeQueue(queue, at, live, present, sessionsWithNodes);
    }
    const followed = (lock: string) => this.follower.follows(lock);
    this.polls.closeAbsent(present, followed, at, live);
    const read = new Set(analysis.queues.map((q) => q.path));
    this.follower.observeGoneQueues(read, at, live);
    this.book.sampleGone(read, followed, at);
    this.counters.keepOnly(read);
    this.ends.resolve(sessionsWithNodes);
    this.gaps.readObserved();
  }

  /**
   * From `at` on, the server's notifications are followed (a persistent recursive watch on the monitored path is
   * set): the queues the last analysis showed are followed from their members as read, until the full read after
   * the watch (resync) confirms them. `readNode` reads a node whose owner or data the rules need (without it,
   * such a node's create applies at once, its owner unknown).
   */
  followEvents(at: number, readNode?: NodeReader): void {
    this.follower.follow(at, readNode);
  }

  /** Whether the server's notifications are followed, and the members known as they are (no gap since the last full read). */
  get followingEvents(): { following: boolean; synced: boolean } {
    return { following: this.follower.following, synced: this.follower.synced };
  }

  /** The server told that `path` was created; `at` is when that was heard. */
  nodeCreated(path: string, at: number): void {
    this.follower.nodeCreated(path, at);
  }

  /** The server told that `path` was deleted. */
  nodeDeleted(path: string, at: number): void {
    this.follower.nodeDeleted(path, at);
  }

  /** A full read that began at `readsFrom` or later, with the changes told since: see EventFollower.resync. */
  resync(analysis: LockAnalysis, readsFrom: number): void {
    this.follower.resync(analysis, readsFrom);
  }

  /**
   * The queues' change counters after a read (LockMonitor.onCounters, after the analysis of that read, if any):
   * creates and deletes the counter shows beyond those the analyses showed came and went unseen, a gap on that lock.
   */
  noteCounters(counters: readonly { path: string; cversion: number }[], at: number): void {
    this.counters.note(counters, at);
  }

  /** Whether `interval`'s end is still to be told (by its session seen again, or by the leader's tracker). */
  awaitsEnd(interval: HistoryInterval): boolean {
    return this.ends.awaits(interval);
  }

  /**
   * A reading of the leader's session tracker (followMonitor, after every reading of the servers' tables): it
   * follows the sessions of what is open, and tells pending ends released, expired (`sessionEnded`), or never.
   */
  noteTracker(reading: TrackerReading): void {
    this.ends.noteTracker(reading);
  }

  /** When a reading of the tracker would tell more than the regular poll can (see TrackerSightings.readingWantedAt). */
  trackerReadingWantedAt(): number | undefined {
    return this.ends.trackerReadingWantedAt();
  }
}
