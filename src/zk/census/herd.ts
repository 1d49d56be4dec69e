// Herd risk per lock queue, from what the census saw. A waiter that watches its predecessor (a data watch the
// servers list) is woken alone; the herd recipe's waiter does getChildren on the lock, a child watch no server lists:
// it is seen watching nothing of the queue while its member holds unlisted child watches. Pure.
import type { LockQueue } from '../../shared/lockAnalysis';
import type { HerdRisk, HerdRiskLevel, HerdWaiter } from './model';

/** What the census knows of the member a session is connected to. */
export interface WaiterMember {
  server: string;
  /** The member's data watches were listed (else what the session watches there is unknown). */
  listed: boolean;
  /** The member's unlisted child watches (mntr total less the listed ones); undefined when unknown. */
  childWatches?: number;
}

export interface HerdInput {
  queues: readonly LockQueue[];
  /** The session's listed watches on the queue's paths (paths as the queues name them). */
  watchesOf(session: string): ReadonlySet<string>;
  /** The member the session is connected to (cons); undefined when no member says. */
  memberOf(session: string): WaiterMember | undefined;
  clientOf(session: string): string | undefined;
}

type Seen = 'predecessor' | 'unseen' | 'other' | 'nothing' | 'unknown';

/** A queue's nodes and folders: what a waiter of it may watch. */
function queuePaths(queue: LockQueue): Set<string> {
  return new Set([queue.path, ...queue.participants.map((p) => p.path), ...queue.participants.map((p) => parent(p.path))]);
}

const parent = (path: string) => path.slice(0, Math.max(1, path.lastIndexOf('/')));

function riskOf(unseen: number, sharedOther: number, other: number, unknown: number): HerdRiskLevel {
  if (unseen >= 2 || sharedOther >= 2) return 'herd';
  if (unseen === 1 || other > 0) return 'possible';
  return unknown > 0 ? 'unknown' : 'none';
}

const NAMED_ORDER: Record<Exclude<Seen, 'predecessor'>, number> = { unseen: 0, other: 1, nothing: 2, unknown: 3 };

export function herdRisk(queue: LockQueue, input: Omit<HerdInput, 'queues'>): HerdRisk {
  const mine = queuePaths(queue);
  const waiters = queue.participants.filter((p) => p.role === 'waiter' && p.session);
  const seen = new Map<string, Seen>();
  const otherTargets = new Map<string, number>();
  // Waiters watching nothing, by member: as many as the member's spare child watches can be waiting on one.
  const blind = new Map<string, { member: WaiterMember; nodes: string[] }>();
  for (const p of waiters) {
    const session = p.session!;
    const member = input.memberOf(session);
    if (!member || !member.listed) { seen.set(p.path, 'unknown'); continue; }
    const watched = [...input.watchesOf(session)].filter((w) => mine.has(w));
    if (p.waitsFor.some((w) => watched.includes(w))) { seen.set(p.path, 'predecessor'); continue; }
    if (watched.length > 0) {
      seen.set(p.path, 'other');
      for (const w of watched) otherTargets.set(w, (otherTargets.get(w) ?? 0) + 1);
      continue;
    }
    let group = blind.get(member.server);
    if (!group) blind.set(member.server, group = { member, nodes: [] });
    group.nodes.push(p.path);
  }
  for (const { member, nodes } of blind.values()) {
    if (member.childWatches === undefined) { for (const n of nodes) seen.set(n, 'unknown'); continue; }
    nodes.forEach((n, i) => seen.set(n, i < member.childWatches! ? 'unseen' : 'nothing'));
  }
  const count = (kind: Seen) => [...seen.values()].filter((s) => s === kind).length;
  const risk: HerdRisk = {
    lock: queue.path, recipe: queue.recipe, waiters: waiters.length,
    watchingPredecessor: count('predecessor'), unseen: count('unseen'), watchingNothing: count('nothing'),
    watchingOther: count('other'), unknown: count('unknown'), risk: 'none', named: [],
  };
  risk.risk = riskOf(risk.unseen, Math.max(0, ...otherTargets.values()), risk.watchingOther, risk.unknown);
  for (const p of waiters) {
    const s = seen.get(p.path);
    if (!s || s === 'predecessor') continue;
    const waiter: HerdWaiter = { node: p.path, session: p.session! };
    const client = input.clientOf(p.session!);
    if (client !== undefined) waiter.clientAddress = client;
    const server = input.memberOf(p.session!)?.server;
    if (server !== undefined) waiter.server = server;
    risk.named.push({ ...waiter, seen: s });
  }
  risk.named.sort((a, b) => NAMED_ORDER[a.seen] - NAMED_ORDER[b.seen]);
  return risk;
}

const RISK_ORDER: Record<HerdRiskLevel, number> = { herd: 0, possible: 1, unknown: 2, none: 3 };

/** Every queue's risk, the worst first. */
export function herdRisks(input: HerdInput): HerdRisk[] {
  return input.queues.map((q) => herdRisk(q, input))
    .sort((a, b) => RISK_ORDER[a.risk] - RISK_ORDER[b.risk] || b.unseen - a.unseen || (a.lock < b.lock ? -1 : a.lock > b.lock ? 1 : 0));
}
