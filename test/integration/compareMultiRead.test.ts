// The plan's read with multiRead (many nodes a request) against the node-by-node read it replaces, on a real
// server: the same snapshot and the same plan, and a listing that moved while it was read is still caught.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as zookeeper from 'node-zookeeper-client';
import { planCopy, planForShowing } from '../../src/zk/compare';
import { readLiveTree } from '../../src/zk/compare/readLive';
import type { TreeSnapshot } from '../../src/zk/compare/snapshot';
import { createNullable, getDataNullable } from '../../src/zk/protocol/nullableData';
import * as writes from '../../src/zk/protocol/writes';
import { ZkSession } from '../../src/zk/session/session';
import { mapBounded } from '../../src/zk/timeouts';
import { HOSTILE_NAMES } from '../support/fixtures/hostileFixture';
import { holdRequestsFrom } from '../support/fakes/requestGate';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const READ_ONLY_ACL: writes.AclEntry[] = [{ scheme: 'world', id: 'anyone', perms: 1 }];
// The session reads as `user`, so the server shows it the entry's hash (3.7+ hides it from sessions without ADMIN
// permission, and a copy refuses to plan with a hidden one: compare.test).
const DIGEST_CREDENTIAL = 'user:secret';
const DIGEST_ACL: writes.AclEntry[] = [
  { scheme: 'digest', id: `user:${createHash('sha1').update(DIGEST_CREDENTIAL).digest('base64')}`, perms: 31 },
  { scheme: 'world', id: 'anyone', perms: 1 },
];
const WIDE = 1000;

/** Every path's parent comes before it, unless the parent is not among them (it is there already). */
function assertParentsFirst(paths: readonly string[]): void {
  const all = new Set(paths);
  const seen = new Set<string>();
  for (const path of paths) {
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    assert.ok(!all.has(parent) || seen.has(parent), `${path} before its parent`);
    seen.add(path);
  }
}

/** What a snapshot says, in a form deepEqual compares (Maps and Sets as sorted entries). */
const plain = (s: TreeSnapshot) => ({
  ...s, nodes: [...s.nodes.entries()].sort(([a], [b]) => (a < b ? -1 : 1)), changed: [...s.changed].sort(), unreadable: [...s.unreadable].sort(),
});

describe('multiRead reads the same subtree as node-by-node reads (real server)', () => {
  let server: ZkCluster;
  let session: ZkSession;
  let other: OtherClient;
  const put = (path: string, data: Buffer | null, acl: readonly writes.AclEntry[] = writes.OPEN_ACL, flags = 0) =>
    createNullable(session.channel, { path, data, acl, flags });

  before(async () => {
    server = await startStandalone({ adminServer: false });
    session = new ZkSession({ connectString: server.connectString, sessionTimeoutMs: 20000, digest: [DIGEST_CREDENTIAL] });
    await session.open();
    other = await connectOtherClient(server.connectString, 30000);
    await put('/src', Buffer.from('root'));
    await put('/src/binary', Buffer.from([0, 0xff, 0xfe, 0x80, 0x0a]));
    await put('/src/null', null);
    await put('/src/empty', Buffer.alloc(0));
    await put('/src/readOnly', Buffer.from('r'), READ_ONLY_ACL);
    await put('/src/digest', Buffer.from('d'), DIGEST_ACL);
    await put('/src/container', Buffer.from('c'), writes.OPEN_ACL, writes.CreateFlags.container);
    await put('/src/seq-0000000007', Buffer.from('sequential name'));
    for (const name of Object.values(HOSTILE_NAMES)) await put(`/src/${name}`, Buffer.from(name));
    await put('/src/wide', null);
    await mapBounded(Array.from({ length: WIDE }, (_, i) => i), 256, (i) => put(`/src/wide/n${i}`, i % 3 === 0 ? null : Buffer.from(String(i))));
    await put('/src/wide/n1/deeper', Buffer.from('below a wide one'));
    await other.create('/src/ephemeral', 'e', zookeeper.CreateMode.EPHEMERAL);
    // An ACL set after the create (aversion 1), beside ones given at create (aversion 0).
    await writes.setAcl(session.channel, '/src/binary', READ_ONLY_ACL, -1);
    // The target: part of it there already, some of it different.
    await put('/dst', null);
    await put('/dst/binary', Buffer.from('other'));
    await put('/dst/null', Buffer.alloc(0));
    await put('/dst/extra', Buffer.from('x'));
  });

  after(async () => {
    session?.close();
    other?.close();
    await server?.stop();
  });

  test('the same snapshot (data, null vs empty, ACLs, kinds, Stats, 1,000 children), with and without ACLs', async () => {
    for (const acls of [true, false]) {
      const recorder = holdRequestsFrom(session.channel, () => false, async () => undefined);
      const batched = await readLiveTree(session, '/src', { acls });
      recorder.restore();
      // Many nodes a request: the data of 1,000+ nodes in well under 100 multiReads (plus a getACL each when wanted).
      const multiReads = recorder.wire.filter((line) => line === 'send multiRead').length;
      assert.ok(multiReads > 0 && multiReads < 100, `${multiReads} multiReads`);
      assert.equal(recorder.wire.filter((line) => line === 'send getData').length, 0);
      const single = await readLiveTree(session, '/src', { acls, multiRead: false });
      assert.equal(batched.nodes.size, WIDE + Object.keys(HOSTILE_NAMES).length + 11);
      assert.deepEqual(plain(batched), plain(single));
      assert.equal(batched.nodes.get('/null')!.data, null);
      assert.deepEqual(batched.nodes.get('/empty')!.data, Buffer.alloc(0));
      assert.deepEqual(batched.nodes.get('/digest')!.acl, acls ? DIGEST_ACL : undefined);
      assert.deepEqual(batched.nodes.get('/binary')!.acl, acls ? READ_ONLY_ACL : undefined);
    }
  });

  test('the same copy plan and mirror plan, with and without ACLs', async () => {
    for (const mirror of [false, true]) {
      for (const acls of [true, false]) {
        const batched = await planCopy({ session, root: '/src' }, session, '/dst', { mirror, acls });
        const single = await planCopy({ session, root: '/src' }, session, '/dst', { mirror, acls, multiRead: false });
        assert.equal(batched.problem, undefined, JSON.stringify(batched.problem));
        // The order read differs; the steps are the same, and each plan has parents before their children.
        assert.deepEqual({ ...batched, ...planForShowing(batched) }, { ...single, ...planForShowing(single) });
        for (const plan of [batched, single]) {
          assertParentsFirst(plan.writes.map((s) => s.path));
          assertParentsFirst(plan.deletes.map((s) => s.path).reverse());
        }
        assert.ok(batched.counts.create > WIDE);
      }
    }
  });

  test('replies too long for the channel: a batch is asked again in halves, one node too big fails alone, the connection stays', async () => {
    const small = new ZkSession({ connectString: server.connectString, sessionTimeoutMs: 20000, maxFrameBytes: 256 * 1024 });
    await small.open();
    try {
      await put('/big', null);
      await mapBounded(Array.from({ length: 40 }, (_, i) => i), 8, (i) => put(`/big/n${i}`, Buffer.alloc(20 * 1024, i)));
      await put('/big/n3/small', Buffer.from('below'));
      // 40 nodes of 20 KiB (800 KiB) do not fit one 256 KiB reply.
      const split = await readLiveTree(small, '/big', { acls: false });
      const singly = await readLiveTree(session, '/big', { acls: false, multiRead: false });
      assert.equal(split.error, undefined, JSON.stringify(split.error));
      assert.deepEqual(plain(split), plain(singly));
      assert.equal(split.nodes.size, 42);
      // A node whose data alone is over the limit: its read fails with a reason, nothing else does.
      await put('/huge', null);
      await put('/huge/blob', Buffer.alloc(300 * 1024, 7));
      const huge = await readLiveTree(small, '/huge', { acls: false });
      assert.deepEqual(huge.error, { code: 'replyTooLarge', operation: 'multiRead', path: '/huge/blob' });
      assert.equal(small.lastDrop, undefined, small.lastDrop);
      assert.equal((await getDataNullable(small.channel, '/big/n3/small', false)).data?.toString(), 'below');
    } finally {
      small.close();
    }
  });

  test('a listing that moved between its parent\'s Stat and its names (one child deleted, another created) is reported as changed', async () => {
    await put('/moving', null);
    await put('/moving/a', null);
    await put('/moving/b', null);
    // Held from the request that lists /moving (the root's data goes alone first; listings lead their request) until the writer is done.
    let seen = 0;
    const gate = holdRequestsFrom(session.channel, (operation, path) => operation === 'multiRead' && path === '/moving' && ++seen === 2, async () => {
      await other.remove('/moving/b');
      await other.create('/moving/c', 'new');
    });
    try {
      const snapshot = await readLiveTree(session, '/moving', { acls: false });
      assert.ok(gate.wire.includes('send multiRead'));
      assert.deepEqual([...snapshot.changed], ['/']);
      assert.deepEqual([...snapshot.nodes.keys()].sort(), ['/', '/a', '/c']);
    } finally {
      gate.restore();
    }
    const again = await readLiveTree(session, '/moving', { acls: false });
    assert.equal(again.changed.size, 0);
  });
});
