import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseExactJson, sessionHexFromJson } from '../../src/zk/servers/exactJson';
import { parseSrvr } from '../../src/zk/servers/ensembleStatus';
import {
  askAdmin, askWord, parseDumpText, parseMntr, parseWchc, READ_ONLY_ADMIN_COMMANDS, READ_ONLY_WORDS, UnsafeCommandError,
} from '../../src/zk/servers/serverCommands';

describe('exact JSON for AdminServer answers', () => {
  test('64-bit session ids above 2^53 stay distinct (JSON.parse merges them)', () => {
    const text = '{"a":[72057907239583745,72057907239583744],"small":5,"neg":-9223372036854775808,"f":0.5,"e":1e3}';
    assert.equal(JSON.parse(text).a[0], JSON.parse(text).a[1], 'the premise: JSON.parse rounds both to one number');
    const json = parseExactJson(text) as { a: string[]; small: number; neg: string; f: number; e: number };
    assert.deepEqual(json.a, ['72057907239583745', '72057907239583744']);
    assert.equal(sessionHexFromJson(json.a[0]), '0x1000048ec460001');
    assert.equal(sessionHexFromJson(json.a[1]), '0x1000048ec460000');
    assert.equal(json.small, 5);
    assert.equal(json.neg, '-9223372036854775808');
    assert.equal(sessionHexFromJson(json.neg), '0x8000000000000000');
    assert.equal(json.f, 0.5);
    assert.equal(json.e, 1000);
  });

  test('strings with escapes, nesting, literals; garbage is refused', () => {
    assert.deepEqual(parseExactJson(' { "p" : "a\\"b\\\\c\\u00e9\\n", "x": [true, false, null, {}, []] } '),
      { p: 'a"b\\c\u00e9\n', x: [true, false, null, {}, []] });
    assert.throws(() => parseExactJson('{"a":1,}'));
    assert.throws(() => parseExactJson('<html>'));
    assert.throws(() => parseExactJson('{"a":1} x'));
    assert.throws(() => parseExactJson('"unterminated'));
  });

  test('a key named __proto__ stays a plain key', () => {
    const json = parseExactJson('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(json), ['__proto__']);
  });
});

describe('four-letter word answers', () => {
  test('wchc: sessions and their watched paths', () => {
    const map = parseWchc('0x1000048f7be0001\n\t/q/lock-0000000000\n\t/q/missing\n0x2\n\t/a\n\n');
    assert.deepEqual([...map], [['0x1000048f7be0001', ['/q/lock-0000000000', '/q/missing']], ['0x2', ['/a']]]);
  });

  test('dump: tracked sessions with expiry and ephemerals per session', () => {
    const text = [
      'SessionTracker dump:', 'Session Sets (1)/(2):', '2 expire at Sat Nov 21 11:19:17 UTC 2026:', '\t0x1000048f7be0000', '\t0x1000048f7be0001',
      'ephemeral nodes dump:', 'Sessions with Ephemerals (1):', '0x1000048f7be0000:', '\t/q/lock-0000000000',
      'Connections dump:', 'Connections Sets (2)/(3):', '1 expire at Sat Nov 21 11:19:03 UTC 2026:', '\tip: /127.0.0.1:56354 sessionId: 0x0', '',
    ].join('\n');
    const dump = parseDumpText(text);
    assert.deepEqual([...dump.trackedSessions!.keys()], ['0x1000048f7be0000', '0x1000048f7be0001']);
    assert.equal(dump.trackedSessions!.get('0x1000048f7be0000'), Date.parse('Sat Nov 21 11:19:17 UTC 2026'));
    assert.deepEqual([...dump.ephemeralsBySession], [['0x1000048f7be0000', ['/q/lock-0000000000']]]);
    // A follower's dump has no session tracker part.
    assert.equal(parseDumpText('ephemeral nodes dump:\nSessions with Ephemerals (0):\n').trackedSessions, undefined);
  });

  test('mntr and srvr', () => {
    assert.deepEqual(parseMntr('zk_version\t3.8.0-x, built on y\nzk_watch_count\t3\n'), { version: '3.8.0-x, built on y', watch_count: '3' });
    const srvr = parseSrvr('Zookeeper version: 3.8.0-abc, built on 2024\nLatency min/avg/max: 0/3.5714/11\nReceived: 9\nConnections: 2\nMode: follower\nNode count: 7\n');
    assert.deepEqual(srvr, { version: '3.8.0', mode: 'follower', connections: 2, znodes: 7, latencyMs: { min: 0, avg: 3.5714, max: 11 } });
  });
});

describe('only read-only commands are ever sent', () => {
  test('state-changing words and admin commands are refused before any connection', async () => {
    for (const word of ['crst', 'srst', 'stmk', 'kill', 'x']) {
      assert.equal(READ_ONLY_WORDS.has(word), false);
      // Port 9 (discard): no connection is even attempted, the promise rejects at once.
      await assert.rejects(askWord('127.0.0.1', 9, word), UnsafeCommandError);
    }
    for (const command of ['connection_stat_reset', 'stat_reset', 'set_trace_mask', 'snapshot', 'restore']) {
      assert.equal(READ_ONLY_ADMIN_COMMANDS.has(command), false);
      await assert.rejects(askAdmin('127.0.0.1', 9, command), UnsafeCommandError);
    }
  });
});
