import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  checkRequestSize, checkTarget, checkTtl, digestId, formatAclEntry, formatPermissions, MAX_TTL_MS,
  parseAclEntry, parsePermissions, permissionLetters, permissionNeeded,
} from '../../src/zk/write';
import { isProtectedPath } from '../../src/zk/paths';

describe('ACL permission letters', () => {
  test('format in zkCli order and parse back, any order and case', () => {
    assert.equal(formatPermissions(31), 'cdrwa');
    assert.equal(formatPermissions(1 | 2), 'rw');
    assert.equal(formatPermissions(16 | 4), 'ca');
    assert.equal(formatPermissions(0), '');
    for (let bits = 0; bits < 32; bits++) assert.equal(parsePermissions(formatPermissions(bits)), bits);
    assert.equal(parsePermissions('AWRDC'), 31);
    assert.equal(parsePermissions('rr'), 1);
    assert.equal(parsePermissions('-'), 0);
    assert.deepEqual(parsePermissions('rwx'), { code: 'unknownPermission', letter: 'x', index: 2 });
    assert.deepEqual(permissionLetters(9), ['d', 'r']);
  });

  test('ACL entries as scheme:id:perms, ids with colons', () => {
    assert.deepEqual(parseAclEntry('world:anyone:cdrwa'), { scheme: 'world', id: 'anyone', perms: 31 });
    assert.deepEqual(parseAclEntry('digest:alice:V55/p2T0OpjQ+low3NVAH4aLvm0=:rw'), { scheme: 'digest', id: 'alice:V55/p2T0OpjQ+low3NVAH4aLvm0=', perms: 3 });
    assert.deepEqual(parseAclEntry('ip:::1:r'), { scheme: 'ip', id: '::1', perms: 1 });
    assert.deepEqual(parseAclEntry('auth::a'), { scheme: 'auth', id: '', perms: 16 });
    assert.deepEqual(parseAclEntry('world'), { code: 'badAclEntry', text: 'world' });
    assert.deepEqual(parseAclEntry('world:anyone:rwz'), { code: 'unknownPermission', letter: 'z', index: 2 });
    assert.equal(formatAclEntry({ scheme: 'ip', id: '10.0.0.0/8', perms: 1 }), 'ip:10.0.0.0/8:r');
  });

  test('digest ids match ZooKeeper\'s DigestAuthenticationProvider (values printed by its main())', () => {
    assert.equal(digestId('alice', 'pw'), 'alice:V55/p2T0OpjQ+low3NVAH4aLvm0=');
    assert.equal(digestId('super', 'test'), 'super:D/InIHSb7yEEbrWz8b9l71RjZJU=');
    assert.equal(digestId('ü', 'p:w'), 'ü:/FlbDnRBK9LIrt4VfzVS1ncbLYQ=');
  });
});

describe('write guards', () => {
  test('protected paths: / and /zookeeper with everything under it', () => {
    for (const p of ['/', '/zookeeper', '/zookeeper/quota', '/zookeeper/config']) assert.ok(isProtectedPath(p), p);
    for (const p of ['/zookeeperx', '/app/zookeeper', '/zoo']) assert.ok(!isProtectedPath(p), p);
    assert.deepEqual(checkTarget('/zookeeper/x'), { code: 'protectedPath' });
    assert.equal(checkTarget('/', { allowRoot: true }), undefined);
    assert.equal(checkTarget('/zookeeper', { allowProtected: true }), undefined);
    assert.deepEqual(checkTarget('/a//b'), { code: 'invalidPath', problem: { code: 'emptySegment', index: 3 } });
  });

  test('request size: header + record up to jute.maxbuffer; the limit says how much data would fit', () => {
    assert.equal(checkRequestSize(1048567, 100, { readOnly: false }), undefined);
    assert.deepEqual(checkRequestSize(1048568, 100, { readOnly: false }), { code: 'dataTooLarge', bytes: 100, limit: 99 });
    assert.deepEqual(checkRequestSize(2000, 1990, { readOnly: false, maxRequestBytes: 1000 }), { code: 'dataTooLarge', bytes: 1990, limit: 982 });
  });

  test('TTL range', () => {
    assert.equal(checkTtl(1), undefined);
    assert.equal(checkTtl(MAX_TTL_MS), undefined);
    for (const bad of [0, -1, 0.5, MAX_TTL_MS + 1, Number.NaN]) assert.equal(checkTtl(bad)?.code, 'invalidTtl', String(bad));
  });

  test('the permission a noAuth was about, and whose ACL decides', () => {
    assert.deepEqual(permissionNeeded('create', '/a/b'), { anyOf: ['c'], on: '/a' });
    assert.deepEqual(permissionNeeded('delete', '/a'), { anyOf: ['d'], on: '/' });
    assert.deepEqual(permissionNeeded('setData', '/a'), { anyOf: ['w'], on: '/a' });
    assert.deepEqual(permissionNeeded('getACL', '/a'), { anyOf: ['r', 'a'], on: '/a' });
    assert.deepEqual(permissionNeeded('setACL', '/a'), { anyOf: ['a'], on: '/a' });
    assert.equal(permissionNeeded('sync', '/a'), undefined);
  });
});
