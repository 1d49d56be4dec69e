import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ZkSession } from '../../src/zk/session/session';
import { sessionIdHex } from '../../src/zk/stat';
import * as writes from '../../src/zk/protocol/writes';
import { DEFAULT_MAX_REQUEST_BYTES, MAX_TTL_MS, Outcome, WriteFailure, ZnodeWriter } from '../../src/zk/write';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';

/** The failure of an outcome that must have failed. */
function failureOf(outcome: Outcome<object>): WriteFailure {
  assert.equal(outcome.ok, false, `expected a failure, got ${JSON.stringify(outcome, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
  return (outcome as { failure: WriteFailure }).failure;
}

function okOf<T extends object>(outcome: Outcome<T>): T {
  if (!outcome.ok) assert.fail(`expected success, got ${JSON.stringify(outcome.failure)}`);
  return outcome;
}

describe('ZnodeWriter: create, data and delete against a real ZooKeeper (extended types on)', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let writer: ZnodeWriter;
  let other: OtherClient;

  before(async () => {
    // The container manager also removes expired TTL nodes: check every 200 ms instead of every minute.
    zk = await startStandalone({ extendedTypes: true, adminServer: false, systemProperties: { 'znode.container.checkIntervalMs': '200' } });
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 10000, requestTimeoutMs: 10000 });
    await session.open();
    writer = new ZnodeWriter(session, { readOnly: false });
    other = await connectOtherClient(zk.connectString);
    await other.mkdirp('/w');
  });

  after(async () => {
    session?.close();
    other?.close();
    await zk?.stop();
  });

  test('persistent and sequential nodes: the real path, the data and the Stat come back', async () => {
    const plain = okOf(await writer.create({ path: '/w/plain', data: Buffer.from('hello') }));
    assert.equal(plain.path, '/w/plain');
    assert.equal(plain.stat.dataLength, 5);
    assert.equal(plain.stat.ephemeralOwner, 0n);
    assert.deepEqual((await session.getData('/w/plain')).data, Buffer.from('hello'));
    const seq = okOf(await writer.create({ path: '/w/job-', mode: 'persistentSequential' }));
    assert.match(seq.path, /^\/w\/job-\d{10}$/);
    assert.ok(await session.exists(seq.path));
  });

  test('ephemeral and ephemeral-sequential nodes belong to our session and vanish with it', async () => {
    const temp = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 6000 });
    await temp.open();
    const tempWriter = new ZnodeWriter(temp, { readOnly: false });
    const eph = okOf(await tempWriter.create({ path: '/w/eph', mode: 'ephemeral' }));
    const seq = okOf(await tempWriter.create({ path: '/w/eph-', mode: 'ephemeralSequential' }));
    assert.match(seq.path, /^\/w\/eph-\d{10}$/);
    assert.equal(sessionIdHex(eph.stat.ephemeralOwner), temp.sessionId);
    assert.equal(sessionIdHex(seq.stat.ephemeralOwner), temp.sessionId);
    temp.close();
    await eventually(async () => !(await session.exists('/w/eph')) && !(await session.exists(seq.path)), 10000, 'ephemerals to vanish');
  });

  test('a container is removed by the server once its last child goes; a persistent node is not', async () => {
    okOf(await writer.create({ path: '/w/box', mode: 'container' }));
    okOf(await writer.create({ path: '/w/box/item' }));
    okOf(await writer.create({ path: '/w/keep' }));
    okOf(await writer.create({ path: '/w/keep/item' }));
    okOf(await writer.delete('/w/box/item', -1));
    okOf(await writer.delete('/w/keep/item', -1));
    await eventually(async () => !(await session.exists('/w/box')), 15000, 'the container to be removed');
    assert.ok(await session.exists('/w/keep'), 'a persistent node stays');
  });

  test('TTL nodes: created with their duration, removed by the server when it passes', async () => {
    const ttl = okOf(await writer.create({ path: '/w/short', mode: 'ttl', ttlMs: 300 }));
    assert.equal(ttl.mode, 'ttl');
    const seq = okOf(await writer.create({ path: '/w/lease-', mode: 'ttlSequential', ttlMs: 3_600_000 }));
    assert.match(seq.path, /^\/w\/lease-\d{10}$/);
    await eventually(async () => !(await session.exists('/w/short')), 15000, 'the TTL node to expire');
    assert.ok(await session.exists(seq.path), 'a one-hour TTL node is still there');
  });

  test('a TTL outside 1 ms … 2^40-1 ms is refused before sending (the server would answer badArguments)', async () => {
    for (const ttlMs of [0, -5, 1.5, MAX_TTL_MS + 1]) {
      const failure = failureOf(await writer.create({ path: '/w/badttl', mode: 'ttl', ttlMs }));
      assert.equal(failure.code, 'invalidTtl');
    }
    failureOf(await writer.create({ path: '/w/nottl', mode: 'ttl' }));
    assert.equal(await session.exists('/w/badttl'), undefined);
    // The largest TTL the server takes is accepted.
    okOf(await writer.create({ path: '/w/maxttl', mode: 'ttl', ttlMs: MAX_TTL_MS }));
  });

  test('create parents (mkdir -p): missing ancestors become persistent, the sequential name comes back', async () => {
    const made = okOf(await writer.create({ path: '/w/deep/er/node-', mode: 'persistentSequential', data: Buffer.from('x'), createParents: true }));
    assert.match(made.path, /^\/w\/deep\/er\/node-\d{10}$/);
    assert.deepEqual(made.createdParents, ['/w/deep', '/w/deep/er']);
    for (const parent of made.createdParents) assert.equal((await session.exists(parent))?.ephemeralOwner, 0n);
    const again = okOf(await writer.create({ path: '/w/deep/er/other', createParents: true }));
    assert.deepEqual(again.createdParents, []);
    const ephemeral = okOf(await writer.create({ path: '/w/p2/q/e', mode: 'ephemeral', createParents: true }));
    assert.deepEqual(ephemeral.createdParents, ['/w/p2', '/w/p2/q']);
    assert.equal((await session.exists('/w/p2/q'))?.ephemeralOwner, 0n);
  });

  test('invalid names are refused before anything is sent', async () => {
    for (const name of ['a/b', '', '.', '..', 'bad\u0001name', 'x\ud800']) {
      const child = ZnodeWriter.childPath('/w', name);
      assert.equal(child.ok, false, name);
    }
    assert.deepEqual(ZnodeWriter.childPath('/w', 'fine name ü'), { ok: true, path: '/w/fine name ü' });
    for (const path of ['w/rel', '/w//x', '/w/x/', '/w/./x', '/w/bad\u007f']) {
      const failure = failureOf(await writer.create({ path }));
      assert.equal(failure.code, 'invalidPath', path);
      assert.equal(failure.operation, 'create');
      assert.equal(failure.path, path);
    }
    const children = await session.getChildren('/w');
    assert.ok(!children.children.some((c) => c.includes('bad') || c === 'rel'));
  });

  test('nodeExists, noNode (missing parent) and noChildrenForEphemerals are outcomes naming path and operation', async () => {
    okOf(await writer.create({ path: '/w/dup' }));
    assert.deepEqual(failureOf(await writer.create({ path: '/w/dup' })), { code: 'nodeExists', operation: 'create', path: '/w/dup', zkCode: -110 });
    assert.equal(failureOf(await writer.create({ path: '/w/missing/child' })).code, 'noNode');
    okOf(await writer.create({ path: '/w/owner', mode: 'ephemeral' }));
    const failure = failureOf(await writer.create({ path: '/w/owner/child' }));
    assert.equal(failure.code, 'noChildrenForEphemerals');
    assert.equal(failure.path, '/w/owner/child');
  });

  test('getData returns data and Stat; setData with the expected version; badVersion is an outcome', async () => {
    okOf(await writer.create({ path: '/w/cfg', data: Buffer.from('v0') }));
    const read = okOf(await writer.getData('/w/cfg'));
    assert.deepEqual(read.data, Buffer.from('v0'));
    const saved = okOf(await writer.setData('/w/cfg', Buffer.from('v1'), read.stat.version));
    assert.equal(saved.stat.version, read.stat.version + 1);
    await other.setData('/w/cfg', 'someone else');
    const stale = failureOf(await writer.setData('/w/cfg', Buffer.from('v2'), saved.stat.version));
    assert.deepEqual(stale, { code: 'badVersion', operation: 'setData', path: '/w/cfg', zkCode: -103 });
    assert.deepEqual((await session.getData('/w/cfg')).data, Buffer.from('someone else'));
    assert.equal(failureOf(await writer.setData('/w/gone', Buffer.from('x'), -1)).code, 'noNode');
    assert.equal(failureOf(await writer.getData('/w/gone')).code, 'noNode');
  });

  test('data size: exactly the limit is stored, one byte more is refused before sending', async () => {
    const path = '/w/big';
    okOf(await writer.create({ path }));
    const limit = writer.maxDataBytes(path);
    // setData of /w/big: 8 header + (4 + 6) path + 4 data length + 4 version.
    assert.equal(limit, DEFAULT_MAX_REQUEST_BYTES - 26);
    const saved = okOf(await writer.setData(path, Buffer.alloc(limit, 0x61), -1));
    assert.equal(saved.stat.dataLength, limit);
    const tooBig = failureOf(await writer.setData(path, Buffer.alloc(limit + 1, 0x62), -1));
    assert.deepEqual(tooBig, { code: 'dataTooLarge', bytes: limit + 1, limit, operation: 'setData', path });
    assert.equal((await session.exists(path))?.dataLength, limit, 'nothing was written');
    // create carries the ACL and flags too: 8 + (4 + 7) path + 4 data length + 27 ACL vector (world:anyone) + 4 flags.
    const createLimit = writer.maxDataBytes('/w/big2', 'create');
    assert.equal(createLimit, DEFAULT_MAX_REQUEST_BYTES - 54);
    const createTooBig = failureOf(await writer.create({ path: '/w/big2', data: Buffer.alloc(createLimit + 1) }));
    assert.deepEqual(createTooBig, { code: 'dataTooLarge', bytes: createLimit + 1, limit: createLimit, operation: 'create', path: '/w/big2' });
    okOf(await writer.create({ path: '/w/big2', data: Buffer.alloc(createLimit, 0x63) }));
    assert.equal((await session.exists('/w/big2'))?.dataLength, createLimit);
    // A configured larger server limit lets more through the guard; a smaller one refuses earlier.
    const strict = new ZnodeWriter(session, { readOnly: false, maxRequestBytes: 1000 });
    assert.equal(failureOf(await strict.setData(path, Buffer.alloc(1000), -1)).code, 'dataTooLarge');
  });

  test('the server really drops a request one byte over the limit (why the guard exists)', async () => {
    const path = '/w/edge';
    okOf(await writer.create({ path }));
    const limit = writer.maxDataBytes(path);
    await assert.rejects(session.request(writes.setData(session.channel, path, Buffer.alloc(limit + 1), -1), 'setData', path),
      (e: { code?: string }) => e.code === 'connectionLoss');
    await eventually(() => session.state === 'connected', 15000, 'the reconnect');
    assert.equal((await session.exists(path))?.dataLength, 0);
  });

  test('delete: version check, notEmpty, noNode; "/" and /zookeeper are never deleted', async () => {
    okOf(await writer.create({ path: '/w/d1', data: Buffer.from('a') }));
    await other.setData('/w/d1', 'b');
    assert.equal(failureOf(await writer.delete('/w/d1', 0)).code, 'badVersion');
    okOf(await writer.delete('/w/d1', 1));
    assert.equal(failureOf(await writer.delete('/w/d1', -1)).code, 'noNode');
    okOf(await writer.create({ path: '/w/d2/c', createParents: true }));
    assert.equal(failureOf(await writer.delete('/w/d2', -1)).code, 'notEmpty');
    for (const path of ['/', '/zookeeper', '/zookeeper/quota', '/zookeeper/config']) {
      assert.equal(failureOf(await writer.delete(path, -1)).code, 'protectedPath', path);
      assert.equal(failureOf(await writer.setData(path, Buffer.from('x'), -1)).code, 'protectedPath', path);
    }
    assert.ok(await session.exists('/zookeeper/quota'));
  });

  test('delete many selected nodes: children before parents, already gone is fine, failures listed', async () => {
    for (const p of ['/w/m/a', '/w/m/a/x', '/w/m/b', '/w/m/c', '/w/m/c/keep']) okOf(await writer.create({ path: p, createParents: true }));
    await other.remove('/w/m/b');
    const report = await writer.deleteMany([{ path: '/w/m/a' }, { path: '/w/m/a/x' }, { path: '/w/m/b' }, { path: '/w/m/c' }, { path: '/zookeeper' }]);
    assert.deepEqual(report.deleted.sort(), ['/w/m/a', '/w/m/a/x']);
    assert.deepEqual(report.alreadyGone, ['/w/m/b']);
    assert.deepEqual(report.failed.map((f) => [f.path, f.code]).sort(), [['/w/m/c', 'notEmpty'], ['/zookeeper', 'protectedPath']]);
  });
});

describe('ZnodeWriter on a server without extended types', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  let writer: ZnodeWriter;

  before(async () => {
    zk = await startStandalone({ extendedTypes: false, adminServer: false });
    session = new ZkSession({ connectString: zk.connectString, requestTimeoutMs: 10000 });
    await session.open();
    writer = new ZnodeWriter(session, { readOnly: false });
  });

  after(async () => {
    session?.close();
    await zk?.stop();
  });

  test('TTL nodes answer extendedTypesDisabled (3.8.0 says unimplemented); the session stays usable', async () => {
    for (const mode of ['ttl', 'ttlSequential'] as const) {
      const failure = failureOf(await writer.create({ path: '/lease', mode, ttlMs: 60000 }));
      assert.deepEqual(failure, { code: 'extendedTypesDisabled', operation: 'create', path: '/lease', zkCode: -6 });
    }
    assert.equal(session.state, 'connected');
    assert.equal(await session.exists('/lease'), undefined);
  });

  test('containers need no extended types', async () => {
    const box = okOf(await writer.create({ path: '/box', mode: 'container' }));
    assert.equal(box.path, '/box');
  });
});
