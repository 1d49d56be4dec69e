// The plan's cheaper bookkeeping gives what the plain forms give: the path order of sort(comparePaths) and the
// create record's length as createBody serializes it; the plan's order (as read) and the order it is shown in.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { absolutePath, comparePaths, CopyPlan, CopyStep, emptySnapshot, entriesParentsFirst, inPathOrder, parentsFirst, planForShowing, recordBytesUnder, sortPaths } from '../../src/zk/compare';
import { createBody } from '../../src/zk/protocol/writes';
import { HOSTILE_NAMES } from '../support/fixtures/hostileFixture';

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

test('recordBytesUnder counts what createBody serializes (data, null data, several ACL entries alternating, every target root and chroot)', () => {
  const acls = [
    [{ scheme: 'world', id: 'anyone', perms: 31 }],
    [{ scheme: 'digest', id: 'üser:S1hXnDAb0RUdAVwzvqNnvkTtlSs=', perms: 31 }, { scheme: 'ip', id: '10.0.0.0/8', perms: 1 }],
    [],
  ];
  for (const chroot of ['', '/chroot', '/ch/ü']) {
    const channel = { serverPath: (path: string) => (!chroot ? path : path === '/' ? chroot : chroot + path) } as unknown as Parameters<typeof createBody>[0];
    for (const root of ['/', '/t', '/t/日本']) {
      const bytes = recordBytesUnder(channel, root);
      for (const relative of ['/', '/a/ü', `/x/${HOSTILE_NAMES.rtlOverride}`]) {
        const path = absolutePath(relative, root);
        if (path === '/') continue; // the root itself is never created
        for (const acl of [...acls, acls[0]]) {
          for (const data of [Buffer.from('ünïcode data'), Buffer.alloc(0), null]) {
            assert.equal(bytes(relative, data, acl), createBody(channel, { path, data, acl, flags: 0 }).length, `${chroot} ${root} ${relative} ${data?.length} ${acl.length}`);
          }
        }
      }
    }
  }
});

test('entriesParentsFirst gives parentsFirst\'s paths with their nodes (a live read as read, an export sorted)', () => {
  for (const source of ['live', 'export'] as const) {
    const snapshot = emptySnapshot(source, '/src');
    for (const path of ['/', '/b', '/b/z', '/a']) snapshot.nodes.set(path, { data: Buffer.from(path), kind: 'persistent' });
    const entries = [...entriesParentsFirst(snapshot)];
    assert.deepEqual(entries.map(([path]) => path), [...parentsFirst(snapshot)]);
    for (const [path, node] of entries) assert.equal(node, snapshot.nodes.get(path));
  }
});

test('a plan is applied in the order read (parents first) and shown in path order; an export is sorted before planning', () => {
  const live = emptySnapshot('live', '/src');
  for (const path of ['/', '/b', '/b/z', '/a', '/b/y', '/a/x']) live.nodes.set(path, { data: null, kind: 'persistent' });
  assert.deepEqual([...parentsFirst(live)], ['/', '/b', '/b/z', '/a', '/b/y', '/a/x']);
  const exported = emptySnapshot('export', '/src');
  for (const path of ['/a/x', '/b', '/', '/a']) exported.nodes.set(path, { data: null, kind: 'persistent' });
  assert.deepEqual([...parentsFirst(exported)], ['/', '/a', '/a/x', '/b']);

  const step = (path: string): CopyStep => ({ action: 'create', path, data: null });
  const plan = {
    writes: ['/t/b', '/t/b/z', '/t/a', '/t/a-b', '/t/a/x'].map(step),
    deletes: ['/t/q/r', '/t/p', '/t/q'].map((path): CopyStep => ({ action: 'delete', path, version: 0 })),
    aclChanges: [], skipped: [{ path: '/t/s', reason: { code: 'ephemeral' } }, { path: '/t/e', reason: { code: 'ephemeral' } }],
  } as unknown as CopyPlan;
  const shown = planForShowing(plan);
  assert.deepEqual(shown.writes.map((s) => s.path), ['/t/a', '/t/a/x', '/t/a-b', '/t/b', '/t/b/z']);
  assert.deepEqual(shown.deletes.map((s) => s.path), ['/t/q/r', '/t/q', '/t/p']);
  assert.deepEqual(shown.skipped.map((s) => s.path), ['/t/e', '/t/s']);
  // Two steps of one path both stay.
  assert.deepEqual(inPathOrder([{ path: '/b', n: 1 }, { path: '/a', n: 2 }, { path: '/b', n: 3 }]).map((x) => x.n), [2, 1, 3]);
});
