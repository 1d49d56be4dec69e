// The lock history model: what a recorder keeps, a recording file holds, the figures are computed from, and a
// timeline will draw. Plain JSON-safe data (sessions are `0x…` strings), so it crosses to a webview unchanged;
// intervals are flat records (no nesting) so 100,000 of them stay cheap to send and to scan.
import type { ParticipantKind } from '../../shared/lockAnalysis';
import type { EndReason, HistoryGap } from '../../shared/lockHistory';

export type IntervalKind = 'wait' | 'hold';

/** How an interval ended, and a gap: wire types, in src/shared/lockHistory.ts (the webview and the CLI show them). */
export type { EndReason, HistoryGap } from '../../shared/lockHistory';

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
