import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildAnalysis, RawQueue } from '../../src/zk/analysis';
import { findCycles, waitForEdges } from '../../src/zk/analysis/deadlocks';
import type { QueueNode } from '../../src/zk/analysis/queueRules';
import type { ServerTables } from '../../src/zk/servers/serverTables';

const NOW = 1_800_000_000_000;
const seq = (n: number) => String(n).padStart(10, '0');
const kz = (c: string, n: number) => `${c.repeat(32)}__lock__${seq(n)}`;

function node(dir: string, name: string, owner: bigint, ageMs = 60_000): QueueNode {
  return { name, path: `${dir}/${name}`, ctime: NOW - ageMs, owner, data: Buffer.from('id') };
}

function tables(server: string, t: { connections?: [string, string][]; watches?: [string, string[]][]; total?: number; tracked?: string[]; state?: string }): ServerTables {
  const watches = t.watches ? new Map(t.watches) : undefined;
  const data = watches ? [...watches.values()].reduce((n, w) => n + w.length, 0) : undefined;
  return {
    server, via: 'admin', refusedWords: [],
    connections: t.connections ? new Map(t.connections) : undefined,
    watches,
    trackedSessions: t.tracked ? new Map(t.tracked.map((s) => [s, undefined])) : undefined,
    monitor: { server_state: t.state ?? 'standalone', watch_count: String(t.total ?? data ?? 0) },
    dataWatches: data, totalWatches: t.total ?? data,
  };
}

const kinds = (a: { kind: string }[]) => a.map((x) => x.kind).sort();

describe('building the analysis from nodes and server tables', () => {
  test('watch edges are "server" when a member lists them, "inferred" when not; clients come from connections', () => {
    const q: RawQueue = { shape: 'simple', path: '/l', recipe: 'kazoo-lock', family: 'kazoo', nodes: [node('/l', kz('a', 0), 0x11n), node('/l', kz('b', 1), 0x12n), node('/l', kz('c', 2), 0x13n)] };
    const a = buildAnalysis({
      root: '/l', takenAt: NOW, queues: [q], heldTooLongMs: 3_600_000, ourSessions: ['0x99'],
      tables: [
        tables('s1:1', { connections: [['0x11', '10.0.0.1:5000'], ['0x12', '10.0.0.2:5000']], watches: [['0x12', [`/l/${kz('a', 0)}`]]] }),
        tables('s2:2', { connections: [['0x13', '10.0.0.3:5000'], ['0x99', '10.0.0.9:1']], watches: [] }),
      ],
    });
    const [holder, seen, notSeen] = a.queues[0].participants;
    assert.equal(holder.clientAddress, '10.0.0.1:5000');
    assert.deepEqual(seen.watches, [{ path: `/l/${kz('a', 0)}`, source: 'server' }]);
    assert.deepEqual(notSeen.watches, [{ path: `/l/${kz('b', 1)}`, source: 'inferred' }]);
    // The complete tables show waiter 0x13 watching nothing: a stuck waiter.
    assert.deepEqual(kinds(a.queues[0].anomalies), ['stuck-waiter']);
    assert.equal(a.queues[0].anomalies[0].facts.reason, 'watchesNothing');
    const ours = a.sessions.find((s) => s.id === '0x99');
    assert.equal(ours?.ours, true);
    assert.equal(a.sessions.find((s) => s.id === '0x13')?.server, 's2:2');
  });

  test('tables older than a hand-off: no "dead owner" for nodes newer than them, no holder edge to the gone predecessor', () => {
    const dir = '/fresh';
    const gone = `${dir}/${kz('a', 0)}`;
    // The tables were read 5 s ago: before the holder took over and before the newest waiter joined.
    const holder = node(dir, kz('b', 1), 0x21n, 10_000);
    const newcomer = node(dir, kz('c', 2), 0x22n, 1_000);
    const q: RawQueue = { shape: 'simple', path: dir, recipe: 'kazoo-lock', family: 'kazoo', nodes: [holder, newcomer] };
    const old = { ...tables('s:1', { connections: [['0x21', 'c:1']], watches: [['0x21', [gone]]] }), readAt: NOW - 5_000 };
    const a = buildAnalysis({ root: dir, takenAt: NOW, queues: [q], heldTooLongMs: 3_600_000, ourSessions: [], tables: [old] });
    const [h, w] = a.queues[0].participants;
    assert.equal(h.role, 'holder');
    assert.deepEqual(h.watches, [], 'the watch on the gone predecessor fired and is no more');
    assert.equal(w.role, 'waiter');
    assert.deepEqual(a.queues[0].anomalies.filter((x) => x.kind === 'dead-owner'), [], 'the newcomer is not in the tables yet');
    // The same newcomer, when the tables are newer than it and still do not show its session: dead owner.
    const fresh = { ...old, readAt: NOW };
    const b = buildAnalysis({ root: dir, takenAt: NOW, queues: [q], heldTooLongMs: 3_600_000, ourSessions: [], tables: [fresh] });
    assert.deepEqual(b.queues[0].anomalies.filter((x) => x.kind === 'dead-owner').map((x) => x.sessions), [['0x22']]);
  });

  test('anomalies: herd, stuck on a vanished node, persistent node, dead owner, held too long, duplicate GUID', () => {
    const dir = '/h';
    const holder = node(dir, kz('a', 0), 0x1n, 2 * 3_600_000);
    const dup = node(dir, kz('a', 5), 0x1n);
    const persistent = node(dir, kz('b', 1), 0n);
    const w = [2, 3, 4].map((i) => node(dir, kz(String(i), i + 1), BigInt(0x10 + i)));
    const nodes = [holder, persistent, ...w, dup];
    // Created one after the other and none deleted since (parent cversion = 6): the holder holds since its creation.
    nodes.forEach((n, i) => { n.czxid = BigInt(100 + i); });
    const q: RawQueue = { shape: 'simple', path: dir, recipe: 'kazoo-lock', family: 'kazoo', nodes, parent: { cversion: 6, pzxid: 105n } };
    const herdWatch: [string, string[]][] = w.map((n) => [`0x${n.owner.toString(16)}`, [holder.path]]);
    herdWatch.push(['0x1', [`${dir}/${kz('z', 99)}`]]); // the holder's session watches a node that is gone
    const a = buildAnalysis({
      root: dir, takenAt: NOW, queues: [q], heldTooLongMs: 3_600_000, ourSessions: [],
      tables: [tables('s:1', { connections: w.map((n) => [`0x${n.owner.toString(16)}`, 'c:1'] as [string, string]), watches: herdWatch, tracked: ['0x1'] })],
    });
    const anomalies = a.queues[0].anomalies;
    assert.deepEqual(kinds(anomalies), ['dead-owner', 'dead-owner', 'duplicate-guid', 'held-too-long', 'herd', 'persistent-lock-node', 'self-wait', 'stuck-waiter']);
    const herd = anomalies.find((x) => x.kind === 'herd')!;
    assert.equal(herd.facts.watchers, 3);
    assert.deepEqual(herd.paths, [holder.path]);
    const stuck = anomalies.find((x) => x.kind === 'stuck-waiter')!;
    assert.equal(stuck.facts.reason, 'watchesMissingNode');
    assert.deepEqual(stuck.sessions, ['0x1']);
    const dead = anomalies.find((x) => x.kind === 'dead-owner' && x.facts.role === 'holder')!;
    assert.equal(dead.severity, 'error');
    assert.equal(dead.facts.inSessionTracker, 1, 'still tracked by the server: not yet expired');
    assert.equal(anomalies.find((x) => x.kind === 'held-too-long')!.facts.heldMs, 2 * 3_600_000);
    assert.equal(anomalies.find((x) => x.kind === 'duplicate-guid')!.facts.count, 2);
    assert.equal(a.sessions.find((s) => s.id === '0x1')?.alive, false);
  });

  test('no server tables: no server-based anomalies and every waiting edge inferred', () => {
    const q: RawQueue = { shape: 'simple', path: '/n', recipe: 'plain-lock', family: 'plain', nodes: [node('/n', `lock-${seq(0)}`, 1n), node('/n', `lock-${seq(1)}`, 2n)] };
    const a = buildAnalysis({ root: '/n', takenAt: NOW, queues: [q], heldTooLongMs: 3_600_000, ourSessions: [] });
    assert.deepEqual(a.queues[0].anomalies, []);
    assert.deepEqual(a.queues[0].participants[1].watches, [{ path: `/n/lock-${seq(0)}`, source: 'inferred' }]);
    assert.deepEqual(a.servers, []);
  });

  test('naive plain waiters: children watches inferred on the lock, a herd when the servers hold that many child watches', () => {
    const dir = '/naive';
    const nodes = [0, 1, 2, 3].map((i) => node(dir, `lock-${seq(i)}`, BigInt(i + 1)));
    const q: RawQueue = { shape: 'simple', path: dir, recipe: 'plain-lock', family: 'plain', nodes };
    const a = buildAnalysis({
      root: dir, takenAt: NOW, queues: [q], heldTooLongMs: 3_600_000, ourSessions: [],
      tables: [tables('s:1', { connections: nodes.map((n) => [`0x${n.owner.toString(16)}`, 'c:1'] as [string, string]), watches: [], total: 3 })],
    });
    assert.deepEqual(a.queues[0].participants[2].watches, [{ path: dir, source: 'inferred' }]);
    const herd = a.queues[0].anomalies.find((x) => x.kind === 'herd');
    assert.equal(herd?.facts.watchKind, 'children');
    assert.equal(herd?.facts.watchers, 3);
    assert.equal(a.servers[0].childWatches, 3);
    assert.ok(a.anomalies.some((x) => x.kind === 'child-watches-invisible'));
    assert.ok(!a.queues[0].anomalies.some((x) => x.kind === 'stuck-waiter'), 'child watches exist: not stuck');
  });

  test('a fixed leader node: the owner leads, sessions with a watch on it are nodeless contenders', () => {
    const leader = node('/kafka', 'controller', 0x5n);
    leader.path = '/kafka/controller';
    const a = buildAnalysis({
      root: '/kafka/controller', takenAt: NOW, queues: [{ shape: 'fixed', path: '/kafka/controller', node: leader }], heldTooLongMs: 1, ourSessions: ['0x9'],
      tables: [tables('s:1', { connections: [['0x5', 'a:1'], ['0x6', 'b:1'], ['0x7', 'c:1'], ['0x9', 'z:1']], watches: [['0x6', ['/kafka/controller']], ['0x7', ['/kafka/controller']], ['0x9', ['/kafka/controller']]] })],
    });
    const q = a.queues[0];
    assert.equal(q.recipe, 'fixed-leader');
    assert.deepEqual(q.participants.map((p) => [p.session, p.role, !!p.nodeless]), [['0x5', 'leader', false], ['0x6', 'waiter', true], ['0x7', 'waiter', true]]);
    assert.equal(q.participants[1].clientAddress, 'b:1');
    assert.deepEqual(q.anomalies, [], 'leaders are not "held too long"');
  });

  test('a deadlock across two locks names the sessions, their clients and the locks', () => {
    const q1: RawQueue = { shape: 'simple', path: '/A', recipe: 'kazoo-lock', family: 'kazoo', nodes: [node('/A', kz('a', 0), 0x1n), node('/A', kz('b', 1), 0x2n)] };
    const q2: RawQueue = { shape: 'simple', path: '/B', recipe: 'kazoo-lock', family: 'kazoo', nodes: [node('/B', kz('c', 0), 0x2n), node('/B', kz('d', 1), 0x1n)] };
    const a = buildAnalysis({
      root: '/', takenAt: NOW, queues: [q1, q2], heldTooLongMs: 3_600_000, ourSessions: [],
      tables: [tables('s:1', { connections: [['0x1', 'h1:1'], ['0x2', 'h2:2']], watches: [['0x2', [`/A/${kz('a', 0)}`]], ['0x1', [`/B/${kz('c', 0)}`]]] })],
    });
    assert.deepEqual(a.deadlocks, [{ sessions: ['0x1', '0x2'], locks: ['/B', '/A'], clients: ['h1:1', 'h2:2'] }]);
    const anomaly = a.anomalies.find((x) => x.kind === 'deadlock');
    assert.deepEqual(anomaly?.sessions, ['0x1', '0x2']);
    assert.equal(anomaly?.severity, 'error');
  });

  test('cycle enumeration finds every elementary cycle once and ignores waits on oneself', () => {
    const edges = [
      { from: 'a', to: 'b', lock: 'L1' }, { from: 'b', to: 'a', lock: 'L2' },
      { from: 'b', to: 'c', lock: 'L3' }, { from: 'c', to: 'a', lock: 'L4' }, { from: 'd', to: 'a', lock: 'L5' },
    ];
    const cycles = findCycles(edges);
    assert.deepEqual(cycles.map((c) => c.sessions.join('>')).sort(), ['a>b', 'a>b>c']);
    assert.deepEqual(cycles.find((c) => c.sessions.length === 3)?.locks, ['L1', 'L3', 'L4']);
    const self = waitForEdges([{ path: '/x', recipe: 'kazoo-lock', anomalies: [], participants: [
      { path: '/x/1', name: '1', kind: 'exclusive', role: 'holder', position: 0, session: '0x1', since: 0, waitsFor: [], watches: [] },
      { path: '/x/2', name: '2', kind: 'exclusive', role: 'waiter', position: 1, session: '0x1', since: 0, waitsFor: ['/x/1'], watches: [] },
    ] }]);
    assert.deepEqual(self, []);
  });
});
