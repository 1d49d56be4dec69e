// Semaphores span more than one directory: Curator's SemaphoreV2 keeps leases in `<p>/leases` behind an internal
// mutex in `<p>/locks`; kazoo's Semaphore keeps leases as plain children of `<p>` behind a lock at `<p>-__lock__`.
// In both, the internal-lock holder waits for a lease with a CHILDREN watch (invisible to the servers' tables),
// and the other contenders wait in the internal lock's queue.
import type { Participant } from '../../shared/lockAnalysis';
import { baseParticipant, orderQueue, ownerSession, QueueNode } from './queueRules';

export interface SemaphoreParticipants {
  participants: Participant[];
  /** Number of leases, where known (kazoo stores it; Curator only shows it when the semaphore is full). */
  leases?: number;
  /** The directory the waiting contender watches for children changes. */
  childWatchPath?: string;
  /** The contender next in line (it holds the internal lock and waits for a lease), by node path. */
  next?: string;
}

function assemble(holders: Participant[], next: Participant | undefined, lockWaiters: Participant[]): Participant[] {
  const all = [...holders, ...(next ? [next] : []), ...lockWaiters];
  all.forEach((p, i) => { p.position = i; });
  return all;
}

/** Curator InterProcessSemaphoreV2 (and InterProcessSemaphoreMutex, one lease). */
export function curatorSemaphore(leasesPath: string, leaseNodes: readonly QueueNode[], lockNodes: readonly QueueNode[]): SemaphoreParticipants {
  const leases = orderQueue('curator', leaseNodes, 'lease-');
  const locks = orderQueue('curator', lockNodes, 'lock-');
  const lockHolder = locks[0];
  const lockHolderSession = lockHolder ? ownerSession(lockHolder.node.owner) : undefined;
  // The internal-lock holder's own lease, if it has created one, is waiting for the others to shrink.
  const waitingLease = lockHolderSession ? leases.find((l) => ownerSession(l.node.owner) === lockHolderSession) : undefined;
  const holders = leases.filter((l) => l !== waitingLease).map((l, i) => ({ ...baseParticipant(l, i, 'lease'), role: 'holder' as const }));
  const holderPaths = holders.map((h) => h.path);
  let next: Participant | undefined;
  if (waitingLease) next = { ...baseParticipant(waitingLease, 0, 'lease'), waitsFor: holderPaths };
  else if (lockHolder) next = { ...baseParticipant(lockHolder, 0, 'lease'), waitsFor: holderPaths };
  const lockWaiters = locks.slice(1).map((l, i) => ({ ...baseParticipant(l, 0, 'lease'), waitsFor: [locks[i].node.path] }));
  return {
    participants: assemble(holders, next, lockWaiters),
    leases: waitingLease ? holders.length : undefined,
    childWatchPath: next ? leasesPath : undefined,
    next: next?.path,
  };
}

/** kazoo Semaphore: `maxLeases` is the parent's data. */
export function kazooSemaphore(path: string, leaseNodes: readonly QueueNode[], lockNodes: readonly QueueNode[], maxLeases?: number): SemaphoreParticipants {
  const leases = [...leaseNodes].sort((a, b) => a.ctime - b.ctime || (a.name < b.name ? -1 : 1));
  const locks = orderQueue('kazoo', lockNodes);
  const holders = leases.map((node, i) => ({ ...baseParticipant({ node, counted: true }, i, 'lease'), role: 'holder' as const }));
  const holderPaths = holders.map((h) => h.path);
  const lockHolder = locks[0];
  const holderSessions = new Set(holders.map((h) => h.session));
  // The internal-lock holder without a lease yet is the one waiting for a lease to free up.
  const next = lockHolder && !holderSessions.has(ownerSession(lockHolder.node.owner))
    ? { ...baseParticipant(lockHolder, 0, 'lease'), waitsFor: holderPaths } : undefined;
  const lockWaiters = locks.slice(1).map((l, i) => ({ ...baseParticipant(l, 0, 'lease'), waitsFor: [locks[i].node.path] }));
  return { participants: assemble(holders, next, lockWaiters), leases: maxLeases, childWatchPath: next ? path : undefined, next: next?.path };
}
