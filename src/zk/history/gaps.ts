// While the monitor cannot see the servers (gapStarted … gapEnded, then a full read) nothing is invented: the gap is
// recorded, and what changed meanwhile closes and opens as bounds. `seenLive` tells the other parts whether the
// next read follows the last one without a gap between (changes between them were seen happening).
import type { LockHistory } from './history';
import type { HistoryEvent, HistoryGap } from './model';

export class Gaps {
  /** Until the first analysis, and after a gap, what is found was not seen happening. */
  seenLive = false;
  private current?: HistoryGap;

  constructor(private readonly history: LockHistory, private readonly emit: (event: HistoryEvent) => void) {}

  /** Whether a gap is open (the monitor does not see the servers now). */
  get away(): boolean {
    return this.current !== undefined;
  }

  /** The monitor lost sight of the servers at `at`; nothing new if it already had. */
  start(at: number): void {
    if (this.current) return;
    this.current = { from: at };
    this.history.gaps.push(this.current);
    this.seenLive = false;
    this.emit({ type: 'gap', gap: this.current });
  }

  /** It sees again from `at`: false if no gap was open. */
  end(at: number): boolean {
    if (!this.current) return false;
    this.current.to = at;
    this.emit({ type: 'gap', gap: this.current });
    this.current = undefined;
    return true;
  }

  /** A read was observed: the next one is live unless a gap is open. */
  readObserved(): void {
    this.seenLive = !this.current;
  }

  /** A gap that is over already (a lock's unseen changes, changes dropped while held). */
  add(gap: HistoryGap): void {
    this.history.gaps.push(gap);
    this.emit({ type: 'gap', gap });
  }
}
