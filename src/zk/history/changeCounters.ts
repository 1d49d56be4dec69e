// Per lock, the folder's change counter (cversion) at the last read, and the creates and deletes the analyses showed
// since: what the counter shows beyond those came and went between two reads unseen, a gap on that lock.
import type { Gaps } from './gaps';

export class ChangeCounters {
  private readonly byLock = new Map<string, { cversion: number; at: number; seen: number }>();

  /** `followed`: a queue followed from the server's events is told every create and delete, so nothing goes unseen. */
  constructor(private readonly gaps: Gaps, private readonly followed: (lock: string) => boolean) {}

  /**
   * The queues' change counters after a read (LockMonitor.onCounters, after the analysis of that read, if any):
   * creates and deletes the counter shows beyond those the analyses showed came and went unseen, a gap on that lock.
   */
  note(counters: readonly { path: string; cversion: number }[], at: number): void {
    for (const { path, cversion } of counters) {
      if (this.followed(path)) continue;
      const last = this.byLock.get(path);
      const unseen = last ? cversion - last.cversion - last.seen : 0;
      if (last && unseen > 0 && this.gaps.seenLive) this.gaps.add({ from: last.at, to: at, lock: path, unseen });
      this.byLock.set(path, { cversion, at, seen: 0 });
    }
  }

  /** An analysis showed a create or a delete under `lock`. */
  seenChange(lock: string): void {
    const counter = this.byLock.get(lock);
    if (counter) counter.seen++;
  }

  /** A queue gone (a Curator container removed) starts its counter afresh when it is back. */
  keepOnly(read: ReadonlySet<string>): void {
    for (const lock of this.byLock.keys()) if (!read.has(lock)) this.byLock.delete(lock);
  }
}
