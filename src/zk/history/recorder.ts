// Turns what the live monitor sees into history. Each analysis the monitor emits (one per change it is told of,
// read right after the change) is compared with the participants open so far: a node that appeared opens a wait
// (from its ctime) or a hold; a waiter now holding closes its wait and opens its hold; a node gone closes what was
// open. While the monitor cannot see the servers (gapStarted … gapEnded) nothing is invented: the first analysis
// after a gap closes and opens at that moment, marked as bounds.
import type { LockAnalysis, Participant } from '../../shared/lockAnalysis';
import { LockHistory } from './history';
import type { EndReason, HistoryGap, HistoryInterval, QueueSample } from './model';

const isExclusive = (interval: HistoryInterval) => interval.participant === 'exclusive' || interval.participant === 'write';

export type HistoryEvent =
  | { type: 'open'; interval: HistoryInterval }
  | { type: 'close'; interval: HistoryInterval }
  /** A closed interval's end reason learnt later (its session was seen again, or seen gone). */
  | { type: 'ended'; interval: HistoryInterval }
  | { type: 'gap'; gap: HistoryGap }
  | { type: 'queue'; sample: QueueSample };

/** Closed intervals whose session is still to be told alive or gone, at most this many (then left unknown). */
const MAX_PENDING_ENDS = 10_000;

export class LockRecorder {
  private readonly listeners = new Set<(event: HistoryEvent) => void>();
  /** Until the first analysis, and after a gap, what is found was not seen happening. */
  private seenLive = false;
  private openGap?: HistoryGap;
  private readonly lengths = new Map<string, number>();
  /** Session → intervals that ended with their node while nothing yet told whether the session lived on. */
  private readonly pendingEnds = new Map<string, HistoryInterval[]>();
  private pendingCount = 0;
  /** Per lock: the folder's change counter at the last read, when, and the creates and deletes seen since. */
  private readonly counters = new Map<string, { cversion: number; at: number; seen: number }>();
  /** Intervals opened by the observation in progress. */
  private readonly openedNow: HistoryInterval[] = [];

  constructor(readonly history = new LockHistory()) {}

  onEvent(listener: (event: HistoryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The monitor lost sight of the servers at `at` (disconnected, suspended, a read failed). */
  gapStarted(at: number): void {
    if (this.openGap) return;
    this.openGap = { from: at };
    this.history.gaps.push(this.openGap);
    this.seenLive = false;
    this.emit({ type: 'gap', gap: this.openGap });
  }

  /** It sees again from `at`; the next analysis is compared as bounds. */
  gapEnded(at: number): void {
    if (!this.openGap) return;
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
    const present = new Set<string>();
    const sessionsWithNodes = new Set<string>();
    for (const queue of analysis.queues) {
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
      if (present.has(path)) continue;
      this.seenChange(interval.lock);
      // An exclusive hold that began before this read (held from its node's creation) proves the one that left
      // had gone by then: the read came after both changes.
      const newHold = interval.kind === 'hold' && isExclusive(interval) ? firstNewHold.get(interval.lock) : undefined;
      this.close(path, interval, newHold !== undefined ? Math.min(at, newHold) : at, live);
    }
    const queues = new Set(analysis.queues.map((q) => q.path));
    for (const [lock, length] of this.lengths) {
      if (length > 0 && !queues.has(lock)) this.sample(lock, 0, at);
    }
    // A queue gone (a Curator container removed) starts its counter afresh when it is back.
    for (const lock of this.counters.keys()) if (!queues.has(lock)) this.counters.delete(lock);
    this.resolveEnds(sessionsWithNodes);
    this.seenLive = !this.openGap;
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

  private openInterval(kind: HistoryInterval['kind'], lock: string, p: Participant, start: number, startExact: boolean): HistoryInterval {
    const interval: HistoryInterval = {
      id: this.history.newId(), kind, lock, node: p.name, participant: p.kind, start, startExact,
      ...(p.session ? { session: p.session } : {}), ...(p.clientAddress ? { clientAddress: p.clientAddress } : {}),
      ...(p.label !== undefined ? { label: p.label } : {}),
    };
    this.history.open.set(p.path, interval);
    this.openedNow.push(interval);
    this.emit({ type: 'open', interval });
    return interval;
  }

  /**
   * A node whose session no server had connected while the node was still there went with its session (expired);
   * otherwise `unknown` until its session tells (resolveEnds). After a gap nothing tells; it stays so.
   */
  private close(path: string, interval: HistoryInterval, at: number, live: boolean): void {
    // A session the servers' tables showed connected nowhere while its node was there is not proof of its end: a
    // client cut off for a moment comes back and releases (runs R1, R5, R6 recorded live workers as lost that way).
    // Until the end can be told exactly, it is not claimed.
    this.closeAs(path, interval, at, live, 'unknown');
    if (!live || !interval.session || this.pendingCount >= MAX_PENDING_ENDS) return;
    const list = this.pendingEnds.get(interval.session) ?? [];
    list.push(interval);
    this.pendingEnds.set(interval.session, list);
    this.pendingCount++;
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
