// The consistency check's parts on plain values: the parsers of mntr/srvr/conf and AdminServer answers (hostile,
// truncated, out of range), the flag rules (lagging, other epoch, disagreeing, unreachable, no leader, two leaders),
// and the CLI's rendering of untrusted text.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { AgreementThresholds, judgeAgreement, MemberAnswer } from '../../src/zk/servers/agreementRules';
import { figuresFromAdmin, figuresFromMntr, figuresFromSrvr, mergeWordFigures, parseZxid, serverIdFromConf, zxidText } from '../../src/zk/servers/memberFigures';
import { differencesFrom } from '../../src/zk/servers/pathAcrossMembers';
import { parseCommand } from '../../src/cli/command';
import { ensembleCommand, formatAgreement, formatPathComparison } from '../../src/cli/commands/ensemble';
import { UsageError } from '../../src/cli/args';

const SRVR = 'Zookeeper version: 3.8.0-abc, built on 2024-12-29\nLatency min/avg/max: 0/0.25/7\nReceived: 3\nSent: 4\nConnections: 2\nOutstanding: 1\nZxid: 0x20000001f\nMode: follower\nNode count: 12\n';
const MNTR = 'zk_version\t3.8.0\nzk_server_state\tfollower\nzk_ephemerals_count\t3\nzk_num_alive_connections\t2\nzk_watch_count\t5\nzk_approximate_data_size\t1234\nzk_outstanding_requests\t0\nzk_znode_count\t12\nzk_min_latency\t0\nzk_avg_latency\t0.5\nzk_max_latency\t9\n';

describe('member figures: parsers', () => {
  test('zxid: epoch in the high 32 bits, counter in the low; hex from srvr and decimal from the AdminServer', () => {
    assert.deepEqual(parseZxid('0x20000001f'), { epoch: 2, counter: 31 });
    assert.deepEqual(parseZxid(String(0x20000001fn)), { epoch: 2, counter: 31 });
    assert.deepEqual(parseZxid('0xffffffffffffffff'), { epoch: 0xffffffff, counter: 0xffffffff });
    assert.equal(zxidText({ epoch: 2, counter: 31 }), '0x20000001f');
    for (const bad of ['', '0x', '-1', '0x1g', '1e9', '0x10000000000000000', '99999999999999999999999', '0x1\u202e', ' 12 junk']) {
      assert.equal(parseZxid(bad), undefined, JSON.stringify(bad));
    }
  });

  test('srvr and mntr figures; what both carry is the same', () => {
    const s = figuresFromSrvr(SRVR);
    assert.deepEqual(s, { mode: 'follower', zxid: { epoch: 2, counter: 31 }, znodes: 12, connections: 2, outstanding: 1, latency: { min: 0, avg: 0.25, max: 7 } });
    const m = figuresFromMntr(MNTR);
    assert.deepEqual(m, { mode: 'follower', znodes: 12, ephemerals: 3, connections: 2, watches: 5, dataSize: 1234, outstanding: 0, latency: { min: 0, avg: 0.5, max: 9 } });
    assert.equal(serverIdFromConf('clientPort=2181\nserverId=3\n'), 3);
    assert.equal(serverIdFromConf('serverId=3x\n'), undefined);
  });

  test('hostile and truncated answers give unknown figures, never a made-up one', () => {
    const hostile = figuresFromSrvr('Mode: leader\u202e\nZxid: 0x1\u200b\nNode count: 12; rm -rf\nLatency min/avg/max: 0/1\nConnections: -3\nOutstanding: 1e400\n');
    assert.deepEqual(hostile, { mode: undefined, zxid: undefined, znodes: undefined, connections: undefined, outstanding: undefined, latency: undefined });
    const truncated = figuresFromSrvr(SRVR.slice(0, SRVR.indexOf('Zxid: 0x2') + 5));
    assert.deepEqual([truncated.zxid, truncated.mode, truncated.znodes, truncated.connections], [undefined, undefined, undefined, 2]);
    assert.deepEqual(figuresFromMntr('zk_server_state\t<b>leader</b>\nzk_znode_count\t99999999999999999\ngarbage'), {
      mode: undefined, znodes: undefined, ephemerals: undefined, connections: undefined, watches: undefined, dataSize: undefined, outstanding: undefined, latency: undefined,
    });
    assert.deepEqual(figuresFromAdmin({ server_state: 'leader', znode_count: 7, watch_count: { nested: 1 } }, { server_stats: 'not an object' }), {
      mode: 'leader', znodes: 7, ephemerals: undefined, connections: undefined, watches: undefined, dataSize: undefined, outstanding: undefined,
      latency: undefined, zxid: undefined, serverId: undefined,
    });
    assert.deepEqual(figuresFromAdmin({}, { server_stats: { last_processed_zxid: '12884901890' } }).zxid, { epoch: 3, counter: 2 });
  });

  test('each unknown figure says why: the word was not allowed, or the answer lacked it', () => {
    const noMntr = mergeWordFigures({ srvr: SRVR }, ['mntr']);
    assert.deepEqual(noMntr.unknown, { ephemerals: 'mntr not allowed', watches: 'mntr not allowed', dataSize: 'mntr not allowed' });
    assert.equal(noMntr.znodes, 12);
    const both = mergeWordFigures({ srvr: SRVR, mntr: MNTR, conf: 'serverId=2' }, []);
    assert.deepEqual(both.unknown, {});
    assert.equal(both.serverId, 2);
    assert.equal(both.latency?.avg, 0.25, 'srvr first for what both carry');
    assert.deepEqual(mergeWordFigures({ mntr: 'zk_server_state\tleader\n' }, []).unknown.zxid, 'not in the answer to srvr');
  });
});

const T: AgreementThresholds = { maxLagTransactions: 10, znodeTolerance: 0, deadlineMs: 1000 };

function member(address: string, mode: string | undefined, epoch: number, counter: number, znodes = 10): MemberAnswer {
  return { address, via: 'fourLetterWords', figures: { mode, zxid: { epoch, counter }, znodes, unknown: {} } };
}

describe('agreement rules', () => {
  test('members at the leader\'s zxid with its znode count agree; a lag within the threshold too', () => {
    const r = judgeAgreement([member('a', 'leader', 1, 100), member('b', 'follower', 1, 100), member('c', 'follower', 1, 90, 9)], T);
    assert.equal(r.agree, true);
    assert.equal(r.leader, 'a');
    assert.deepEqual(r.members.map((m) => m.flags), [[], [], []]);
  });

  test('lagging: more than N transactions behind, or another epoch', () => {
    const r = judgeAgreement([member('a', 'leader', 2, 100), member('b', 'follower', 2, 89), member('c', 'follower', 1, 500)], T);
    assert.equal(r.agree, false);
    assert.deepEqual(r.members[1].flags, [{ kind: 'lagging', behind: 11, leaderZxid: { epoch: 2, counter: 100 } }]);
    assert.deepEqual(r.members[2].flags, [{ kind: 'epochDiffers', epoch: 1, leaderEpoch: 2 }]);
  });

  test('an older epoch is not lagging while the leader\'s epoch has at most N transactions (a fresh ensemble); a newer one always differs', () => {
    // Measured on 3.8.0: a new ensemble's followers say 0x0 until the first transaction, the leader 0x100000000.
    assert.equal(judgeAgreement([member('a', 'leader', 1, 0), member('b', 'follower', 0, 0)], T).agree, true);
    assert.equal(judgeAgreement([member('a', 'leader', 2, 10), member('b', 'follower', 1, 77)], T).agree, true);
    assert.deepEqual(judgeAgreement([member('a', 'leader', 2, 11), member('b', 'follower', 1, 77)], T).members[1].flags, [{ kind: 'epochDiffers', epoch: 1, leaderEpoch: 2 }]);
    assert.deepEqual(judgeAgreement([member('a', 'leader', 2, 0), member('b', 'follower', 3, 0)], T).members[1].flags, [{ kind: 'epochDiffers', epoch: 3, leaderEpoch: 2 }]);
  });

  test('disagrees: the znode count differs beyond the tolerance at an equal zxid (not when behind)', () => {
    const r = judgeAgreement([member('a', 'leader', 1, 100, 50), member('b', 'follower', 1, 100, 52), member('c', 'follower', 1, 99, 40)], T);
    assert.deepEqual(r.members[1].flags, [{ kind: 'disagrees', znodes: 52, leaderZnodes: 50 }]);
    assert.deepEqual(r.members[2].flags, []);
    assert.equal(judgeAgreement([member('a', 'leader', 1, 100, 50), member('b', 'follower', 1, 100, 52)], { ...T, znodeTolerance: 2 }).agree, true);
  });

  test('unreachable and not serving members; no leader; two leaders', () => {
    const down: MemberAnswer = { address: 'd', via: 'none', unreachable: 'no answer within 1000 ms' };
    const idle: MemberAnswer = { address: 'e', via: 'fourLetterWords', notServing: true };
    const r = judgeAgreement([member('a', 'leader', 1, 1), down, idle], T);
    assert.deepEqual(r.members[1].flags, [{ kind: 'unreachable', reason: 'no answer within 1000 ms' }]);
    assert.deepEqual(r.members[2].flags, [{ kind: 'notServing' }]);
    const none = judgeAgreement([member('a', 'follower', 1, 1), down], T);
    assert.deepEqual(none.flags, [{ kind: 'noLeader' }]);
    assert.equal(none.agree, false);
    assert.deepEqual(none.members[0].flags, [], 'nothing to compare with');
    const two = judgeAgreement([member('a', 'leader', 1, 1), member('b', 'leader', 2, 1)], T);
    assert.deepEqual(two.flags, [{ kind: 'twoLeaders', leaders: ['a', 'b'] }]);
    assert.equal(judgeAgreement([member('s', 'standalone', 0, 5)], T).agree, true, 'one standalone server is its own reference');
    assert.deepEqual(judgeAgreement([member('s', 'standalone', 0, 5), member('t', 'standalone', 0, 5)], T).flags, [{ kind: 'noLeader' }]);
  });
});

describe('path across members: differences from the leader', () => {
  const read = (data: string, mzxid = 5n, version = 1) => ({ address: 'x', exists: true, data: Buffer.from(data), mzxid, version });
  test('mzxid, version, data, children and existence', () => {
    assert.deepEqual(differencesFrom(read('a'), read('a')), []);
    assert.deepEqual(differencesFrom(read('b', 6n, 2), read('a')), ['mzxid', 'version', 'data']);
    assert.deepEqual(differencesFrom({ ...read('a'), children: ['x', 'y'] }, { ...read('a'), children: ['x'] }), ['children']);
    assert.deepEqual(differencesFrom(read('a'), { address: 'y', exists: false }), ['existence']);
  });
});

const parseEnsembleArgs = (args: string[]) => parseCommand(ensembleCommand, args, {})?.parsed;

describe('ensemble CLI: arguments and untrusted text', () => {
  test('arguments: --check required, thresholds bounded, --children only with --path', () => {
    const parsed = parseEnsembleArgs(['127.0.0.1:2181', '--check', '--max-lag', '5', '--znode-tolerance', '2', '--deadline', '1.5', '--path', '/a']);
    assert.deepEqual(parsed?.thresholds, { maxLagTransactions: 5, znodeTolerance: 2, deadlineMs: 1500 });
    assert.throws(() => parseEnsembleArgs(['127.0.0.1:2181']), UsageError);
    assert.throws(() => parseEnsembleArgs(['127.0.0.1:2181', '--check', '--children']), UsageError);
    assert.throws(() => parseEnsembleArgs(['127.0.0.1:2181', '--check', '--max-lag', '-1']), UsageError);
    assert.throws(() => parseEnsembleArgs(['127.0.0.1:2181', '--check', '--path', 'rel']), UsageError);
  });

  test('server text and znode data reach the table with hidden characters written out', () => {
    const r = judgeAgreement([{ address: 'a', via: 'none', unreachable: 'boom\u202e\u001b[2J\nsecond line' }], T);
    const text = formatAgreement(r);
    assert.match(text, /\[U\+202E\]\[U\+001B\]\[2J\[U\+000A\]second line/);
    const table = formatPathComparison({ path: '/p\u200b', reference: 'a', stale: false, members: [
      { address: 'a', exists: true, data: Buffer.from('x\u202ey\nz'), mzxid: 1n, version: 0 },
    ] });
    assert.ok(!/[\u200b\u202e]/.test(table));
    assert.match(table, /\/p\[U\+200B\]/);
    assert.equal(table.split('\n').length, 4, 'data with a newline stays on its row');
  });
});
