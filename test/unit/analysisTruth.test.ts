// The pure parts of issue 10 ("the analysis tells the truth"): chroot mapping of the servers' paths, cycles through
// one queue, mixed libraries, unreadable paths, and hold times (from creation, seen taken over, or a lower bound),
// down to the panel's time text. The same cases against a real server: test/integration/analysisTruth.test.ts.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { STRING_KEYS, WebviewStrings } from '../../src/shared/lockQueueMessages';
import { buildAnalysis, RawQueue } from '../../src/zk/analysis';
import { HoldHistory, holdingSinceCreation } from '../../src/zk/analysis/holdTimes';
import type { Participant } from '../../src/shared/lockAnalysis';
import type { QueueNode } from '../../src/zk/analysis/queueRules';
import { mergeServerTables, pathInChroot } from '../../src/zk/analysis/serverView';
import type { ServerTables } from '../../src/zk/servers/serverTables';
import { participantTime } from '../../src/webview/lockQueue/format';

const NOW = 1_800_000_000_000;
const seq = (n: number) => String(n).padStart(10, '0');
const kz = (c: string, n: number) => `${c.repeat(32)}__lock__${seq(n)}`;
const cu = (c: string, n: number) => `_c_${c.repeat(8)}-${c.repeat(4)}-${c.repeat(4)}-${c.repeat(4)}-${c.repeat(12)}-lock-${seq(n)}`;

function node(dir: string, name: string, owner: bigint, czxid?: number, ageMs = 60_000): QueueNode {
  return { name, path: `${dir}/${name}`, ctime: NOW - ageMs, owner, data: Buffer.from('id'), czxid: czxid === undefined ? undefined : BigInt(czxid) };
}

function tables(watches: [string, string[]][], connections: [string, string][] = []): ServerTables {
  const map = new Map(watches);
  const data = [...map.values()].reduce((n, w) => n + w.length, 0);
  return {
    server: 's:1', via: 'admin', refusedWords: [], connections: new Map(connections), watches: map, ephemerals: new Map([['0x1', ['/app/l/x', '/other']]]),
    monitor: { server_state: 'standalone', watch_count: String(data) }, dataWatches: data, totalWatches: data,
  };
}

const build = (queues: RawQueue[], extra: Partial<Parameters<typeof buildAnalysis>[0]> = {}) =>
  buildAnalysis({ root: '/', takenAt: NOW, queues, heldTooLongMs: 3_600_000, ourSessions: [], ...extra });

describe('issue 10: the analysis tells the truth (pure parts)', () => {
  test('chroot: server paths map into it, others are dropped', () => {
    assert.equal(pathInChroot('/app/l/x', '/app'), '/l/x');
    assert.equal(pathInChroot('/app', '/app'), '/');
    assert.equal(pathInChroot('/application/x', '/app'), undefined);
    assert.equal(pathInChroot('/other', '/app'), undefined);
    assert.equal(pathInChroot('/other', undefined), '/other');
    const view = mergeServerTables([tables([['0x2', ['/app/l/x', '/elsewhere', '/l/x']]])], '/app');
    assert.deepEqual([...view.watchesBySession.get('0x2')!], ['/l/x']);
    assert.deepEqual(view.ephemerals.get('0x1'), ['/l/x']);
  });

  test('A B A B in one queue: no deadlock, each session "waits behind itself" (info); a cycle across two queues stays a deadlock', () => {
    const q: RawQueue = { shape: 'simple', path: '/t', recipe: 'kazoo-lock', family: 'kazoo', nodes: [
      node('/t', kz('a', 0), 0xan), node('/t', kz('b', 1), 0xbn), node('/t', kz('c', 2), 0xan), node('/t', kz('d', 3), 0xbn),
    ] };
    const a = build([q]);
    assert.deepEqual(a.deadlocks, []);
    assert.deepEqual(a.queues[0].anomalies.filter((x) => x.kind === 'self-wait').map((x) => [x.severity, x.sessions, x.facts.nodes]),
      [['info', ['0xa'], 2], ['info', ['0xb'], 2]]);
    const x: RawQueue = { shape: 'simple', path: '/x', recipe: 'kazoo-lock', family: 'kazoo', nodes: [node('/x', kz('a', 0), 0xan), node('/x', kz('b', 1), 0xbn)] };
    const y: RawQueue = { shape: 'simple', path: '/y', recipe: 'kazoo-lock', family: 'kazoo', nodes: [node('/y', kz('b', 0), 0xbn), node('/y', kz('a', 1), 0xan)] };
    const d = build([x, y, q]);
    assert.deepEqual(d.deadlocks.map((c) => [c.sessions, [...c.locks].sort()]), [[['0xa', '0xb'], ['/x', '/y']]]);
    // Listed first, the A B A B queue adds only "B waits for A's holder", true there too: still one deadlock.
    assert.deepEqual(build([q, x, y]).deadlocks.map((c) => c.sessions), [['0xa', '0xb']]);
  });

  test('mixed libraries in one queue: an error naming them; one library alone is not', () => {
    const mixed: RawQueue = { shape: 'simple', path: '/m', recipe: 'kazoo-lock', family: 'kazoo', nodes: [
      node('/m', cu('a', 0), 1n), node('/m', kz('b', 1), 2n), node('/m', kz('c', 2), 3n),
    ] };
    const [anomaly] = build([mixed]).queues[0].anomalies.filter((x) => x.kind === 'mixed-recipes');
    assert.equal(anomaly.severity, 'error');
    assert.deepEqual(anomaly.paths, ['/m', `/m/${cu('a', 0)}`]);
    assert.deepEqual(anomaly.facts, { libraries: 'curator, kazoo', family: 'kazoo', foreign: 1 });
    const pure: RawQueue = { ...mixed, nodes: mixed.nodes.slice(1) } as RawQueue;
    assert.deepEqual(build([pure]).queues[0].anomalies.filter((x) => x.kind === 'mixed-recipes'), []);
  });

  test('unreadable paths: listed once each in the model and as one warning', () => {
    const q: RawQueue = { shape: 'simple', path: '/s', recipe: 'kazoo-lock', family: 'kazoo', nodes: [node('/s', kz('a', 0), 1n)],
      unreadable: [{ path: '/s/' + kz('a', 0), reason: 'noAuth', what: 'data' }] };
    const a = build([q], { unreadable: [{ path: '/private', reason: 'noAuth', what: 'children' }] });
    assert.deepEqual(a.unreadable?.map((u) => u.path), ['/private', '/s/' + kz('a', 0)]);
    assert.deepEqual(a.anomalies.filter((x) => x.kind === 'unreadable').map((x) => [x.severity, x.facts.count]), [['warning', 2]]);
    assert.equal(build([]).unreadable, undefined);
  });

  test('held from creation: only when the parent\'s cversion and pzxid prove no child was deleted since', () => {
    const nodes = [node('/h', kz('a', 0), 1n, 100), node('/h', kz('b', 1), 2n, 101)];
    const raw = (cversion: number, pzxid: number, list = nodes): RawQueue =>
      ({ shape: 'simple', path: '/h', recipe: 'kazoo-lock', family: 'kazoo', nodes: list, parent: { cversion, pzxid: BigInt(pzxid) } });
    assert.deepEqual([...holdingSinceCreation(raw(2, 101))], nodes.map((n) => n.path));
    // A third node came and went: neither can be proven to hold since creation.
    assert.deepEqual([...holdingSinceCreation(raw(4, 103))], []);
    // The holder's predecessor left before the waiter came: the holder took over; the waiter's creation is the last change.
    const afterHandOver = [node('/h', kz('b', 1), 2n, 101), node('/h', kz('c', 3), 3n, 103)];
    assert.deepEqual([...holdingSinceCreation(raw(4, 103, afterHandOver))], [afterHandOver[1].path]);
    // No parent counters (or no czxid): nothing is inferred.
    assert.deepEqual([...holdingSinceCreation({ shape: 'simple', path: '/h', recipe: 'kazoo-lock', family: 'kazoo', nodes })], []);
    const a = build([raw(2, 101)], { heldTooLongMs: 1000 });
    assert.deepEqual(a.queues[0].participants[0].held, { since: NOW - 60_000, exact: true });
    assert.deepEqual(a.queues[0].anomalies.map((x) => [x.kind, x.facts.atLeast]), [['held-too-long', 0]]);
    const b = build([raw(4, 103)], { heldTooLongMs: 1000 });
    assert.deepEqual(b.queues[0].participants[0].held, { since: NOW, exact: false });
    assert.deepEqual(b.queues[0].anomalies, []);
  });

  test('a monitor\'s history: a take-over it sees is exact, a holder it finds keeps its first-seen lower bound', () => {
    const holds = new HoldHistory();
    const q = (list: QueueNode[]): RawQueue => ({ shape: 'simple', path: '/h', recipe: 'kazoo-lock', family: 'kazoo', nodes: list });
    const [x, y] = [node('/h', kz('a', 0), 1n), node('/h', kz('b', 1), 2n)];
    const first = build([q([x, y])], { holds, takenAt: NOW });
    assert.deepEqual(first.queues[0].participants[0].held, { since: NOW, exact: false });
    const later = build([q([x, y])], { holds, takenAt: NOW + 5000, heldTooLongMs: 4000 });
    assert.deepEqual(later.queues[0].participants[0].held, { since: NOW, exact: false });
    assert.deepEqual(later.queues[0].anomalies.map((a) => [a.kind, a.facts.atLeast, a.facts.heldMs]), [['held-too-long', 1, 5000]]);
    const handedOver = build([q([y])], { holds, takenAt: NOW + 6000 });
    assert.deepEqual(handedOver.queues[0].participants[0].held, { since: NOW + 6000, exact: true });
  });

  test('the panel\'s time: a holder from its hold start, "≥" for a lower bound, never from ctime', () => {
    const s = Object.fromEntries(STRING_KEYS.map((k) => [k, k])) as WebviewStrings;
    Object.assign(s, { heldFor: 'held {0}', heldAtLeast: 'held ≥ {0}', waitingFor: 'waiting {0}', leadingFor: 'leading {0}', leadingAtLeast: 'leading ≥ {0}',
      'unit.d': '{0}d', 'unit.h': '{0}h', 'unit.m': '{0}m', 'unit.s': '{0}s' });
    const p = (role: Participant['role'], held?: Participant['held']): Participant =>
      ({ path: '/l/n', name: 'n', kind: 'exclusive', role, position: 0, since: NOW - 200_000, waitsFor: [], watches: [], held });
    assert.equal(participantTime(p('waiter'), s, NOW), 'waiting 3m 20s');
    assert.equal(participantTime(p('holder', { since: NOW - 1000, exact: true }), s, NOW), 'held 1s');
    assert.equal(participantTime(p('holder', { since: NOW - 5000, exact: false }), s, NOW), 'held ≥ 5s');
    assert.equal(participantTime(p('leader', { since: NOW - 200_000, exact: true }), s, NOW), 'leading 3m 20s');
    assert.equal(participantTime(p('holder'), s, NOW), 'held ≥ 0s');
  });
});
