// The server-free parts of compare: path globs for --ignore-data, and differences between two snapshots (null vs
// empty data told apart between live sides, equal when an export is involved; ACLs compared only when both known).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { diffSnapshots, emptySnapshot, NodeSnapshot, parsePathGlob, TreeSnapshot } from '../../src/zk/compare';

test('path globs: * within a name, ** across names (also none), ? one character', () => {
  const cases: [string, string, boolean][] = [
    ['/services/*/config', '/services/a/config', true], ['/services/*/config', '/services/a/b/config', false],
    ['/**/cache', '/cache', true], ['/**/cache', '/a/b/cache', true], ['/**/cache', '/a/cacheX', false],
    ['/tmp/**', '/tmp', true], ['/tmp/**', '/tmp/x/y', true], ['/tmp/**', '/tmpx', false],
    ['/n?', '/n1', true], ['/n?', '/n12', false], ['cfg.json', '/cfg.json', true], ['/a+b', '/a+b', true], ['/a+b', '/aab', false],
  ];
  for (const [glob, path, expected] of cases) assert.equal(parsePathGlob(glob)(path), expected, `${glob} ~ ${path}`);
});

function side(source: 'live' | 'export', nodes: Record<string, Partial<NodeSnapshot>>): TreeSnapshot {
  const snapshot = emptySnapshot(source, '/x');
  for (const [path, node] of Object.entries(nodes)) snapshot.nodes.set(path, { data: null, kind: 'persistent', ...node });
  return snapshot;
}

test('null and empty data differ between live sides, not when either side is an export', () => {
  const live = side('live', { '/': {}, '/a': { data: null } });
  const empty = { '/': {}, '/a': { data: Buffer.alloc(0) } };
  assert.deepEqual(diffSnapshots(live, side('live', empty)).map((d) => `${d.kind} ${d.path}`), ['data /a']);
  assert.deepEqual(diffSnapshots(live, side('export', empty)), []);
});

test('ACLs compared only where both sides know them; ignored on request; ephemeral nodes left out on request', () => {
  const open = [{ scheme: 'world', id: 'anyone', perms: 31 }];
  const readOnly = [{ scheme: 'world', id: 'anyone', perms: 1 }];
  const left = side('live', { '/': { acl: open }, '/a': { acl: open }, '/e': { kind: 'ephemeral' } });
  const right = side('export', { '/': {}, '/a': { acl: readOnly } });
  assert.deepEqual(diffSnapshots(left, right).map((d) => `${d.kind} ${d.path}`), ['acl /a', 'onlyLeft /e']);
  assert.deepEqual(diffSnapshots(left, right, { ignoreAcls: true, ignoreEphemeral: true }), []);
});

test('a copy op counts the bytes it adds to a multi request exactly (header and record)', async () => {
  const { copyOpBytes } = await import('../../src/zk/compare');
  const { multiBody } = await import('../../src/zk/protocol/multi');
  type Channel = Parameters<typeof multiBody>[0];
  const channel = { serverPath: (path: string) => `/chroot${path}` } as unknown as Channel;
  const data = Buffer.from('ünïcode data');
  const open = [{ scheme: 'world', id: 'anyone', perms: 31 }];
  const cases: [Parameters<typeof copyOpBytes>[1], Parameters<typeof multiBody>[1][number]][] = [
    [{ action: 'create', path: '/a/ü', data }, { type: 'create', path: '/a/ü', data, acl: open, flags: 0 }],
    [{ action: 'create', path: '/a/null', data: null }, { type: 'create', path: '/a/null', data: null, acl: open, flags: 0 }],
    [{ action: 'setData', path: '/a/b', data, version: 3, fromLength: 0 }, { type: 'setData', path: '/a/b', data, version: 3 }],
    [{ action: 'delete', path: '/a/b', version: 1 }, { type: 'delete', path: '/a/b', version: 1 }],
  ];
  for (const [step, op] of cases) assert.equal(copyOpBytes(channel, step), multiBody(channel, [op]).length - 9, step.action);
});
