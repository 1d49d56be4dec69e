// Since when a holder holds. Its node's ctime is when it QUEUED: a waiter that took over a second ago has an old
// ctime. What is known instead:
// - held from creation: nothing was deleted from the queue folder after the node was created. A sequential
//   node's number is the parent's cversion at its creation, and cversion counts every child created or deleted,
//   so `cversion - (number + 1)` changes happened since; if they are exactly the nodes created after it (and the
//   last child change, pzxid, is one of those creations), none was a deletion. A fixed leader node and a kazoo
//   semaphore lease (created only once a lease is free) hold from creation by the recipe.
// - seen taking over: a live monitor read the queue while the node waited, then right after the change.
// - otherwise only a lower bound: it held at least since it was first seen holding.
import type { RawQueue } from './rawQueue';
import type { Participant } from '../../shared/lockAnalysis';
import type { QueueNode } from './queueRules';
import { parseName } from './recipes';

export interface HeldSince {
  since: number;
  exact: boolean;
}

function heldFromCreation(node: QueueNode, raw: Extract<RawQueue, { shape: 'simple' }>): boolean {
  const parent = raw.parent;
  const sequence = parseName(node.name)?.sequence;
  if (!parent || node.czxid === undefined || sequence === undefined || sequence < 0 || sequence >= parent.cversion) return false;
  let createdAfter = 0;
  let lastCreation = node.czxid;
  for (const other of raw.nodes) {
    if (other.czxid === undefined) return false;
    if (other.czxid > node.czxid) {
      createdAfter++;
      if (other.czxid > lastCreation) lastCreation = other.czxid;
    }
  }
  return parent.cversion - (sequence + 1) === createdAfter && parent.pzxid === lastCreation;
}

/** Node paths of `raw` that provably hold since their creation (if they hold now). */
export function holdingSinceCreation(raw: RawQueue): Set<string> {
  switch (raw.shape) {
    case 'fixed': return new Set([raw.node.path]);
    case 'kazoo-semaphore': return new Set(raw.leases.map((n) => n.path));
    case 'curator-semaphore': return new Set();
    case 'simple': return new Set(raw.nodes.filter((n) => heldFromCreation(n, raw)).map((n) => n.path));
  }
}

/**
 * What a live monitor remembers between snapshots: when each holder was first seen holding (and whether the
 * take-over itself was seen), and who was waiting in the last snapshot.
 */
export class HoldHistory {
  private held = new Map<string, HeldSince>();
  private waiting = new Set<string>();

  /** The hold start of a holder of a snapshot taken at `takenAt`. */
  resolve(p: Participant, fromCreation: boolean, takenAt: number): HeldSince {
    return this.held.get(p.path) ?? startOf(p, fromCreation, takenAt, this.waiting.has(p.path));
  }

  /** Remembers a snapshot's holders and waiters (forgetting nodes that are gone). */
  remember(participants: Iterable<Participant>): void {
    const held = new Map<string, HeldSince>();
    const waiting = new Set<string>();
    for (const p of participants) {
      if (p.nodeless) continue;
      if (p.held) held.set(p.path, p.held);
      else if (p.role === 'waiter') waiting.add(p.path);
    }
    this.held = held;
    this.waiting = waiting;
  }
}

export function startOf(p: Participant, fromCreation: boolean, takenAt: number, seenWaiting = false): HeldSince {
  if (fromCreation && p.since > 0) return { since: p.since, exact: true };
  // Seen waiting in the previous snapshot, which the monitor reads right after every change: it took over now.
  return { since: takenAt, exact: seenWaiting };
}
