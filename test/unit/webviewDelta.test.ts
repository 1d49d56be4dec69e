// The lock-queue webview's updates by delta: after any sequence of model changes, the model the webview holds and
// the rows it shows are exactly those of a full render of the latest model (a seeded property test); deltas stay
// small for the changes a live queue sees (one waiter changed, the holder released); gaps are noticed.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { AnomalyText } from '../../src/shared/lockQueueMessages';
import { applyAnalysisDelta, diffAnalysis, PARTICIPANT_FIELDS, WATCH_FIELDS } from '../../src/shared/lockQueueDelta';
import { DeltaMessage, ModelMessage, ModelReceiver, ModelSender } from '../../src/shared/lockQueueSync';
import { anomalyKey, type LockAnalysis } from '../../src/shared/lockAnalysis';
import { RowModel } from '../../src/webview/lockQueue/rowModel';
import type { Row } from '../../src/webview/lockQueue/rows';
import { randomAnalysis, randomChange, seeded } from '../support/fixtures/webviewDeltaModels';
import { fixtureAnalysis } from '../support/fixtures/webviewFixtures';

/** As the host words them: enough that a changed fact changes the text. */
function texts(a: LockAnalysis): Record<string, AnomalyText> {
  const out: Record<string, AnomalyText> = {};
  for (const x of [...a.anomalies, ...a.queues.flatMap((q) => q.anomalies)]) out[anomalyKey(x)] = { title: x.kind, explanation: JSON.stringify(x.facts) };
  return out;
}

/** Through JSON, as VS Code carries a webview message. */
const carried = <T>(message: T): T => JSON.parse(JSON.stringify(message)) as T;

/** Everything a row shows or is keyed by. */
function describeRow(row: Row): unknown {
  switch (row.kind) {
    case 'participant':
      return {
        key: row.key, sig: row.sig, participant: row.participant, edges: row.edges, anomalies: row.anomalies,
        deadlocked: row.deadlocked, above: row.watchesRowAbove, queue: row.queuePath,
      };
    case 'queue': return { key: row.key, sig: row.sig, queue: row.queue, holders: row.holders, waiters: row.waiters, deadlocked: row.deadlocked };
    default: return row;
  }
}

function assertSameRows(actual: RowModel, expected: RowModel, step: string): void {
  assert.equal(actual.length, expected.length, `${step}: row count`);
  for (let i = 0; i < expected.length; i++) {
    assert.deepEqual(describeRow(actual.row(i)), describeRow(expected.row(i)), `${step}: row ${i}`);
    assert.equal(actual.offsetOf(i), expected.offsetOf(i), `${step}: top of row ${i}`);
    assert.equal(actual.indexOfKey(expected.row(i).key), expected.indexOfKey(expected.row(i).key), `${step}: index of row ${i}`);
  }
  assert.equal(actual.offsetOf(actual.length), expected.offsetOf(expected.length), `${step}: height`);
  for (let y = -10; y < expected.offsetOf(expected.length) + 50; y += 17) assert.equal(actual.indexAt(y), expected.indexAt(y), `${step}: row at ${y}`);
}

test('after any sequence of deltas, the webview holds the latest model and shows exactly the rows of a full render', () => {
  const r = seeded(20261124);
  let deltas = 0;
  for (let sequence = 0; sequence < 40; sequence++) {
    const sender = new ModelSender();
    const receiver = new ModelReceiver();
    let latest = randomAnalysis(r);
    let rows: RowModel | undefined;
    for (let step = 0; step < 25; step++) {
      if (step > 0) latest = randomChange(r, latest);
      const message = carried(sender.next(latest, texts(latest)));
      if (message.type === 'delta') deltas++;
      const received = receiver.receive(message);
      assert.ok(received.applied, `sequence ${sequence} step ${step}: applied`);
      rows = RowModel.build(received.analysis, rows);
      const label = `sequence ${sequence} step ${step}`;
      const full = carried(latest);
      assert.deepEqual(receiver.analysis, full, `${label}: the model`);
      assert.deepEqual(receiver.anomalyTexts, texts(full), `${label}: the anomaly texts`);
      // Compared after the rows were looked at (their signatures and edges are computed once, then kept).
      assertSameRows(rows, RowModel.build(full), label);
    }
  }
  assert.ok(deltas > 500, `${deltas} updates went as deltas`);
});

test('one waiter changed, or the holder released, in 10,000: the delta carries one or two participants, no positions', () => {
  const base = fixtureAnalysis(10000);
  const changed = fixtureAnalysis(10000, { changed: [5], labelSuffix: ' (changed)' });
  const one = diffAnalysis(base, changed);
  assert.ok(one);
  assert.ok(JSON.stringify(one).length < 1000, JSON.stringify(one).slice(0, 200));
  const released = fixtureAnalysis(10000);
  const q = released.queues[0];
  q.participants = q.participants.slice(1).map((p, i) => ({ ...p, position: i }));
  q.participants[0] = { ...q.participants[0], role: 'holder', watches: [], waitsFor: [] };
  q.anomalies = [];
  const shift = diffAnalysis(base, released);
  assert.ok(shift);
  assert.ok(JSON.stringify(shift).length < 1000, JSON.stringify(shift).slice(0, 200));
  const applied = applyAnalysisDelta(carried(base), carried(shift));
  assert.deepEqual(applied.queues[0].participants.map((p) => p.position), released.queues[0].participants.map((p) => p.position));
  assert.deepEqual(carried(applied), carried(released));
});

test('the whole model goes when a delta would not be smaller, first, and after forget()', () => {
  const sender = new ModelSender();
  const a = fixtureAnalysis(50);
  assert.equal(sender.next(a, {}).type, 'model', 'first');
  assert.equal(sender.next(fixtureAnalysis(50, { changed: [1] }), {}).type, 'delta');
  const most = fixtureAnalysis(50, { changed: Array.from({ length: 40 }, (_, i) => i) });
  assert.equal(sender.next(most, {}).type, 'model', 'most participants changed');
  sender.forget();
  assert.equal(sender.next(most, {}).type, 'model', 'after forget');
});

test('a delta that does not follow what the webview holds is not applied; it asks once for the whole model', () => {
  const sender = new ModelSender();
  const receiver = new ModelReceiver();
  const a = fixtureAnalysis(5);
  assert.ok(receiver.receive(carried(sender.next(a, {}) as ModelMessage)).applied);
  sender.next(fixtureAnalysis(5, { changed: [1] }), {}); // lost on the way
  const third = carried(sender.next(fixtureAnalysis(5, { changed: [2] }), {}) as DeltaMessage);
  assert.equal(third.type, 'delta');
  assert.deepEqual(receiver.receive(third), { applied: false, askResync: true });
  assert.deepEqual(receiver.receive(carried(sender.next(fixtureAnalysis(5, { changed: [3] }), {}))), { applied: false, askResync: false });
  assert.deepEqual(receiver.analysis, carried(a), 'still the model it had');
  sender.forget();
  const whole = fixtureAnalysis(5, { changed: [3] });
  const model = carried(sender.next(whole, {}));
  assert.equal(model.type, 'model');
  assert.ok(receiver.receive(model).applied);
  assert.deepEqual(receiver.analysis, carried(whole));
  assert.ok(receiver.receive(carried(sender.next(fixtureAnalysis(5), {}))).applied, 'deltas apply again');
});

test('an unchanged queue keeps its rows across a delta; a changed one gets new ones', () => {
  const a: LockAnalysis = { ...fixtureAnalysis(3), queues: [fixtureAnalysis(3).queues[0], fixtureAnalysis(4, { root: '/locks/b' }).queues[0]] };
  const b = carried(a);
  b.queues[1].participants[2].label = 'other';
  const sender = new ModelSender();
  const receiver = new ModelReceiver();
  const first = receiver.receive(carried(sender.next(a, {})));
  assert.ok(first.applied);
  const before = RowModel.build(first.analysis);
  const kept = before.row(2);
  const changedBefore = before.row(before.indexOfKey(`p:${a.queues[1].participants[2].path}`)!);
  const second = receiver.receive(carried(sender.next(b, {})));
  assert.ok(second.applied);
  const after = RowModel.build(second.analysis, before);
  assert.equal(after.row(2), kept, 'the same row object');
  const changedAfter = after.row(after.indexOfKey(`p:${a.queues[1].participants[2].path}`)!);
  assert.notEqual(changedAfter, changedBefore);
  assert.notEqual(changedAfter.sig, changedBefore.sig);
});

test('a change to any field of a participant or of its watches is sent (positions only when not derived)', () => {
  const values: Record<keyof typeof PARTICIPANT_FIELDS, unknown> = {
    path: '/locks/orders/other', name: 'other', sequence: 99, kind: 'read', role: 'leader', position: 7, session: '0x77',
    clientAddress: '9.9.9.9:9', label: 'other', since: 5, held: { since: 1, exact: false }, waitsFor: ['/x'],
    watches: [{ path: '/x', source: 'server' }], ours: true, nodeless: true,
  };
  for (const field of Object.keys(PARTICIPANT_FIELDS) as (keyof typeof PARTICIPANT_FIELDS)[]) {
    const prev = fixtureAnalysis(4);
    const next = carried(prev);
    (next.queues[0].participants[3] as unknown as Record<string, unknown>)[field] = values[field];
    const delta = diffAnalysis(prev, next);
    assert.ok(delta?.queues, `${field}: a change`);
    assert.deepEqual(carried(applyAnalysisDelta(carried(prev), carried(delta))), carried(next), field);
  }
  for (const field of Object.keys(WATCH_FIELDS) as (keyof typeof WATCH_FIELDS)[]) {
    const prev = fixtureAnalysis(4);
    const next = carried(prev);
    const watch = next.queues[0].participants[3].watches[0] as unknown as Record<string, unknown>;
    watch[field] = field === 'path' ? '/elsewhere' : watch.source === 'server' ? 'inferred' : 'server';
    assert.ok(diffAnalysis(prev, next)?.queues, `watch ${field}: a change`);
  }
});
