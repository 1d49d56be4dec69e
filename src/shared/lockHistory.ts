// The lock history as it leaves the ZooKeeper layer: the timeline the webview draws, the contention figures it and
// the CLI show, and the parts of the history model they carry (how an interval ended, a gap). Plain data only
// (JSON-safe), computed in src/zk/history (timeline.ts, figures.ts), sent to the webview as JSON text
// (lockQueueMessages.ts) and printed by `zooscope locks --json`. Changing a field here changes a documented format.

/**
 * How an interval ended, where it can be told (the evidence is in src/zk/history/sessionEnds.ts; the panel never guesses):
 * - acquired: a wait that ended because its participant began to hold (the hold follows on the same lane);
 * - released: its node went and its session was seen alive afterwards (another node of it, or the leader's session
 *   tracker read after the delete). A node deleted by another session looks the same: `released` too;
 * - sessionEnded: its session expired (shown as "session lost"): gone from the leader's tracker after the delete,
 *   and the last sighting before it showed the session connected nowhere, silent for long and due to expire within
 *   two ticks. Left open: a client that reconnected in those two ticks and closed its session before any reading;
 * - gaveUp: a wait whose node went before it ever held, its session alive;
 * - unknown: nothing tells which: the session was in no table, the monitor was away meanwhile, or the session was
 *   closed by its client (a close cannot be told from "released, then closed a moment later", so it is not claimed).
 */
export type EndReason = 'acquired' | 'released' | 'sessionEnded' | 'gaveUp' | 'unknown';

/**
 * The monitor could not see the servers (disconnected, suspended, failing reads): nothing in it is filled in. With
 * `lock`: between two reads of that queue, `unseen` creates and deletes happened that no read showed (nodes that
 * came and went within one read's time), told by the folder's change counter; what they were is not known.
 */
export interface HistoryGap {
  from: number;
  /** Absent while the gap lasts. */
  to?: number;
  lock?: string;
  unseen?: number;
}

// ---- the timeline ----

export const TIMELINE_VERSION = 1;

/** Codes for TimelineData.ended (index into this list). */
export const END_CODES: readonly (EndReason | 'open')[] = ['open', 'acquired', 'released', 'sessionEnded', 'gaveUp', 'unknown'];

export interface TimelineLane {
  lock: number;
  node: string;
  session?: string;
  clientAddress?: string;
  label?: string;
}

/**
 * The history as columns (one array per field) instead of objects: intervals ordered by lane, then start, so a
 * lane's bars are one contiguous run. Times are ms after `origin`; an open interval ends at -1 (draw it to "now").
 */
export interface TimelineData {
  version: number;
  /** No later than any time below (all times are ms after it): where the history starts, never a view's start. */
  origin: number;
  /** When recording began (ms since the epoch; LockHistory.startedAt): the recorded window starts here. */
  startedAt?: number;
  locks: string[];
  lanes: TimelineLane[];
  /** Where each lane's run starts in the interval columns (lanes.length + 1 entries). */
  laneStart: number[];
  kind: (0 | 1)[]; // 0 wait, 1 hold
  start: number[];
  end: number[];
  /** bit 0: start exact; bit 1: end exact. */
  exact: number[];
  /** Index into END_CODES. */
  ended: number[];
  gaps: HistoryGap[];
  queue: { lock: number; at: number[]; length: number[] }[];
}

// ---- contention figures ----

export interface Spread {
  count: number;
  median?: number;
  p95?: number;
  max?: number;
}

export interface ParticipantFigures {
  /** Session (`0x…`), or the node name for a node without an owner. */
  who: string;
  clientAddress?: string;
  label?: string;
  acquisitions: number;
  holdMs: Spread;
  waitMs: Spread;
  /** Waits that ended without holding. */
  gaveUp: number;
}

export interface LockFigures {
  lock: string;
  acquisitions: number;
  holdMs: Spread;
  waitMs: Spread;
  /** Longest queue (holders and waiters) seen in the window. */
  maxQueueLength: number;
  /** Queue length changes in the window: [time ms, length]. */
  queueLength: [number, number][];
  acquisitionsPerSecond: number;
  /** The single longest hold. */
  longestHold?: { node: string; session?: string; clientAddress?: string; ms: number; exact: boolean };
  /** Session ends seen while holding or waiting. */
  sessionLosses: number;
  /** Creates and deletes on the lock that no read showed (nodes that came and went within one read). */
  unseenChanges: number;
  participants: ParticipantFigures[];
  /** Some time in the figures is a bound (found already held, or a gap of the monitor in the window). */
  bounds: boolean;
  /** Some intervals were summarised: their percentiles are within 2%. */
  approximate: boolean;
}

/** A participant of a lock, as the per-participant bounds are keyed (ParticipantFigures.who). */
export const participantKey = (lock: string, who: string): string => `${lock}\u0000${who}`;
