// The plan's cheaper bookkeeping gives what the plain forms give: the path order of sort(comparePaths) and the
// create record's length as createBody serializes it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { comparePaths, createRecordBytes, sortPaths } from '../../src/zk/compare';
import { createBody } from '../../src/zk/protocol/writes';
import { HOSTILE_NAMES } from '../support/hostileFixture';

test('sortPaths orders paths as sort(comparePaths) does (names that start others, characters below "/", hostile names)', () => {
  const names = ['a', 'a-b', 'a.b', 'a b', 'ab', 'b', 'Z', '0', '!', 'ünï', '日本', '\u{1F600}', 'seq-0000000007', ...Object.values(HOSTILE_NAMES)];
  const paths = ['/'];
  for (const first of names) {
    paths.push(`/${first}`);
    for (const second of names.slice(0, 6)) paths.push(`/${first}/${second}`, `/${first}/${second}/${first}`);
  }
  // A fixed shuffle, so a failure is the same every run.
  let seed = 7;
  const shuffled = [...paths].sort(() => ((seed = (seed * 48271) % 2147483647) % 3) - 1);
  assert.deepEqual(sortPaths(shuffled), [...shuffled].sort(comparePaths));
  assert.deepEqual(sortPaths(new Set(['/a/b', '/a-b', '/a', '/'])), ['/', '/a', '/a/b', '/a-b']);
});

test('createRecordBytes counts what createBody serializes (data, null data, several ACL entries, a chroot)', () => {
  const channel = { serverPath: (path: string) => `/chroot${path}` } as unknown as Parameters<typeof createBody>[0];
  const acls = [
    [{ scheme: 'world', id: 'anyone', perms: 31 }],
    [{ scheme: 'digest', id: 'user:S1hXnDAb0RUdAVwzvqNnvkTtlSs=', perms: 31 }, { scheme: 'ip', id: '10.0.0.0/8', perms: 1 }],
    [],
  ];
  for (const acl of acls) {
    for (const data of [Buffer.from('ünïcode data'), Buffer.alloc(0), null]) {
      for (const path of ['/a/ü', `/x/${HOSTILE_NAMES.rtlOverride}`]) {
        assert.equal(createRecordBytes(channel, path, data, acl), createBody(channel, { path, data, acl, flags: 0 }).length, `${path} ${data?.length} ${acl.length}`);
      }
    }
  }
});
