// Random lock analyses and random changes to them (seeded), for the tests of the webview's delta updates: queues
// coming and going, participants leaving (positions shifting), joining, moving, changing role, data or watches,
// anomalies and deadlocks appearing and going, and the scalar fields changing.
import type { Anomaly, LockAnalysis, LockQueue, Participant } from '../../src/shared/lockAnalysis';
import { fixtureQueue } from './webviewFixtures';

/** mulberry32: a small seeded generator, so a failure can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const int = (r: Random, n: number) => Math.floor(r() * n);
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

let counter = 0;

function newParticipant(r: Random, queue: LockQueue): Participant {
  const n = ++counter;
  const name = `_c_new-${n}-lock-${String(n).padStart(10, '0')}`;
  const target = queue.participants.length ? pick(r, queue.participants).path : undefined;
  return {
    path: `${queue.path}/${name}`, name, sequence: n, kind: pick(r, ['exclusive', 'read', 'write'] as const), role: 'waiter', position: 0,
    session: r() < 0.9 ? `0x${(0x9000 + n).toString(16)}` : undefined, label: r() < 0.5 ? `new <b>${n}</b>` : undefined, since: 1_700_000_000_000 + n,
    waitsFor: target ? [target] : [], watches: target && r() < 0.7 ? [{ path: target, source: pick(r, ['server', 'inferred'] as const) }] : [],
  };
}

function anomalyOn(r: Random, queue: LockQueue): Anomaly {
  const p = queue.participants.length ? pick(r, queue.participants) : undefined;
  return {
    kind: pick(r, ['stuck-waiter', 'herd', 'held-too-long', 'dead-owner'] as const), severity: pick(r, ['info', 'warning', 'error'] as const),
    paths: p ? [p.path] : [queue.path], sessions: p?.session ? [p.session] : [], facts: { n: int(r, 5) },
  };
}

/** Positions as the analysis writes them (queue order), except now and then one that is not its index. */
function renumber(r: Random, queue: LockQueue): void {
  queue.participants.forEach((p, i) => { p.position = i; });
  if (queue.participants.length > 2 && r() < 0.1) pick(r, queue.participants).position += 1 + int(r, 3);
}

const queueChanges: ((r: Random, q: LockQueue) => void)[] = [
  // The holder releases: the first waiter holds, everyone moves up.
  (r, q) => {
    q.participants.shift();
    if (q.participants[0]) q.participants[0] = { ...q.participants[0], role: 'holder', watches: [], waitsFor: [], held: { since: 1_700_000_100_000, exact: r() < 0.5 } };
    renumber(r, q);
  },
  (r, q) => { if (q.participants.length) q.participants.splice(int(r, q.participants.length), 1); renumber(r, q); },
  (r, q) => { q.participants.splice(int(r, q.participants.length + 1), 0, newParticipant(r, q)); renumber(r, q); },
  (r, q) => { q.participants.push(newParticipant(r, q), newParticipant(r, q)); renumber(r, q); },
  (r, q) => { if (q.participants.length) pick(r, q.participants).label = `changed ${int(r, 1000)}`; },
  (r, q) => { if (q.participants.length) delete pick(r, q.participants).label; },
  (r, q) => { if (q.participants.length) pick(r, q.participants).clientAddress = `10.1.1.${int(r, 255)}:1`; },
  (r, q) => {
    const p = q.participants.length ? pick(r, q.participants) : undefined;
    if (p?.watches[0]) p.watches[0].source = p.watches[0].source === 'server' ? 'inferred' : 'server';
  },
  (r, q) => { if (q.participants.length) pick(r, q.participants).ours = r() < 0.5 ? true : undefined; },
  (r, q) => {
    // Two participants swap places (a re-sort).
    if (q.participants.length < 2) return;
    const a = int(r, q.participants.length);
    const b = int(r, q.participants.length);
    [q.participants[a], q.participants[b]] = [q.participants[b], q.participants[a]];
    renumber(r, q);
  },
  (r, q) => { q.anomalies.push(anomalyOn(r, q)); },
  (r, q) => { if (q.anomalies.length) q.anomalies.splice(int(r, q.anomalies.length), 1); },
  (r, q) => { if (q.anomalies.length) pick(r, q.anomalies).facts = { heldMs: int(r, 1e6) }; },
  (r, q) => { if (r() < 0.5) q.leases = 1 + int(r, 4); else delete q.leases; },
  (r, q) => { q.recipe = pick(r, ['curator-mutex', 'kazoo-lock', 'unknown'] as const); },
  (_r, q) => { q.participants = []; },
  (r, q) => {
    // A contender that owns no node (a fixed leader's): its path is the node it watches, so paths repeat.
    if (!q.participants.length) return;
    const watched = pick(r, q.participants);
    const contender: Participant = { ...clone(watched), session: `0x${(0xc000 + ++counter).toString(16)}`, role: 'waiter', nodeless: true, since: 0 };
    delete contender.held;
    q.participants.splice(int(r, q.participants.length + 1), 0, contender);
    renumber(r, q);
  },
];

const analysisChanges: ((r: Random, a: LockAnalysis) => void)[] = [
  (r, a) => { a.takenAt += 1000 + int(r, 5000); },
  (r, a) => { if (r() < 0.5) a.truncated = true; else delete a.truncated; },
  (r, a) => { a.servers = [{ server: '127.0.0.1:2181', via: pick(r, ['admin', 'fourLetterWords', 'none'] as const), dataWatches: int(r, 100), reason: r() < 0.3 ? 'off' : undefined }]; },
  (r, a) => { a.queues.push(fixtureQueue(int(r, 8), { root: `/locks/q${++counter}` })); },
  (r, a) => { if (a.queues.length) a.queues.splice(int(r, a.queues.length), 1); },
  (_r, a) => { if (a.queues.length > 1) a.queues.reverse(); },
  (r, a) => { a.anomalies.push({ kind: 'unreadable', severity: 'warning', paths: [`/locks/secret${int(r, 3)}`], sessions: [], facts: { n: int(r, 4) } }); },
  (r, a) => { if (a.anomalies.length) a.anomalies.splice(int(r, a.anomalies.length), 1); },
  (_r, a) => {
    // A deadlock between a waiter of some queue and another session, or none any more.
    const waiter = a.queues.flatMap((q) => q.participants.filter((p) => p.role === 'waiter' && p.session).map((p) => ({ q, p })))[0];
    if (waiter && a.deadlocks.length === 0) {
      a.deadlocks = [{ sessions: [waiter.p.session!, '0xdead'], locks: [waiter.q.path, '/locks/other'], clients: [null, '10.9.9.9:1'] }];
      a.anomalies.push({ kind: 'deadlock', severity: 'error', paths: [waiter.q.path], sessions: [waiter.p.session!, '0xdead'], facts: { length: 2 } });
    } else {
      a.deadlocks = [];
      a.anomalies = a.anomalies.filter((x) => x.kind !== 'deadlock');
    }
  },
  (r, a) => { a.sessions = a.queues.flatMap((q) => q.participants).filter((p) => p.session && r() < 0.8).map((p) => ({ id: p.session!, ephemerals: [p.path], watches: [] })); },
];

/** A first analysis: one to three queues of up to 30 participants. */
export function randomAnalysis(r: Random): LockAnalysis {
  const queues = Array.from({ length: 1 + int(r, 3) }, (_, i) => fixtureQueue(int(r, 30), { root: `/locks/start${i}` }));
  return { root: '/locks', takenAt: 1_700_000_000_000, queues, sessions: [], deadlocks: [], anomalies: [], servers: [] };
}

/** A new analysis object (the previous one is left as it was, as the monitor's are) with one to four changes. */
export function randomChange(r: Random, previous: LockAnalysis): LockAnalysis {
  const next = clone(previous);
  for (let n = 1 + int(r, 4); n > 0; n--) {
    if (next.queues.length && r() < 0.75) pick(r, queueChanges)(r, pick(r, next.queues));
    else pick(r, analysisChanges)(r, next);
  }
  return next;
}
