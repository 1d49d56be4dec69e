// Which server's tables stand for the session tracker (the leader's, or a standalone server's; a follower's never),
// how its ephemeral paths are named inside a chroot, and how late its clock was at least, from our own session.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ServerTables } from '../../src/zk/servers/serverTables';
import { trackerReadingOf } from '../../src/zk/history/trackerReading';

function tables(state: string, options: Partial<ServerTables> = {}): ServerTables {
  return {
    server: `${state}:2181`, via: 'admin', refusedWords: [], monitor: { server_state: state }, connections: new Map(),
    trackedSessions: new Map([['0xa', undefined], ['0xb', undefined]]), sessionExpiry: new Map([['0xa', 40_000], ['0xb', 52_000]]),
    ephemerals: new Map([['0xb', ['/app/locks/n-1', '/elsewhere/n-2']]]), tickMs: 2000, ...options,
  };
}

describe('the leader\'s tracker from a reading of the tables', () => {
  test('a follower\'s tables are never the tracker; the leader\'s are, whatever their order', () => {
    assert.equal(trackerReadingOf({ tables: [tables('follower')], askedAt: 1, answeredAt: 2 }, { timeoutMs: 30_000 }), undefined);
    const reading = trackerReadingOf({ tables: [tables('follower', { tickMs: 9999 }), tables('leader')], askedAt: 1, answeredAt: 2 }, { timeoutMs: 30_000 });
    assert.equal(reading?.tickMs, 2000);
    assert.equal(reading?.sessions.get('0xb'), 52_000);
  });

  test('the tracker\'s clock was at least our own expiry time less our timeout and a tick', () => {
    const reading = trackerReadingOf({ tables: [tables('standalone')], askedAt: 1, answeredAt: 2 }, { sessionId: '0xa', timeoutMs: 30_000 });
    assert.equal(reading?.clockAtLeast, 40_000 - 30_000 - 2000);
    const unknownTick = trackerReadingOf({ tables: [tables('standalone', { tickMs: undefined })], askedAt: 1, answeredAt: 2 }, { sessionId: '0xa', timeoutMs: 30_000 });
    assert.equal(unknownTick?.clockAtLeast, undefined);
  });

  test('ephemeral paths are named as inside the chroot, others left out', () => {
    const reading = trackerReadingOf({ tables: [tables('leader')], askedAt: 1, answeredAt: 2 }, { timeoutMs: 30_000, chroot: '/app' });
    assert.deepEqual(reading?.ephemerals.get('0xb'), ['/locks/n-1']);
  });

  test('connections are known only when every server told them', () => {
    const complete = trackerReadingOf({ tables: [tables('leader', { connections: new Map([['0xa', 'h:1']]) }), tables('follower')], askedAt: 1, answeredAt: 2 }, { timeoutMs: 1 });
    assert.deepEqual([...complete?.connected ?? []], ['0xa']);
    const partial = trackerReadingOf({ tables: [tables('leader'), tables('follower', { connections: undefined })], askedAt: 1, answeredAt: 2 }, { timeoutMs: 1 });
    assert.equal(partial?.connected, undefined);
  });
});
