// Distributed locks and leader elections held by hand, for the VS Code layer and the CLI (no vscode import).
//
//   const manager = new LockManager({ connectString, sessionTimeoutMs });   // one per connection
//   manager.on('change', (s: LockSnapshot) => render(s));                 // every lock's every change
//   const handle = await manager.acquire('/app/lock', { mode: 'exclusive', timeoutMs: 30000, signal });
//   handle.on('lost', (s) => warn(s.lostReason));                          // stop acting as the holder at once
//   await handle.whenHeld();                                               // or rejects with LockError(snapshot)
//   await handle.release();
//   manager.close();                                                       // releases everything
//
// Modes: exclusive, read, write (readers share, a writer excludes all), election (fair: each candidate watches
// its predecessor; state 'leader'), unfairElection (one ephemeral node at the path; everyone watches it).
//
// Snapshots (LockSnapshot, plain JSON-safe data) carry: state — acquiring, waiting, held | leader, suspended, lost,
// released, cancelled, timedOut, failed — and since when; the own node's path; the lock session id; while waiting,
// `position` ({index: 3, of: 7}: "3rd of 7") and `waitingFor` (the one node watched); `lostReason` (sessionExpired,
// sessionLost, nodeDeleted, notOwner); `error` for failed (a ZkError code, `conventionUnknown`,
// `conventionMismatch`); `repeatedRequests`.
//
// What the states promise:
// - held/leader: our node exists, our session owns it, and the library's rules put it first.
// - suspended: the connection dropped; the node may still be ours but nobody can tell — do not act as the holder.
//   On reconnect ownership is checked (node exists with our session as ephemeralOwner) → held again, or lost.
// - lost: gone for sure, reported the moment it is known (session expired, no contact for a session timeout,
//   node deleted by someone else). Never 'held' after 'lost'.
// - A release wakes exactly one waiter (a writer's release wakes the readers right behind it): each waiter watches
//   only the node it waits for, and lists the queue again after every wake-up.
// - A create whose answer is lost to a connection loss is found again by the GUID in its name (or the session id,
//   or its owner) after reconnecting: never an orphan node, never two nodes for one attempt.
// - Locks live on the manager's own session, so browsing reconnects never cost a lock.
//
// Joining another library's queue: convention 'auto' (default) recognises Curator (mutex, read/write lock, leader
// latch), kazoo (Lock, ReadLock/WriteLock, Election), ZooKeeper's WriteLock and LeaderElectionSupport recipes and
// the plain `lock-`/`read-`/`write-` recipe (ZooScope's own on an empty path), and names and orders our node as
// that library does, so its clients see it as one of theirs. An unknown or mixed queue fails with
// `conventionUnknown` and `detection` in the snapshot; `manager.detectConvention(path)` asks beforehand, and an
// explicit `convention` joins anyway.
export { LockManager } from './lockManager';
export type { LockManagerEvents } from './lockManager';
export { LockHandle } from './lockHandle';
export type { LockHandleEvents } from './lockHandle';
export { LockError, FINAL_STATES } from './types';
export type { AcquireOptions, LockMode, LockSnapshot, LockState, LostReason, QueuePosition } from './types';
export { CONVENTION_IDS, convention, isConventionId } from './conventions';
export type { ConventionId, LockConvention, NodeRole } from './conventions';
export { detectConvention, chooseConvention } from './conventionDetection';
export type { ConventionDetection } from './conventionDetection';
export type { LockPathSurvey } from './lockPathSurvey';
