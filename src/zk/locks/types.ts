// The data a lock attempt reports: plain, JSON-safe snapshots (session ids as 0x-hex strings), so the VS Code
// layer, the CLI and tests read the same facts and turn them into words themselves.
import type { ConventionDetection } from './conventionDetection';
import type { ConventionId } from './conventions';
import type { LockMode } from './lockMode';

export type { LockMode } from './lockMode';

/**
 * acquiring: creating our node. waiting: queued behind `waitingFor`. held / leader: ours.
 * suspended: the connection is down; the lock may still be ours, nobody can tell (Curator's SUSPENDED) — do not act
 * as the holder until it is `held` again. lost: gone for sure (Curator's LOST), see `lostReason`.
 * released, cancelled, timedOut, failed: the attempt ended; `failed` carries `error`.
 */
export type LockState =
  | 'acquiring' | 'waiting' | 'held' | 'leader' | 'suspended' | 'lost' | 'released' | 'cancelled' | 'timedOut' | 'failed';

/**
 * sessionExpired: the server expired the lock session (its ephemeral node is gone). sessionLost: no contact with
 * any server for a whole session timeout (the server has expired it, or will). nodeDeleted: someone else deleted
 * our node. notOwner: after a reconnect our node belongs to another session.
 */
export type LostReason = 'sessionExpired' | 'sessionLost' | 'nodeDeleted' | 'notOwner';

export const FINAL_STATES: ReadonlySet<LockState> = new Set(['lost', 'released', 'cancelled', 'timedOut', 'failed']);

export interface QueuePosition {
  /** 1-based place in the library's queue order (1 = the holder or leader). */
  index: number;
  /** Contenders in the queue (all kinds). */
  of: number;
}

export interface LockSnapshot {
  /** The lock's path: the queue directory (for an unfair election, the leader node itself). */
  path: string;
  mode: LockMode;
  /** The naming and ordering rules our node follows. */
  convention: ConventionId;
  state: LockState;
  /** When `state` was entered (ms since the epoch). */
  since: number;
  /** When the attempt started. */
  startedAt: number;
  /** Full path of our node, once created. */
  node?: string;
  /** The lock session's id (0x-hex). */
  sessionId?: string;
  /** While waiting: where we are in the queue (refreshed on every wake-up, and every `positionRefreshMs`). */
  position?: QueuePosition;
  /** While waiting: the node we watch (whose deletion wakes us). */
  waitingFor?: string;
  /** The state before `suspended` (what we were when the connection dropped). */
  suspendedFrom?: 'waiting' | 'held' | 'leader' | 'acquiring';
  lostReason?: LostReason;
  /** For `failed`: a ZooKeeper error code name (ZkError.code) or `conventionUnknown` / `conventionMismatch`. */
  error?: string;
  /** With `conventionUnknown`: what the path holds (the UI lets the user choose a convention, or warns). */
  detection?: ConventionDetection;
  /** How many times the same holder asked for this lock again while it was live (reported, not queued). */
  repeatedRequests: number;
}

export interface AcquireOptions {
  mode?: LockMode;
  /**
   * The naming rules to follow, or 'auto' (default): recognise the library already queued at the path and follow
   * it; an empty path gets ZooScope's own rules ('plain'). An unrecognisable queue fails with
   * `conventionUnknown` (see detectLockConvention to ask before joining).
   */
  convention?: ConventionId | 'auto';
  /** Give up (state `timedOut`, our node deleted) after this long without the lock. */
  timeoutMs?: number;
  /** Abort to cancel a pending attempt (state `cancelled`, node deleted). Has no effect once held. */
  signal?: AbortSignal;
  /** Our node's data (default `zooscope@<host> pid <pid>`). */
  data?: Buffer;
  /** While waiting, also re-read the queue this often to keep `position` current (0 = only on wake-ups). */
  positionRefreshMs?: number;
}

export class LockError extends Error {
  constructor(readonly snapshot: LockSnapshot) {
    super(`lock ${snapshot.path}: ${snapshot.state}${snapshot.lostReason ? ` (${snapshot.lostReason})` : ''}${snapshot.error ? ` (${snapshot.error})` : ''}`);
    this.name = 'LockError';
  }
}
