// The wait-for graph between sessions across every queue analysed (waiter → owner of the holder it waits behind)
// and its elementary cycles: each one is a deadlock, since every session in it waits for the next one forever.
import type { DeadlockCycle, LockQueue, Participant } from '../../shared/lockAnalysis';

export interface WaitEdge {
  from: string;
  to: string;
  /** The queue the wait happens in. */
  lock: string;
}

export function waitForEdges(queues: readonly LockQueue[]): WaitEdge[] {
  const byPath = new Map<string, Participant>();
  for (const q of queues) for (const p of q.participants) if (!p.nodeless) byPath.set(p.path, p);
  // A waiter is blocked by the holders at the head of its chain, not by the waiters in between: in A B A B, A's
  // second thread waits for B's waiting node, but only A's own holder keeps everyone out, and it goes on.
  const heads = new Map<string, string[]>();
  const headsOf = (p: Participant): string[] => {
    const known = heads.get(p.path);
    if (known) return known;
    heads.set(p.path, []); // a malformed chain that loops ends here
    const result = p.role !== 'waiter' || p.waitsFor.length === 0
      ? (p.session ? [p.session] : [])
      : [...new Set(p.waitsFor.flatMap((t) => { const target = byPath.get(t); return target ? headsOf(target) : []; }))];
    heads.set(p.path, result);
    return result;
  };
  const edges: WaitEdge[] = [];
  const seen = new Set<string>();
  for (const q of queues) {
    // In queue order: each chain is walked once, from the head down.
    for (const p of q.participants) {
      if (!p.session || p.role !== 'waiter') continue;
      const targets = p.nodeless ? p.waitsFor.flatMap((t) => { const target = byPath.get(t); return target ? headsOf(target) : []; }) : headsOf(p);
      for (const to of targets) {
        // A session waiting behind itself is another thread of the same client, not a deadlock by itself.
        if (to === p.session) continue;
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
