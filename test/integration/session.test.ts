import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { ZkSession } from '../../src/zk/session/session';
import { nodeKind } from '../../src/zk/stat';
import { WatchEvent } from '../../src/zk/session/watchRegistry';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { fourLetterWord } from '../support/ports';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';

describe('ZkSession against a real ZooKeeper', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let session: ZkSession;

  before(async () => {
    zk = await startStandalone();
    other = await connectOtherClient(zk.connectString);
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 6000, requestTimeoutMs: 5000 });
    await session.open();
  });

  after(async () => {
    session?.close();
    other?.close();
    await zk?.stop();
  });

  test('connects and reports an exact 64-bit session id and the server', async () => {
    assert.equal(session.state, 'connected');
    assert.match(session.sessionId ?? '', /^0x[0-9a-f]{9,16}$/);
    // The server's own connection table names the same session id.
    const cons = await fourLetterWord(zk.members[0].clientPort, 'cons');
    assert.ok(cons.includes(`sid=${session.sessionId},`), cons);
    assert.equal(session.serverAddress, zk.members[0].address);
  });

  test('getChildren returns names and the node Stat in one call', async () => {
    await other.mkdirp('/s/children');
    for (const name of ['a', 'b', 'c']) await other.create(`/s/children/${name}`, 'x');
    const reply = await session.getChildren('/s/children');
    assert.deepEqual([...reply.children].sort(), ['a', 'b', 'c']);
    assert.equal(reply.stat.numChildren, 3);
    assert.equal(typeof reply.stat.czxid, 'bigint');
  });

  test('exists returns undefined for a missing node and a Stat with ephemeral owner for an ephemeral', async () => {
    assert.equal(await session.exists('/s/missing'), undefined);
    await other.create('/s/eph', 'e', zookeeper.CreateMode.EPHEMERAL);
    const stat = await session.exists('/s/eph');
    assert.ok(stat);
    assert.equal(nodeKind(stat), 'ephemeral');
    assert.equal(stat.ephemeralOwner, other.client.getSessionId().readBigUInt64BE(0));
  });

  test('getData is binary safe', async () => {
    const bytes = Buffer.from([0, 255, 128, 10, 0xc3]);
    await other.create('/s/bin', bytes);
    const { data, stat } = await session.getData('/s/bin');
    assert.deepEqual(data, bytes);
    assert.equal(stat.dataLength, 5);
  });

  test('getAllChildrenNumber counts all descendants', async () => {
    await other.mkdirp('/s/count/x/y');
    await other.mkdirp('/s/count/z');
    assert.equal(await session.getAllChildrenNumber('/s/count'), 3);
  });

  test('whoAmI names the digest identity added to the session', async () => {
    const withAuth = new ZkSession({ connectString: zk.connectString, digest: ['alice:secret'] });
    await withAuth.open();
    try {
      const ids = await withAuth.whoAmI();
      assert.ok(ids.some((id) => id.scheme === 'digest' && id.user === 'alice'), JSON.stringify(ids));
    } finally {
      withAuth.close();
    }
  });

  test('a missing node fails with noNode, naming the operation and path', async () => {
    await assert.rejects(session.getChildren('/s/nope'), (e: Error & { code?: string; path?: string }) =>
      e.code === 'noNode' && e.path === '/s/nope' && /getChildren/.test(e.message));
  });

  test('a persistent watch sees children and data changes by another client, and stops when dropped', async () => {
    await other.mkdirp('/s/watched');
    const events: WatchEvent[] = [];
    const stop = await session.watches.watch('/s/watched', (e) => events.push(e));
    assert.equal(session.watches.persistent, true);
    await other.create('/s/watched/one');
    await eventually(() => events.some((e) => e.kind === 'childrenChanged'), 3000, 'childrenChanged');
    await other.setData('/s/watched', 'v2');
    await eventually(() => events.some((e) => e.kind === 'dataChanged'), 3000, 'dataChanged');
    await other.create('/s/watched/two');
    await eventually(() => events.filter((e) => e.kind === 'childrenChanged').length === 2, 3000, 'second childrenChanged');
    const watched = () => fourLetterWord(zk.members[0].clientPort, 'wchp').then((w) => w.includes('/s/watched\n'));
    assert.ok(await watched(), 'the server lists the persistent watch');
    stop();
    await eventually(async () => !(await watched()), 3000, 'the server to drop the watch');
    const before = events.length;
    await other.create('/s/watched/three');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(events.length, before, 'no events after the watch was dropped');
  });

  test('library requests and our own requests interleave in one pipeline without losing order', async () => {
    await other.mkdirp('/s/mixed');
    const ours = Array.from({ length: 200 }, (_, i) => (i % 2 ? session.exists('/s/mixed') : session.getChildren('/s/mixed')));
    const theirs = Array.from({ length: 50 }, () => new Promise<void>((resolve, reject) =>
      session.client.exists('/s/mixed', (error) => (error ? reject(error) : resolve()))));
    const results = await Promise.all([...ours, ...theirs]);
    assert.equal(results.length, 250);
  });
});
