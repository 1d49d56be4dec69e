// What the lock-queue panel shows, asked by path: the panel acts only on what is on screen (a queue to join, our
// own node to release, a holder to force out), never on a path its webview merely names.
import type { LockAnalysis, Participant } from '../../shared/lockAnalysis';

function participants(analysis: LockAnalysis | undefined): Participant[] {
  return (analysis?.queues ?? []).flatMap((queue) => queue.participants);
}

/** A queue of the analysis (the parent of its contenders): what Acquire joins. */
export function shownQueue(analysis: LockAnalysis | undefined, path: string): boolean {
  return (analysis?.queues ?? []).some((queue) => queue.path === path);
}

/** A participant that holds (or leads) and still has its node: what Force Release may delete. */
export function shownHolder(analysis: LockAnalysis | undefined, path: string): Participant | undefined {
  return participants(analysis).find((p) => p.path === path && p.role !== 'waiter' && !p.nodeless);
}

/** A participant of this window's lock sessions: what Release lets go. */
export function shownOurs(analysis: LockAnalysis | undefined, path: string): boolean {
  return participants(analysis).some((p) => p.path === path && p.ours === true);
}

/** Any path the panel shows: its root, a queue, a participant, or what one watches or waits for. */
export function shownPath(analysis: LockAnalysis | undefined, path: string): boolean {
  if (!analysis) return false;
  if (analysis.root === path || shownQueue(analysis, path)) return true;
  return participants(analysis).some((p) => p.path === path || p.waitsFor.includes(path) || p.watches.some((w) => w.path === path));
}
