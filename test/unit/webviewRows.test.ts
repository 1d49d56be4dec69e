// The lock-queue front-end's pure parts: model → rows (order, roles, edges, anomalies, deadlocks), keyed diffing
// of updates, the virtualization window, and duration text.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { anomalyKey } from '../../src/shared/lockAnalysis';
import { formatDuration, fmt } from '../../src/webview/lockQueue/format';
import { ROW_HEIGHTS, scrollToReveal, visibleWindow } from '../../src/webview/lockQueue/layout';
import { buildRows, RowModel } from '../../src/webview/lockQueue/rowModel';
import { ParticipantRow, planPatch as planPatchOf, Row } from '../../src/webview/lockQueue/rows';
import { fixtureAnalysis } from '../support/fixtures/webviewFixtures';

const planPatch = (rendered: ReadonlyMap<string, string>, rows: Row[], start: number, end: number) => planPatchOf(rendered, { row: (i) => rows[i] }, start, end);
const participants = (rows: Row[]) => rows.filter((r): r is ParticipantRow => r.kind === 'participant');

test('a queue becomes a header, its anomaly rows, then holder first and waiters in order', () => {
  const rows = buildRows(fixtureAnalysis(5));
  assert.deepEqual(rows.map((r) => r.kind), ['queue', 'anomaly', 'participant', 'participant', 'participant', 'participant', 'participant']);
  const people = participants(rows);
  assert.deepEqual(people.map((p) => p.participant.role), ['holder', 'waiter', 'waiter', 'waiter', 'waiter']);
  assert.deepEqual(people.map((p) => p.participant.position), [0, 1, 2, 3, 4]);
  const header = rows[0];
  assert.ok(header.kind === 'queue');
  assert.equal(header.holders, 1);
  assert.equal(header.waiters, 4);
});

test('each waiter points at what it watches, server-seen and inferred kept apart, with the target position', () => {
  const people = participants(buildRows(fixtureAnalysis(4)));
  assert.deepEqual(people[0].edges, []);
  assert.equal(people[0].watchesRowAbove, undefined);
  assert.deepEqual(people[1].edges.map((e) => [e.position, e.source]), [[0, 'server']]);
  assert.deepEqual(people[2].edges.map((e) => [e.position, e.source]), [[1, 'inferred']]);
  assert.equal(people[1].watchesRowAbove, 'server');
  assert.equal(people[2].watchesRowAbove, 'inferred');
});

test('a recipe wait no watch confirms is shown as a dotted "waits for", not as a watch', () => {
  const analysis = fixtureAnalysis(3);
  const waiter = analysis.queues[0].participants[2];
  waiter.watches = [];
  const row = participants(buildRows(analysis))[2];
  assert.equal(row.edges.length, 1);
  assert.equal(row.edges[0].waitOnly, true);
  assert.equal(row.edges[0].source, 'inferred');
  assert.equal(row.watchesRowAbove, undefined);
});

test('an edge to a node outside the queue names its path', () => {
  const analysis = fixtureAnalysis(2);
  analysis.queues[0].participants[1].watches = [{ path: '/elsewhere/x', source: 'server' }];
  analysis.queues[0].participants[1].waitsFor = [];
  const row = participants(buildRows(analysis))[1];
  assert.deepEqual(row.edges, [{ path: '/elsewhere/x', name: '/elsewhere/x', source: 'server', position: undefined, waitOnly: undefined }]);
});

test('anomalies: a row with the explanation key under the header, and a badge on the participant it is about', () => {
  const analysis = fixtureAnalysis(3);
  const rows = buildRows(analysis);
  const key = anomalyKey(analysis.queues[0].anomalies[0]);
  const anomalyRow = rows.find((r) => r.kind === 'anomaly');
  assert.ok(anomalyRow?.kind === 'anomaly');
  assert.equal(anomalyRow.anomalyKey, key);
  const people = participants(rows);
  assert.deepEqual(people[0].anomalies.map((a) => a.key), [key]);
  assert.deepEqual(people[1].anomalies, []);
});

test('deadlock cycles come first and mark the waiting sessions of the cycle', () => {
  const analysis = fixtureAnalysis(3);
  const [, w1] = analysis.queues[0].participants;
  analysis.deadlocks = [{ sessions: [w1.session!, '0xdead'], locks: [analysis.queues[0].path, '/locks/other'] }];
  analysis.anomalies = [{ kind: 'deadlock', severity: 'error', paths: [], sessions: [w1.session!, '0xdead'], facts: {} }];
  const rows = buildRows(analysis);
  assert.equal(rows[0].kind, 'deadlock');
  assert.equal(rows.filter((r) => r.kind === 'anomaly' && r.anomaly.kind === 'deadlock').length, 0, 'the deadlock is not listed twice');
  const header = rows.find((r) => r.kind === 'queue');
  assert.ok(header?.kind === 'queue' && header.deadlocked);
  assert.deepEqual(participants(rows).map((p) => p.deadlocked), [false, true, false]);
});

test('no queues and empty queues get a note row', () => {
  const none = fixtureAnalysis(0);
  none.queues = [];
  assert.deepEqual(buildRows(none).map((r) => r.kind), ['note']);
  assert.deepEqual(buildRows(fixtureAnalysis(0)).map((r) => r.kind), ['queue', 'note']);
});

const rendered = (rows: Row[], start: number, end: number) => new Map(rows.slice(start, end).map((r) => [r.key, r.sig] as const));

test('patching: an unchanged model keeps every row on screen; one changed label re-renders that row only', () => {
  const before = buildRows(fixtureAnalysis(1000));
  const same = planPatch(rendered(before, 0, 30), buildRows(fixtureAnalysis(1000)), 0, 30);
  assert.deepEqual([same.create, same.update, same.remove, same.keep.length], [[], [], [], 30]);
  const after = buildRows(fixtureAnalysis(1000, { changed: [5] }));
  const plan = planPatch(rendered(before, 0, 30), after, 0, 30);
  assert.deepEqual(plan.update.map((i) => after[i].key), [`p:/locks/orders/${participants(after)[5].participant.name}`]);
  assert.equal(plan.keep.length, 29);
  const offScreen = planPatch(rendered(before, 0, 30), buildRows(fixtureAnalysis(1000, { changed: [500] })), 0, 30);
  assert.deepEqual(offScreen.update, [], 'a change off screen costs no DOM work');
});

test('patching: the holder leaving drops its row and re-renders the rows whose role or position changed', () => {
  const analysis = fixtureAnalysis(6);
  const before = buildRows(analysis);
  const next = fixtureAnalysis(6);
  const q = next.queues[0];
  const [gone, first] = q.participants;
  q.participants = q.participants.slice(1).map((p, i) => ({ ...p, position: i }));
  q.participants[0] = { ...q.participants[0], role: 'holder', watches: [], waitsFor: [] };
  q.anomalies = [];
  const after = buildRows(next);
  const plan = planPatch(rendered(before, 0, before.length), after, 0, after.length);
  assert.deepEqual(plan.remove.sort(), [`a:${analysis.queues[0].path}\u0001${anomalyKey(analysis.queues[0].anomalies[0])}`, `p:${gone.path}`].sort());
  const updated = plan.update.map((i) => after[i].key);
  assert.ok(updated.includes(`p:${first.path}`));
  assert.ok(updated.includes('q:/locks/orders'));
  assert.deepEqual(plan.create, []);
});

test('patching: scrolling creates the rows that come into view and removes those that leave', () => {
  const rows = buildRows(fixtureAnalysis(100));
  const plan = planPatch(rendered(rows, 0, 20), rows, 10, 30);
  assert.deepEqual(plan.create, Array.from({ length: 10 }, (_, i) => 20 + i));
  assert.equal(plan.remove.length, 10);
  assert.equal(plan.keep.length, 10);
});

test('signatures change with what a participant row shows, and only then', () => {
  const sig = (a: ReturnType<typeof fixtureAnalysis>, i = 1) => participants(buildRows(a))[i].sig;
  const base = fixtureAnalysis(3);
  assert.equal(sig(base), sig(fixtureAnalysis(3)));
  const watched = fixtureAnalysis(3);
  watched.queues[0].participants[1].watches[0].source = 'inferred';
  assert.notEqual(sig(watched), sig(base));
  const client = fixtureAnalysis(3);
  client.queues[0].participants[1].clientAddress = '1.2.3.4:5';
  assert.notEqual(sig(client), sig(base));
  const flagged = fixtureAnalysis(3);
  flagged.queues[0].anomalies.push({ kind: 'stuck-waiter', severity: 'error', paths: [flagged.queues[0].participants[1].path], sessions: [], facts: {} });
  assert.notEqual(sig(flagged), sig(base));
  assert.equal(sig(flagged, 2), sig(base, 2));
});

test('rows are keyed by path: the same participant keeps its key when others come and go', () => {
  const a = participants(buildRows(fixtureAnalysis(3)));
  const b = participants(buildRows(fixtureAnalysis(5)));
  assert.deepEqual(a.map((r) => r.key), b.slice(0, 3).map((r) => r.key));
});

test('offsets add up the row heights', () => {
  const rows = RowModel.build(fixtureAnalysis(3));
  assert.equal(rows.offsetOf(0), 0);
  assert.equal(rows.offsetOf(1), ROW_HEIGHTS.queue);
  assert.equal(rows.offsetOf(rows.length), ROW_HEIGHTS.queue + ROW_HEIGHTS.anomaly + 3 * ROW_HEIGHTS.participant);
  assert.equal(rows.indexAt(0), 0);
  assert.equal(rows.indexAt(ROW_HEIGHTS.queue - 0.5), 0);
  assert.equal(rows.indexAt(ROW_HEIGHTS.queue), 1);
  assert.equal(rows.indexAt(1e9), rows.length - 1);
  assert.equal(rows.indexAt(-5), 0);
});

test('the window of 10,000 rows holds only what is on screen plus the margin, wherever it is scrolled', () => {
  const rows = RowModel.build(fixtureAnalysis(10000));
  const top = visibleWindow(rows, 0, 600, 200);
  assert.equal(top.start, 0);
  assert.ok(top.end - top.start <= Math.ceil(800 / ROW_HEIGHTS.participant) + 2, `${top.end - top.start} rows`);
  const middle = visibleWindow(rows, 46 * 5000, 600, 200);
  assert.ok(middle.start > 4900 && middle.end < 5100, JSON.stringify(middle));
  assert.ok(middle.end - middle.start <= Math.ceil(1000 / ROW_HEIGHTS.participant) + 2);
  const bottom = visibleWindow(rows, rows.offsetOf(rows.length) - 600, 600, 200);
  assert.equal(bottom.end, rows.length);
  const none = fixtureAnalysis(0);
  none.queues = [];
  none.anomalies = [];
  assert.equal(RowModel.build(none).length, 1, 'the "no queues" note');
});

test('scrollToReveal scrolls only when the row is outside the viewport', () => {
  const rows = RowModel.build(fixtureAnalysis(100));
  assert.equal(scrollToReveal(rows, 3, 0, 600), undefined);
  assert.equal(scrollToReveal(rows, 50, 0, 600), rows.offsetOf(51) - 600);
  assert.equal(scrollToReveal(rows, 2, 1000, 600), rows.offsetOf(2));
});

test('durations: the two largest units, in the given words, never negative', () => {
  const units = { 'unit.d': '{0}d', 'unit.h': '{0}h', 'unit.m': '{0}m', 'unit.s': '{0}s' };
  assert.equal(formatDuration(-5000, units), '0s');
  assert.equal(formatDuration(42_500, units), '42s');
  assert.equal(formatDuration(12 * 60_000 + 5000, units), '12m 5s');
  assert.equal(formatDuration(3 * 3_600_000 + 12 * 60_000 + 9000, units), '3h 12m');
  assert.equal(formatDuration(2 * 86_400_000 + 3 * 3_600_000, units), '2d 3h');
  assert.equal(formatDuration(65_000, { 'unit.d': '{0}天', 'unit.h': '{0}小时', 'unit.m': '{0}分', 'unit.s': '{0}秒' }), '1分 5秒');
  assert.equal(fmt('{0} waits for {1} on {2}', 'a', 'b'), 'a waits for b on {2}');
});
