import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { connectStringProblemText, formatConnectString, isConnectStringProblem, parseConnectString, sameServers } from '../../src/zk/connectString';

describe('parseConnectString', () => {
  test('one host with a port', () => {
    assert.deepEqual(parseConnectString('zk1:2182'), { servers: [{ host: 'zk1', port: 2182 }], chroot: undefined });
  });

  test('several hosts, the default port, spaces and empty entries', () => {
    assert.deepEqual(parseConnectString(' zk1:2181, zk2 ,,10.0.0.3:3000 '), {
      servers: [{ host: 'zk1', port: 2181 }, { host: 'zk2', port: 2181 }, { host: '10.0.0.3', port: 3000 }],
      chroot: undefined,
    });
  });

  test('IPv6 in brackets, with and without a port', () => {
    assert.deepEqual(parseConnectString('[::1]:2281,[fe80::1]'), {
      servers: [{ host: '::1', port: 2281 }, { host: 'fe80::1', port: 2181 }],
      chroot: undefined,
    });
  });

  test('a chroot', () => {
    assert.deepEqual(parseConnectString('a:1,b:2/apps/kafka'), {
      servers: [{ host: 'a', port: 1 }, { host: 'b', port: 2 }],
      chroot: '/apps/kafka',
    });
    assert.equal((parseConnectString('a:1/') as { chroot?: string }).chroot, undefined);
  });

  test('a bad chroot names the path problem', () => {
    assert.deepEqual(parseConnectString('a:1/apps/'), { code: 'badChroot', problem: { code: 'trailingSlash' } });
    assert.deepEqual(parseConnectString('a:1/x//y'), { code: 'badChroot', problem: { code: 'emptySegment', index: 3 } });
  });

  test('bad ports and malformed servers', () => {
    for (const bad of ['a:0', 'a:65536', 'a:99999', 'a:', 'a:x', 'a:1:2', '::1', '[::1', 'a b:1']) {
      const parsed = parseConnectString(bad);
      assert.ok(isConnectStringProblem(parsed), bad);
      assert.equal(parsed.code, 'badServer', bad);
    }
    assert.deepEqual(parseConnectString('ok:1,bad:0'), { code: 'badServer', server: 'bad:0' });
    assert.deepEqual((parseConnectString('a:65535') as { servers: unknown[] }).servers, [{ host: 'a', port: 65535 }]);
  });

  test('hosts with control, direction or invisible characters are refused, naming the first one', () => {
    const cases: [string, string][] = [
      ['evil\x1b]0;title\x07:2181', 'U+001B'], ['a\x07b:1', 'U+0007'], ['ok:1,x\u202eb:2', 'U+202E'],
      ['zk\u200b1:2181', 'U+200B'], ['zk\u00ad1', 'U+00AD'], ['[::1\u2066]:1', 'U+2066'], ['a\u0085b', 'U+0085'],
    ];
    for (const [text, character] of cases) {
      const parsed = parseConnectString(text);
      assert.ok(isConnectStringProblem(parsed) && parsed.code === 'hiddenCharacter', JSON.stringify(text));
      assert.equal(parsed.character, character, JSON.stringify(text));
      // One line, the host written out: nothing in the message can move a cursor or turn text around.
      const line = connectStringProblemText(parsed);
      assert.ok(!/[\u0000-\u001f\u007f-\u009f\u200b\u00ad\u202e\u2066]/u.test(line), JSON.stringify(line));
      assert.match(line, new RegExp(`holds the hidden character ${character.replace('+', '\\+')}`));
    }
    // A chroot is a path: its own rules apply (ZooKeeper allows a bidi mark in a node name).
    assert.ok(!isConnectStringProblem(parseConnectString('a:1/x\u202ey')));
  });

  test('sameServers compares the set of servers, not their order, spelling of the default port, case or chroot', () => {
    assert.ok(sameServers('a:1,b:2', 'B:2,a:1/chroot'));
    assert.ok(sameServers('zk', 'zk:2181,zk:2181'));
    assert.ok(!sameServers('a:1', 'a:1,b:2'));
    assert.ok(!sameServers('127.0.0.1:2181', 'localhost:2181'));
    assert.ok(!sameServers('a:1', 'a:2'));
    assert.ok(!sameServers('a:1', 'a:0'), 'a bad connect string is never the same');
  });

  test('nothing to connect to', () => {
    for (const empty of ['', '   ', ',', '/chroot']) assert.deepEqual(parseConnectString(empty), { code: 'noServers' }, JSON.stringify(empty));
  });

  test('format is the inverse of parse, brackets around IPv6', () => {
    for (const text of ['a:1,b:2/x/y', '[::1]:2181', 'h:2181']) {
      const parsed = parseConnectString(text);
      assert.ok(!isConnectStringProblem(parsed));
      assert.equal(formatConnectString(parsed), text);
    }
    assert.equal(formatConnectString({ servers: [{ host: 'zk', port: 2181 }, { host: '::1', port: 5 }] }), 'zk:2181,[::1]:5');
  });
});
