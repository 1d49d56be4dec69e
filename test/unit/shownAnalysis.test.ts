// The lock-queue panel acts only on what it shows: a queue to join, our own node to release, a holder to force out.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LockAnalysis, Participant } from '../../src/shared/lockAnalysis';
import { shownHolder, shownOurs, shownPath, shownQueue } from '../../src/vscode/lockQueue/shownAnalysis';

function participant(path: string, role: Participant['role'], extra: Partial<Participant> = {}): Participant {
  return { path, name: path.split('/').pop()!, kind: 'exclusive', role, position: 0, since: 0, waitsFor: [], watches: [], ...extra };
}

const analysis = {
  root: '/locks',
  takenAt: 0,
  queues: [{
    path: '/locks/orders', recipe: 'plain-lock', anomalies: [],
    participants: [
      participant('/locks/orders/lock-1', 'holder', { session: '0x1' }),
      participant('/locks/orders/lock-2', 'waiter', { ours: true, waitsFor: ['/locks/orders/lock-1'], watches: [{ path: '/locks/orders/lock-1', source: 'server' }] }),
      participant('/controller', 'leader', { nodeless: true }),
    ],
  }],
  sessions: [], deadlocks: [], servers: [], anomalies: [],
} as unknown as LockAnalysis;

test('force-release: only a holder (or leader) with a node of its own', () => {
  assert.equal(shownHolder(analysis, '/locks/orders/lock-1')?.session, '0x1');
  assert.equal(shownHolder(analysis, '/locks/orders/lock-2'), undefined, 'a waiter');
  assert.equal(shownHolder(analysis, '/controller'), undefined, 'a nodeless contender owns no node');
  assert.equal(shownHolder(analysis, '/locks/other'), undefined);
  assert.equal(shownHolder(undefined, '/locks/orders/lock-1'), undefined, 'nothing shown yet');
});

test('acquire: only a queue shown; release: only our node shown', () => {
  assert.equal(shownQueue(analysis, '/locks/orders'), true);
  assert.equal(shownQueue(analysis, '/locks'), false, 'the root of a subtree is not a queue');
  assert.equal(shownQueue(analysis, '/elsewhere'), false);
  assert.equal(shownOurs(analysis, '/locks/orders/lock-2'), true);
  assert.equal(shownOurs(analysis, '/locks/orders/lock-1'), false);
});

test('reveal: any path on screen, and no other', () => {
  for (const path of ['/locks', '/locks/orders', '/locks/orders/lock-1', '/locks/orders/lock-2', '/controller']) assert.equal(shownPath(analysis, path), true, path);
  assert.equal(shownPath(analysis, '/zookeeper'), false);
  assert.equal(shownPath(undefined, '/locks'), false);
});
