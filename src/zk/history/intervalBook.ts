// Where a recorder writes what it learns: intervals opened and closed on the history, what later reads tell of them
// (session, client, label), and the queue lengths; each change is told to the recorder's listeners as it happens.
// Both ways of learning (polls, pollObserver.ts; the server's events, eventFollower.ts) write through it.
import type { Participant } from '../../shared/lockAnalysis';
import type { LockHistory } from './history';
import type { EndReason, HistoryEvent, HistoryInterval } from './model';
import type { PendingEnds } from './pendingEnds';

export const isExclusive = (interval: HistoryInterval) => interval.participant === 'exclusive' || interval.participant === 'write';

/** What an interval takes from its participant. */
export type Who = Pick<Participant, 'path' | 'name' | 'kind' | 'session' | 'clientAddress' | 'label'>;

export class IntervalBook {
  /** Each lock's queue length as last sampled. */
  private readonly lengths = new Map<string, number>();

  constructor(readonly history: LockHistory, private readonly ends: PendingEnds, private readonly emit: (event: HistoryEvent) => void) {}

  open(kind: HistoryInterval['kind'], lock: string, p: Who, start: number, startExact: boolean): HistoryInterval {
    const interval: HistoryInterval = {
      id: this.history.newId(), kind, lock, node: p.name, participant: p.kind, start, startExact,
      ...(p.session ? { session: p.session } : {}), ...(p.clientAddress ? { clientAddress: p.clientAddress } : {}),
      ...(p.label !== undefined ? { label: p.label } : {}),
    };
    this.history.open.set(p.path, interval);
    this.emit({ type: 'open', interval });
    return interval;
  }

  /**
   * A node gone ends what it had `unknown` until its session tells (PendingEnds). After a gap nothing tells; it
   * stays so.
   */
  close(path: string, interval: HistoryInterval, at: number, live: boolean): void {
    // A session the servers' tables showed connected nowhere while its node was there is not proof of its end: a
    // client cut off for a moment comes back and releases (runs R1, R5, R6 recorded live workers as lost that way).
    this.closeAs(path, interval, at, live, 'unknown');
    if (live) this.ends.await(interval, path);
  }

  closeAs(path: string, interval: HistoryInterval, at: number, exact: boolean, ended: EndReason): void {
    interval.end = Math.max(at, interval.start);
    interval.endExact = exact;
    interval.ended = ended;
    if (this.history.open.get(path) === interval) this.history.open.delete(path);
    this.history.addClosed(interval);
    this.emit({ type: 'close', interval });
  }

  /** Client address and label arrive with the servers' tables, after the node itself. */
  refresh(interval: HistoryInterval, p: Participant): void {
    if (p.clientAddress) interval.clientAddress = p.clientAddress;
    if (p.label !== undefined) interval.label = p.label;
  }

  /** Session, client and label, from a read, reach every interval of the node (an ended one too). */
  attach(intervals: HistoryInterval[], p: Participant): void {
    for (const interval of intervals) {
      if (!interval.session && p.session) {
        interval.session = p.session;
        if (interval.end !== undefined && interval.ended === 'unknown' && interval.endExact) this.ends.await(interval, p.path);
      }
      this.refresh(interval, p);
    }
  }

  sample(lock: string, length: number, at: number): void {
    if (this.lengths.get(lock) === length) return;
    this.lengths.set(lock, length);
    const sample = { lock, at, length };
    this.history.addSample(sample);
    this.emit({ type: 'queue', sample });
  }

  /** Locks that had participants and are in no read now (nor followed): their queue is empty from `at`. */
  sampleGone(read: ReadonlySet<string>, followed: (lock: string) => boolean, at: number): void {
    for (const [lock, length] of this.lengths) {
      if (length > 0 && !read.has(lock) && !followed(lock)) this.sample(lock, 0, at);
    }
  }
}
