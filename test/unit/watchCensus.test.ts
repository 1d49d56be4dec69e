// The pure parts of the watch census: the tally (top paths and sessions, parents), the child-watch derivation, the
// fan-out figures, herd classification, the comparison of two censuses, and the streamed reading of a word's lines.
import { after, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { LockQueue, Participant } from '../../src/shared/lockAnalysis';
import { compareCensuses, readSavedCensus, CensusFormatError } from '../../src/zk/census/compare';
import { herdRisk, WaiterMember } from '../../src/zk/census/herd';
import type { WatchCensus } from '../../src/zk/census/model';
import { MAX_PREFIXES_PER_SESSION, OTHER_PREFIX, WatchTally } from '../../src/zk/census/tally';
import { derivedChildWatches, fanOutOf } from '../../src/zk/census/watchFigures';
import { askWordLines, WordRefusedError } from '../../src/zk/servers/serverCommands';
import { FakeServer, startRawPeer } from '../support/fakes/fakePeers';
import { costText } from '../../src/cli/commands/watches/format';
import { censusRows } from '../../src/vscode/watchCensus/censusRows';
import { takeCensus } from '../../src/zk/census/census';

describe('census tally', () => {
  test('paths ranked by watchers over all members, sessions by watches with their member and parents', () => {
    const tally = new WatchTally();
    for (let i = 0; i < 5; i++) tally.add('a:1', '0xleak', `/cache/n${i}`);
    tally.add('a:1', '0xleak', '/config');
    tally.add('b:2', '0xother', '/config');
    tally.add('c:3', '0xthird', '/config');
    tally.add('c:3', '0xthird', '/cache/n0');
    assert.deepEqual(tally.topPaths(2), [{ path: '/config', watchers: 3 }, { path: '/cache/n0', watchers: 2 }]);
    const sessions = tally.topSessions(2, (s) => (s === '0xleak' ? '10.0.0.7:4242' : undefined));
    assert.deepEqual(sessions, [
      { id: '0xleak', server: 'a:1', watches: 6, prefixes: [{ prefix: '/cache', watches: 5 }, { prefix: '/', watches: 1 }], clientAddress: '10.0.0.7:4242' },
      { id: '0xthird', server: 'c:3', watches: 2, prefixes: [{ prefix: '/', watches: 1 }, { prefix: '/cache', watches: 1 }] },
    ]);
    assert.deepEqual([tally.dataWatches, tally.watchingSessions, tally.watchedPaths], [9, 3, 6]);
  });

  test('the top list is the largest whatever order the watches come in', () => {
    const counts = [3, 9, 1, 7, 7, 2, 8, 5];
    const tally = new WatchTally();
    counts.forEach((c, i) => { for (let k = 0; k < c; k++) tally.add('m:1', `0x${k}`, `/p${i}`); });
    assert.deepEqual(tally.topPaths(4).map((p) => p.watchers), [9, 8, 7, 7]);
    assert.deepEqual(tally.topPaths(4).map((p) => p.path), ['/p1', '/p6', '/p3', '/p4']);
  });

  test('a session spread over very many parents is counted whole, the parents beyond the bound together', () => {
    const tally = new WatchTally();
    const n = MAX_PREFIXES_PER_SESSION + 10;
    for (let i = 0; i < n; i++) tally.add('m:1', '0xs', `/d${i}/leaf`);
    const [session] = tally.topSessions(1, () => undefined);
    assert.equal(session.watches, n);
    assert.deepEqual(session.prefixes[0], { prefix: OTHER_PREFIX, watches: 10 });
  });

  test('only the watches asked for are kept whole', () => {
    const tally = new WatchTally((session, path) => session === '0xw' && path.startsWith('/lock'));
    tally.add('m:1', '0xw', '/lock/n1');
    tally.add('m:1', '0xw', '/elsewhere');
    tally.add('m:1', '0xv', '/lock/n2');
    assert.deepEqual([...tally.keptWatches('0xw')], ['/lock/n1']);
    assert.deepEqual([...tally.keptWatches('0xv')], []);
  });
});

describe('child watches and fan-out from mntr', () => {
  test('child watches are the larger total less the listed data watches, unknown when a figure is missing', () => {
    assert.equal(derivedChildWatches(10, 14, 15), 5);
    assert.equal(derivedChildWatches(10, 15, 11), 5);
    assert.equal(derivedChildWatches(10, 8, 9), 0);
    assert.equal(derivedChildWatches(undefined, 8, 9), undefined);
    assert.equal(derivedChildWatches(3, undefined, 9), undefined);
    assert.equal(derivedChildWatches(3, 9, undefined), undefined);
  });

  test('fan-out per event where the member reports it, nothing where it does not', () => {
    const monitor = {
      cnt_node_children_watch_count: '4', sum_node_children_watch_count: '40', max_node_children_watch_count: '12',
      cnt_node_deleted_watch_count: '2', sum_node_deleted_watch_count: '2', max_node_deleted_watch_count: '1',
    };
    assert.deepEqual(fanOutOf(monitor), [
      { event: 'children', changes: 4, watchersFired: 40, most: 12 },
      { event: 'deleted', changes: 2, watchersFired: 2, most: 1 },
    ]);
    assert.equal(fanOutOf({ watch_count: '3' }), undefined);
    assert.equal(fanOutOf(undefined), undefined);
  });
});

function waiter(path: string, session: string, predecessor: string, position: number): Participant {
  return { path, name: path.slice(path.lastIndexOf('/') + 1), kind: 'exclusive', role: 'waiter', position, session, since: 0, waitsFor: [predecessor], watches: [] };
}

/** A queue /lock: a holder and `n` waiters, each behind the one before. */
function queue(n: number): LockQueue {
  const holder: Participant = { path: '/lock/lock-0000000000', name: 'lock-0000000000', kind: 'exclusive', role: 'holder', position: 0, session: '0xh', since: 0, waitsFor: [], watches: [] };
  const participants = [holder];
  for (let i = 1; i <= n; i++) participants.push(waiter(`/lock/lock-000000000${i}`, `0xw${i}`, participants[i - 1].path, i));
  return { path: '/lock', recipe: 'plain-lock', participants, anomalies: [] };
}

function judge(q: LockQueue, watches: Record<string, string[]>, members: Record<string, WaiterMember | undefined>) {
  return herdRisk(q, {
    watchesOf: (s) => new Set(watches[s] ?? []),
    memberOf: (s) => members[s],
    clientOf: (s) => `client-of-${s}`,
  });
}

describe('herd risk', () => {
  const listedWith = (childWatches: number | undefined): WaiterMember => ({ server: 'm:1', listed: true, childWatches });

  test('waiters that watch their predecessor: no risk', () => {
    const q = queue(3);
    const r = judge(q, { '0xw1': ['/lock/lock-0000000000'], '0xw2': ['/lock/lock-0000000001'], '0xw3': ['/lock/lock-0000000002'] },
      { '0xw1': listedWith(0), '0xw2': listedWith(0), '0xw3': listedWith(0) });
    assert.deepEqual([r.risk, r.waiters, r.watchingPredecessor, r.unseen, r.named.length], ['none', 3, 3, 0, 0]);
  });

  test('waiters seen watching nothing while their member holds child watches for them: a herd, the waiters named', () => {
    const q = queue(3);
    const r = judge(q, {}, { '0xw1': listedWith(5), '0xw2': listedWith(5), '0xw3': listedWith(5) });
    assert.deepEqual([r.risk, r.unseen, r.watchingPredecessor], ['herd', 3, 0]);
    assert.deepEqual(r.named.map((w) => [w.session, w.seen, w.clientAddress, w.server]), [
      ['0xw1', 'unseen', 'client-of-0xw1', 'm:1'], ['0xw2', 'unseen', 'client-of-0xw2', 'm:1'], ['0xw3', 'unseen', 'client-of-0xw3', 'm:1'],
    ]);
  });

  test('no more waiters are unseen than their member has child watches: the rest watch nothing', () => {
    const r = judge(queue(3), {}, { '0xw1': listedWith(1), '0xw2': listedWith(1), '0xw3': listedWith(1) });
    assert.deepEqual([r.risk, r.unseen, r.watchingNothing], ['possible', 1, 2]);
  });

  test('a member that would not list its watches makes its waiters unknown, not a herd', () => {
    const r = judge(queue(2), {}, { '0xw1': { server: 'm:1', listed: false }, '0xw2': undefined });
    assert.deepEqual([r.risk, r.unknown, r.unseen], ['unknown', 2, 0]);
  });

  test('several waiters data-watching the same node that is not their predecessor: a herd', () => {
    const r = judge(queue(3), { '0xw1': ['/lock/lock-0000000000'], '0xw2': ['/lock/lock-0000000000'], '0xw3': ['/lock/lock-0000000000'] },
      { '0xw1': listedWith(0), '0xw2': listedWith(0), '0xw3': listedWith(0) });
    assert.deepEqual([r.risk, r.watchingPredecessor, r.watchingOther], ['herd', 1, 2]);
  });
});

function census(takenAt: number, sessions: [string, number][], paths: [string, number][], totals: { watchingSessions: number; watchedPaths: number }): WatchCensus {
  return {
    takenAt, servers: [{ server: 'm:1', via: 'fourLetterWords', silences: [], dataWatches: 1 }],
    sessions: sessions.map(([id, watches]) => ({ id, server: 'm:1', watches, prefixes: [] })),
    paths: paths.map(([path, watchers]) => ({ path, watchers })), herd: [],
    totals: { dataWatches: 0, ...totals }, complete: true,
  };
}

describe('two censuses compared', () => {
  test('what grew, the most growth first; what shrank or stayed is left out', () => {
    const older = census(1, [['0xa', 10], ['0xb', 5], ['0xc', 7]], [['/x', 2], ['/y', 4]], { watchingSessions: 3, watchedPaths: 2 });
    const newer = census(2, [['0xa', 12], ['0xb', 500], ['0xc', 7], ['0xd', 40]], [['/x', 9], ['/y', 3], ['/z', 1]], { watchingSessions: 4, watchedPaths: 3 });
    const c = compareCensuses(older, newer);
    assert.deepEqual(c.sessions.map((s) => [s.id, s.before, s.now, s.grew]), [['0xb', 5, 500, 495], ['0xd', 0, 40, 40], ['0xa', 10, 12, 2]]);
    assert.deepEqual(c.paths.map((p) => [p.path, p.grew]), [['/x', 7], ['/z', 1]]);
  });

  test('against a list cut at its top, a newcomer grew at least past the smallest count listed', () => {
    const older = census(1, [['0xa', 10], ['0xb', 8]], [], { watchingSessions: 50, watchedPaths: 0 });
    const newer = census(2, [['0xn', 20], ['0xm', 8]], [], { watchingSessions: 50, watchedPaths: 0 });
    const c = compareCensuses(older, newer);
    assert.deepEqual(c.sessions, [{ id: '0xn', server: 'm:1', now: 20, grew: 12, atLeast: true }]);
  });

  test('a saved file that is not a census is refused with what is wrong', () => {
    assert.throws(() => readSavedCensus('{'), CensusFormatError);
    assert.throws(() => readSavedCensus('{"servers":[]}'), /takenAt, servers, sessions, paths and totals/);
    const bad = census(1, [], [], { watchingSessions: 0, watchedPaths: 0 }) as unknown as { sessions: unknown[] };
    bad.sessions = [{ id: 7 }];
    assert.throws(() => readSavedCensus(JSON.stringify(bad)), /sessions\[0\]/);
    const good = census(1, [['0xa', 1]], [['/p', 1]], { watchingSessions: 1, watchedPaths: 1 });
    assert.deepEqual(readSavedCensus(JSON.stringify(good)), good);
  });
});

describe('a word answer read line by line', () => {
  const peers: FakeServer[] = [];
  after(async () => { for (const p of peers) await p.close(); });

  /** A peer that answers any word with `parts`, one write each, a pause between. */
  async function answering(parts: Buffer[]): Promise<number> {
    const p = await startRawPeer((socket) => {
      socket.once('data', () => {
        const send = (i: number) => {
          if (i === parts.length) return socket.end();
          socket.write(parts[i]);
          setTimeout(() => send(i + 1), 5);
        };
        send(0);
      });
    });
    peers.push(p);
    return p.port;
  }

  test('lines cut across chunks, even inside a character, come whole', async () => {
    const text = Buffer.from('/caf\u00e9\n\t0x1\n/\u202eevil\n\t0x2', 'utf8');
    const cut = text.indexOf(0xa9); // the second byte of é
    const port = await answering([text.subarray(0, cut), text.subarray(cut, cut + 3), text.subarray(cut + 3)]);
    const lines: string[] = [];
    await askWordLines('127.0.0.1', port, 'wchp', { timeoutMs: 10000 }, (l) => lines.push(l));
    assert.deepEqual(lines, ['/caf\u00e9', '\t0x1', '/\u202eevil', '\t0x2']);
  });

  test('a refused word rejects with WordRefusedError and hands over no line', async () => {
    const port = await answering([Buffer.from('wchp is not executed because it is not in the whitelist.\n')]);
    const lines: string[] = [];
    await assert.rejects(askWordLines('127.0.0.1', port, 'wchp', { timeoutMs: 10000 }, (l) => lines.push(l)), WordRefusedError);
    assert.deepEqual(lines, []);
  });

  test('only read-only words are sent', async () => {
    await assert.rejects(askWordLines('127.0.0.1', 1, 'srst', { timeoutMs: 1000 }, () => undefined), /not a read-only server command/);
  });
});

describe('what a census costs, said first', () => {
  test('nothing for a small ensemble; each member\'s watch count for a big one', () => {
    assert.equal(costText([{ server: 'a:1', watchCount: 10 }, { server: 'b:2', watchCount: 99_000 }]), undefined);
    assert.equal(costText([{ server: 'a:1', watchCount: 60_000 }, { server: 'b:2', watchCount: 40_000 }, { server: 'c:3' }]),
      'the members hold 100,000 watches (a:1 60,000, b:2 40,000, c:3 ?): each writes its data watches out in turn (wchp), the most expensive answer a server gives; asking one member at a time');
  });
});

describe('the Watch Census view\'s order and filter', () => {
  const shown = census(1, [['0xb', 5], ['0xa', 9], ['0xc', 1]], [['/z', 4], ['/App/x', 2]], { watchingSessions: 3, watchedPaths: 2 });
  shown.sessions[2].clientAddress = '10.1.2.3:5000';

  test('by count keeps the census\' order (the most first); by name sorts sessions and paths by name', () => {
    assert.deepEqual(censusRows(shown, 'count').sessions.map((s) => s.id), ['0xb', '0xa', '0xc']);
    assert.deepEqual(censusRows(shown, 'name').sessions.map((s) => s.id), ['0xa', '0xb', '0xc']);
    assert.deepEqual(censusRows(shown, 'name').paths.map((p) => p.path), ['/App/x', '/z']);
  });

  test('the filter matches a session by its client address and a path by its text, case aside', () => {
    assert.deepEqual(censusRows(shown, 'count', '10.1.2').sessions.map((s) => s.id), ['0xc']);
    assert.deepEqual(censusRows(shown, 'count', '/app/').paths.map((p) => p.path), ['/App/x']);
    assert.deepEqual(censusRows(shown, 'count', '  ').sessions.length, 3);
  });
});

describe('members asked one at a time, each under its own deadline', () => {
  const peers: FakeServer[] = [];
  after(async () => { for (const p of peers) await p.close(); });

  const ANSWERS: Record<string, string> = {
    mntr: 'zk_watch_count\t3\n',
    cons: ' /10.0.0.9:4000[1](queued=0,recved=1,sent=1,sid=0x1a,lop=PING)\n',
    wchp: '/a\n\t0x1a\n/b\n\t0x1a\n',
  };

  /** A four-letter-word peer answering after a pause, counting how many peers answer at once; `hang`: never answers. */
  async function wordPeer(active: { now: number; most: number }, hang = false): Promise<number> {
    const p = await startRawPeer((socket) => {
      socket.once('data', (word) => {
        if (hang) return;
        active.now++;
        active.most = Math.max(active.most, active.now);
        setTimeout(() => {
          active.now--;
          socket.end(ANSWERS[word.toString()] ?? '');
        }, 30);
      });
    });
    peers.push(p);
    return p.port;
  }

  test('no two members answer at once; a member that never answers is said, the others counted', async () => {
    const active = { now: 0, most: 0 };
    const ports = [await wordPeer(active), await wordPeer(active, true), await wordPeer(active)];
    const census = await takeCensus(ports.map((port) => ({ host: '127.0.0.1', port })), { answerTimeoutMs: 500, listingTimeoutMs: 500 });
    assert.ok(census);
    assert.equal(active.most, 1, 'one member at a time');
    assert.deepEqual(census.servers.map((s) => s.dataWatches), [2, undefined, 2]);
    assert.deepEqual(census.servers.map((s) => s.childWatches), [1, undefined, 1]);
    const silent = census.servers[1];
    assert.deepEqual(silent.silences.map((s) => [s.what, s.reason]), [['figures', 'failed'], ['connections', 'failed'], ['watches', 'failed']]);
    assert.match(silent.silences[2].detail, /did not answer 'wchp' within 500 ms/);
    assert.equal(census.complete, false);
  });
});
