// A Patroni member's lag, as patroni/utils.py cluster_as_json computes it for `patronictl list`: the leader's
// position (status, or the legacy optime/leader) less the member's xlog_location, never negative, none for the
// leader, and nothing at all when the leader's position is unknown.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeNode, decodeContextPaths, decodedJson, readDecodeContext } from '../../src/zk/decoders';
import { humanBytes } from '../../src/zk/decoders/decoding';
import type { DecodeContext } from '../../src/zk/decoders';
import { hasHiddenCharacters } from '../../src/shared/visibleText';
import { bytes } from '../support/fixtures/decodedFixtures';
import { LEADER_LSN, legacyOptimePath, memberPath, MIB, statusPath, touchMemberRecord, writeLeaderOptimeValue, writeStatusValue } from '../support/fixtures/patroniLagFixtures';

const withStatus = (optime: unknown): DecodeContext => new Map([[statusPath, writeStatusValue(optime)], [legacyOptimePath, null]]);
const decodeMember = (data: Uint8Array, context?: DecodeContext, name = 'pg2') => {
  const decoded = decodeNode(memberPath(name), data, undefined, context);
  assert.ok(decoded && !decoded.raw, decoded?.raw?.reason ?? 'not recognised');
  return { decoded, fields: decodedJson(decoded).fields };
};

test('a member asks for its scope\'s status and legacy optime; other Patroni keys and other systems ask for nothing', () => {
  assert.deepEqual(decodeContextPaths(memberPath('pg2')), [statusPath, legacyOptimePath]);
  assert.deepEqual(decodeContextPaths('/ns/service/other/members/a'), ['/ns/service/other/status', '/ns/service/other/optime/leader']);
  assert.deepEqual(decodeContextPaths('/service/pg/leader'), []);
  assert.deepEqual(decodeContextPaths('/brokers/ids/1'), []);
  assert.deepEqual(decodeContextPaths('/app/config'), []);
});

test('a replica 16 MiB behind the status: lag 16 MiB on the line, the exact bytes in the fields', () => {
  const { decoded, fields } = decodeMember(touchMemberRecord('replica', 'running', LEADER_LSN - 16 * MIB), withStatus(LEADER_LSN));
  assert.equal(decoded.summary, 'replica · running · lag 16 MiB');
  assert.equal(fields.lag, String(16 * MIB));
  assert.equal(fields.leader_optime, String(LEADER_LSN));
  assert.equal(fields.xlog_location, String(LEADER_LSN - 16 * MIB));
});

test('the leader shows no lag, whatever the status says', () => {
  for (const role of ['master', 'primary', 'standby_leader']) {
    const { decoded, fields } = decodeMember(touchMemberRecord(role, 'running', LEADER_LSN - MIB), withStatus(LEADER_LSN));
    assert.equal(decoded.summary, `${role} · running · timeline 1 · LSN ${LEADER_LSN - MIB}`);
    assert.equal(fields.lag, undefined);
  }
});

test('a member ahead of the periodically written status has lag 0, not a negative one', () => {
  const { decoded, fields } = decodeMember(touchMemberRecord('replica', 'streaming', LEADER_LSN + 4096), withStatus(LEADER_LSN));
  assert.equal(decoded.summary, 'replica · streaming · lag 0 B');
  assert.equal(fields.lag, '0');
});

test('without a status node, Patroni before 2.1\'s optime/leader gives the leader\'s position', () => {
  const context = new Map([[statusPath, null], [legacyOptimePath, writeLeaderOptimeValue(String(LEADER_LSN))]]);
  assert.equal(decodeMember(touchMemberRecord('replica', 'running', LEADER_LSN - 1536), context).decoded.summary, 'replica · running · lag 1.5 KiB');
});

test('an unknown leader position says nothing about lag rather than guessing', () => {
  const replica = touchMemberRecord('replica', 'running', 1000);
  const unchanged = 'replica · running · timeline 1 · LSN 1000';
  const contexts: [string, DecodeContext | undefined][] = [
    ['no context at all', undefined],
    ['status not read (over budget, not readable)', new Map([[legacyOptimePath, writeLeaderOptimeValue('5000')]])],
    ['status and optime both absent', new Map([[statusPath, null], [legacyOptimePath, null]])],
    ['status not JSON', new Map([[statusPath, bytes('{"optime":')], [legacyOptimePath, writeLeaderOptimeValue('5000')]])],
    ['status without optime', new Map([[statusPath, bytes('{"slots":{}}')], [legacyOptimePath, null]])],
    ['optime a string', withStatus('5000')],
    ['optime negative', withStatus(-5)],
    ['optime fractional', withStatus(5000.5)],
    ['optime beyond exact integers', withStatus(2 ** 60)],
    ['optime 1e400 (Infinity once parsed)', new Map([[statusPath, bytes('{"optime":1e400}')], [legacyOptimePath, null]])],
    ['legacy optime not a number', new Map([[statusPath, null], [legacyOptimePath, writeLeaderOptimeValue('NaN')]])],
    ['legacy optime with a bidi override', new Map([[statusPath, null], [legacyOptimePath, writeLeaderOptimeValue('5000\u202e')]])],
    ['legacy optime not UTF-8', new Map([[statusPath, null], [legacyOptimePath, Uint8Array.from([0xff, 0x35])]])],
  ];
  for (const [why, context] of contexts) {
    const { decoded, fields } = decodeMember(replica, context);
    assert.equal(decoded.summary, unchanged, why);
    assert.equal(fields.lag, undefined, why);
  }
  // The member's own position unusable: no lag either.
  for (const xlog of ['1000', -1, 2 ** 60, null]) {
    assert.equal(decodeMember(touchMemberRecord('replica', 'running', xlog), withStatus(LEADER_LSN)).fields.lag, undefined, String(xlog));
  }
});

test('a member name with bidi and control characters still gets its lag; the lag figure itself is plain', () => {
  const name = 'pg\u202e2\u0007';
  const { decoded, fields } = decodeMember(touchMemberRecord('replica', 'running', LEADER_LSN - 3 * MIB, name), withStatus(LEADER_LSN), name);
  assert.equal(decoded.summary, 'replica · running · lag 3 MiB');
  assert.equal(fields.member, name);
  assert.equal(hasHiddenCharacters(decoded.summary), false);
});

test('byte counts in binary units', () => {
  assert.deepEqual([0, 1023, 1024, 1536, 10 * 1024 + 600, 1024 * 1024 - 1, 16 * MIB, 5 * 1024 ** 4, 2 ** 53].map(humanBytes),
    ['0 B', '1023 B', '1 KiB', '1.5 KiB', '11 KiB', '1 MiB', '16 MiB', '5 TiB', '8 PiB']);
});

test('reading the context: each path once, a missing node as null, an unreadable one left out, nothing for others', async () => {
  const reads: string[] = [];
  const context = await readDecodeContext(memberPath('pg2'), (path) => {
    reads.push(path);
    if (path === statusPath) return Promise.resolve(null);
    return Promise.reject(new Error('not authorised'));
  });
  assert.deepEqual(reads.sort(), [legacyOptimePath, statusPath].sort());
  assert.deepEqual([...context], [[statusPath, null]]);
  const none = await readDecodeContext('/app/config', () => { throw new Error('read'); });
  assert.equal(none.size, 0);
});
