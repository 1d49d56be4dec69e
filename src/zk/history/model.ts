// The lock history model: what a recorder keeps, a recording file holds, the figures are computed from, and a
// timeline will draw. Plain JSON-safe data (sessions are `0x…` strings), so it crosses to a webview unchanged;
// intervals are flat records (no nesting) so 100,000 of them stay cheap to send and to scan.
import type { ParticipantKind } from '../../shared/lockAnalysis';

export type IntervalKind = 'wait' | 'hold';

/**
 * How an interval ended, where it can be told (the evidence is in sessionEnds.ts; the panel never guesses):
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

export interface HistoryInterval {
  /** Stable within one history (and its recording): lets a recording close an interval it opened earlier. */
  id: number;
  kind: IntervalKind;
  /** The queue (lock) path. */
  lock: string;
  /** The participant's node name (a child of the queue, or the fixed node itself). */
  node: string;
  participant: ParticipantKind;
  session?: string;
  clientAddress?: string;
  /** Untrusted text from the node's data, as the analysis shows it. */
  label?: string;
  /** ms since the epoch. */
  start: number;
  /** False when `start` is only a bound (found already there, or after a gap). */
  startExact: boolean;
  /** Absent while open. */
  end?: number;
  endExact?: boolean;
  ended?: EndReason;
}

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

/** The number of participants of a lock from `at` on (holders and waiters). */
export interface QueueSample {
  lock: string;
  at: number;
  length: number;
}

/** What a recorder tells its listeners, as it happens (a recording file writes each as a line). */
export type HistoryEvent =
  | { type: 'open'; interval: HistoryInterval }
  | { type: 'close'; interval: HistoryInterval }
  /** A closed interval's end reason learnt later (its session was seen again, or seen gone). */
  | { type: 'ended'; interval: HistoryInterval }
  | { type: 'gap'; gap: HistoryGap }
  | { type: 'queue'; sample: QueueSample };
