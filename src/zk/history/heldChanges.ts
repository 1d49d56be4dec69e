// The creates and deletes told before the full read that syncs (eventFollower.ts), in the order told, bounded: past
// MAX_HELD they are all dropped and the time is kept, so the read that syncs records a gap from then instead.
import type { PendingChange } from './members';

/** Changes held until the full read at most (then dropped: a gap until that read). */
const MAX_HELD = 200_000;

export class HeldChanges {
  private changes: PendingChange[] = [];
  /** When the held changes grew past MAX_HELD and were dropped (undefined: none dropped). */
  private droppedAt?: number;

  /** Keeps `change`; false when it is not kept (too many held: the rest go untold until the next `take`). */
  hold(change: PendingChange): boolean {
    if (this.droppedAt !== undefined) return false;
    if (this.changes.length >= MAX_HELD) {
      this.changes = [];
      this.droppedAt = change.at;
      return false;
    }
    this.changes.push(change);
    return true;
  }

  /** Sight is lost: what was held is forgotten (a drop stays recorded for the read that syncs). */
  forget(): void {
    this.changes = [];
  }

  /** What was held, and since when changes were dropped; both start afresh. */
  take(): { changes: PendingChange[]; droppedAt?: number } {
    const taken = { changes: this.changes, droppedAt: this.droppedAt };
    this.changes = [];
    this.droppedAt = undefined;
    return taken;
  }
}
