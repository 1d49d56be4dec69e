// The wait-for graph between sessions across every queue analysed (waiter → owner of what it waits for) and its
// elementary cycles: each one is a deadlock, since every session in it waits for the next one forever.
import type { DeadlockCycle, LockQueue } from './model';

export interface WaitEdge {
  from: string;
  to: string;
  /** The queue the wait happens in. */
  lock: string;
}

export function waitForEdges(queues: readonly LockQueue[]): WaitEdge[] {
  const ownerOf = new Map<string, string>();
  for (const q of queues) for (const p of q.participants) if (p.session && !p.nodeless) ownerOf.set(p.path, p.session);
  const edges: WaitEdge[] = [];
  const seen = new Set<string>();
  for (const q of queues) {
    for (const p of q.participants) {
      if (!p.session) continue;
      for (const target of p.waitsFor) {
        const to = ownerOf.get(target);
        // A session waiting behind itself is another thread of the same client, not a deadlock by itself.
        if (!to || to === p.session) continue;
        const key = `${p.session}>${to}`;
        if (seen.has(key)) continue;
        seen.add(key);
        edges.push({ from: p.session, to, lock: q.path });
      }
    }
  }
  return edges;
}

/**
 * Every elementary cycle that `accept` keeps (each reported once, starting at its smallest session id), at most
 * `limit` of them.
 */
export function findCycles(edges: readonly WaitEdge[], accept: (cycle: DeadlockCycle) => boolean = () => true, limit = 100): DeadlockCycle[] {
  const out = new Map<string, WaitEdge[]>();
  for (const e of edges) {
    let list = out.get(e.from);
    if (!list) out.set(e.from, list = []);
    list.push(e);
  }
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const cycles: DeadlockCycle[] = [];
  for (const start of nodes) {
    // Only cycles whose smallest member is `start`: each cycle is found exactly once.
    const stack: WaitEdge[] = [];
    const onPath = new Set<string>([start]);
    const visit = (node: string): void => {
      for (const e of out.get(node) ?? []) {
        if (cycles.length >= limit) return;
        if (e.to === start) {
          const path = [...stack, e];
          const cycle = { sessions: path.map((x) => x.from), locks: path.map((x) => x.lock) };
          if (accept(cycle)) cycles.push(cycle);
        } else if (e.to > start && !onPath.has(e.to)) {
          onPath.add(e.to);
          stack.push(e);
          visit(e.to);
          stack.pop();
          onPath.delete(e.to);
        }
      }
    };
    visit(start);
    if (cycles.length >= limit) break;
  }
  return cycles;
}
