// How closed intervals ended, told later: an interval whose node went is `unknown` until its session is seen alive
// again (another node of it: released, or gave up) or the leader's session tracker tells (sessionEnds.ts). After
// a gap nothing tells; it stays so.
import type { LockHistory } from './history';
import type { HistoryEvent, HistoryInterval } from './model';
import { AwaitedEnd, judgeEnd, TrackerReading, TrackerSightings } from './sessionEnds';

/** Closed intervals whose session is still to be told alive or gone, at most this many (then left unknown). */
const MAX_PENDING_ENDS = 10_000;

export class PendingEnds {
  /** Session → intervals that ended with their node while nothing yet told whether the session lived on. */
  private readonly bySession = new Map<string, HistoryInterval[]>();
  private count = 0;
  /** The pending ends' nodes, for the leader's tracker to tell (sessionEnds.ts). */
  private readonly awaited = new Map<HistoryInterval, AwaitedEnd>();
  private readonly sightings = new TrackerSightings();
  /** The latest moment anything was learnt (wall ms): a delete learnt then had happened by then. */
  private learnt = 0;

  constructor(private readonly history: LockHistory, private readonly emit: (event: HistoryEvent) => void) {}

  /** Something was learnt at `at` (a read taken, a delete told). */
  learntAt(at: number): void {
    this.learnt = Math.max(this.learnt, at);
  }

  /** An interval closed as seen: its session, seen alive again or in the leader's tracker, tells how it ended. */
  await(interval: HistoryInterval, path: string): void {
    if (!interval.session || this.count >= MAX_PENDING_ENDS) return;
    const list = this.bySession.get(interval.session) ?? [];
    list.push(interval);
    this.bySession.set(interval.session, list);
    this.count++;
    const end: AwaitedEnd = { session: interval.session, path, learntAt: Math.max(this.learnt, interval.end ?? 0) };
    const sighting = this.sightings.get(interval.session);
    if (sighting?.paths.has(path)) end.sighting = sighting;
    this.awaited.set(interval, end);
  }

  /** Whether `interval`'s end is still to be told (by its session seen again, or by the leader's tracker). */
  awaits(interval: HistoryInterval): boolean {
    return this.awaited.has(interval) || (this.bySession.get(interval.session ?? '')?.includes(interval) ?? false);
  }

  /** A reading of the leader's tracker: follows the sessions of what is open, and tells pending ends released, expired, or never. */
  noteTracker(reading: TrackerReading): void {
    const sessions = new Set(this.bySession.keys());
    for (const interval of this.history.open.values()) if (interval.session) sessions.add(interval.session);
    this.sightings.note(reading, sessions);
    for (const [session, intervals] of [...this.bySession]) {
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
      this.count -= intervals.length - left.length;
      if (left.length) this.bySession.set(session, left);
      else this.bySession.delete(session);
    }
  }

  /** When a reading of the tracker would tell more than the regular poll can (see TrackerSightings.readingWantedAt). */
  trackerReadingWantedAt(): number | undefined {
    return this.sightings.readingWantedAt();
  }

  /**
   * A session that still owns a node after its node went was alive: a release (or a give-up). A session gone
   * afterwards tells nothing (clients close their session right after releasing): undecided ones stay `unknown`.
   */
  resolve(sessionsWithNodes: ReadonlySet<string>): void {
    if (this.bySession.size === 0) return;
    for (const [session, intervals] of this.bySession) {
      if (!sessionsWithNodes.has(session)) continue;
      for (const interval of intervals) {
        interval.ended = interval.kind === 'wait' ? 'gaveUp' : 'released';
        this.awaited.delete(interval);
        this.emit({ type: 'ended', interval });
      }
      this.count -= intervals.length;
      this.bySession.delete(session);
    }
  }
}
