import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { OpCode } from '../../src/zk/protocol/opcodes';
import { ZkSession } from '../../src/zk/session/session';
import { mapBounded } from '../../src/zk/timeouts';
import { DeleteExecution, DeletePlan, executeDeletePlan, planRecursiveDelete, WriteFailure } from '../../src/zk/write';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';

/** Creates `root` with `fanout` children per node, `depth` levels below it; returns every path (root first). */
async function buildTree(client: OtherClient, root: string, fanout: number, depth: number): Promise<string[]> {
  await client.mkdirp(root);
  const all = [root];
  let level = [root];
  for (let d = 0; d < depth; d++) {
    const next = level.flatMap((parent) => Array.from({ length: fanout }, (_, i) => `${parent}/n${i}`));
    await mapBounded(next, 256, (p) => client.create(p, 'x'));
    all.push(...next);
    level = next;
  }
  return all;
}

async function plan(session: ZkSession, root: string): Promise<DeletePlan> {
  const planned = await planRecursiveDelete(session, root);
  if (!planned.ok) assert.fail(`plan failed: ${JSON.stringify(planned.failure)}`);
  return planned.plan;
}

async function execute(session: ZkSession, p: DeletePlan, options: Parameters<typeof executeDeletePlan>[3] = {}): Promise<DeleteExecution> {
  const done = await executeDeletePlan(session, p, { readOnly: false }, options);
  if (!done.ok) assert.fail(`execute refused: ${JSON.stringify(done.failure)}`);
  return done.report;
}

// One server for the file: every test works under its own root path.
let zk: ZkCluster;
before(async () => { zk = await startStandalone({ adminServer: false }); });
after(async () => { await zk?.stop(); });

describe('recursive delete: preview, then execute exactly the plan', () => {
  let session: ZkSession;
  let other: OtherClient;

  before(async () => {
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 15000 });
    await session.open();
    other = await connectOtherClient(zk.connectString, 30000);
  });

  after(() => {
    session?.close();
    other?.close();
  });

  test('the plan counts nodes, keeps samples and lists ephemerals of other sessions with their owner', async () => {
    const paths = await buildTree(other, '/p1', 3, 3); // 1 + 3 + 9 + 27
    await other.create('/p1/n0/lock-', '', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    await other.create('/p1/n1/member', '', zookeeper.CreateMode.EPHEMERAL);
    await new Promise<void>((resolve, reject) => session.client.create('/p1/mine', Buffer.alloc(0), zookeeper.CreateMode.EPHEMERAL, (e) => (e ? reject(e) : resolve())));
    const progress: number[] = [];
    const planned = await planRecursiveDelete(session, '/p1', { samples: 5, onProgress: (p) => progress.push(p.visited) });
    assert.ok(planned.ok);
    const p = planned.plan;
    assert.equal(p.count, paths.length + 3);
    assert.equal(p.complete, true);
    assert.equal(p.samples.length, 5);
    assert.equal(p.samples[0], '/p1');
    assert.equal(p.foreignEphemeralCount, 2);
    const otherOwner = other.sessionId;
    assert.deepEqual(p.foreignEphemerals.map((e) => e.owner), [otherOwner, otherOwner]);
    assert.deepEqual(p.foreignEphemerals.map((e) => e.path.replace(/\d{10}$/, '')).sort(), ['/p1/n0/lock-', '/p1/n1/member']);
    assert.equal(p.ownEphemeralCount, 1);
    assert.ok(progress.length >= 1 && progress[progress.length - 1] === p.count, `progress ${progress}`);
    // Deepest first: every node comes after all of its descendants.
    const position = new Map(p.paths.map((path, i) => [path, i]));
    for (const path of p.paths) {
      const parent = path.slice(0, path.lastIndexOf('/')) || '/';
      if (position.has(parent)) assert.ok(position.get(parent)! > position.get(path)!, `${parent} after ${path}`);
    }
    const report = await execute(session, p, { batchSize: 7 });
    assert.equal(report.deleted.length, p.count);
    assert.deepEqual(report.notDeleted, []);
    assert.equal(report.remaining, 0);
    assert.equal(await session.exists('/p1'), undefined);
  });

  test('"/" and /zookeeper are refused structurally; a missing root is noNode', async () => {
    for (const root of ['/', '/zookeeper', '/zookeeper/quota']) {
      const planned = await planRecursiveDelete(session, root);
      assert.equal(planned.ok, false);
      assert.equal((planned as { failure: WriteFailure }).failure.code, 'protectedPath', root);
    }
    const missing = await planRecursiveDelete(session, '/nothing-here');
    assert.equal((missing as { failure: WriteFailure }).failure.code, 'noNode');
  });

  test('a child created after the preview is not deleted: reported with its parent, ancestors left alone, the rest deleted', async () => {
    await buildTree(other, '/p2', 2, 2); // /p2, /p2/n0, /p2/n1, and their children
    const p = await plan(session, '/p2');
    await other.create('/p2/n0/n1/late', 'new');
    await other.remove('/p2/n1/n0'); // someone else deleted a planned node: fine
    await other.setData('/p2/n1/n1', 'changed'); // changed since the preview: left alone (badVersion)
    const report = await execute(session, p);
    assert.ok(await session.exists('/p2/n0/n1/late'), 'the new child survives');
    const byPath = new Map(report.notDeleted.map((f) => [f.path, f]));
    assert.equal(byPath.get('/p2/n0/n1')?.code, 'notEmpty');
    assert.deepEqual((byPath.get('/p2/n0/n1') as { newChildren?: string[] }).newChildren, ['/p2/n0/n1/late']);
    assert.equal(byPath.get('/p2/n1/n1')?.code, 'badVersion');
    assert.deepEqual(byPath.get('/p2/n0'), { code: 'childNotDeleted', child: '/p2/n0/n1', operation: 'delete', path: '/p2/n0' });
    assert.equal(byPath.get('/p2/n1')?.code, 'childNotDeleted');
    assert.equal(byPath.get('/p2')?.code, 'childNotDeleted');
    assert.deepEqual(report.alreadyGone, ['/p2/n1/n0']);
    assert.deepEqual(report.deleted.sort(), ['/p2/n0/n0']);
    assert.equal(report.deleted.length + report.alreadyGone.length + report.notDeleted.length, p.count);
  });

  test('cancelling: the preview says it is incomplete (and cannot be executed); execution stops between batches', async () => {
    await buildTree(other, '/p3', 10, 3); // 1111 nodes
    // Cancelled half-way whatever the machine's speed: the walk goes through a proxy that cancels it the moment
    // the walk's 51st listing request reaches it, before passing it on. By then at least 51 - window listings were
    // answered, and no later one can be (a progress report every 100 ms let a fast machine finish first).
    const abort = new AbortController();
    const maxInFlight = 8;
    let listings = 0;
    const gate = await startProxy(zk.members[0].clientPort, {
      rewriteClientFrame: (frame) => {
        if (frame.opCode === OpCode.getChildren2 && ++listings === 51) abort.abort();
        return undefined;
      },
    });
    const gated = new ZkSession({ connectString: `127.0.0.1:${gate.port}`, sessionTimeoutMs: 15000, requestTimeoutMs: 15000 });
    try {
      await gated.open();
      const partial = await planRecursiveDelete(gated, '/p3', { signal: abort.signal, window: maxInFlight });
      assert.ok(partial.ok);
      assert.equal(partial.plan.complete, false);
      assert.equal(partial.plan.crawl.cancelled, true);
      const visited = partial.plan.crawl.visited;
      assert.ok(visited >= 51 - maxInFlight && visited <= 50, `visited ${visited}`);
      assert.equal(partial.plan.count, visited);
      const refused = await executeDeletePlan(gated, partial.plan, { readOnly: false });
      assert.equal((refused as { failure: WriteFailure }).failure.code, 'incompletePlan');
    } finally {
      gated.close();
      await gate.close();
    }
    const full = await plan(session, '/p3');
    const stop = new AbortController();
    const report = await execute(session, full, { batchSize: 100, signal: stop.signal, onProgress: (pr) => { if (pr.done >= 300) stop.abort(); } });
    assert.equal(report.cancelled, true);
    assert.equal(report.deleted.length, 300);
    assert.equal(report.remaining, full.count - 300);
    assert.ok(await session.exists('/p3'));
    const rest = await execute(session, full);
    assert.equal(rest.deleted.length, full.count - 300);
    assert.equal(rest.alreadyGone.length, 300);
    assert.deepEqual(rest.notDeleted, []);
  });
});

describe('recursive delete: the connection is lost half-way', () => {
  let proxy: TcpProxy;
  let session: ZkSession;
  let other: OtherClient;
  /**
   * What to do with the n-th multi frame: 'swallow' it (it never reaches the server) and cut, or 'pass' it, wait
   * for the server's reply to it, drop that reply and only then cut (so the server has certainly applied it).
   */
  let cutAtMulti: { n: number; how: 'swallow' | 'pass' } | undefined;
  let multis = 0;
  /** The passed multi whose reply is to be lost: its connection and xid. */
  let answerToLose: { connection: number; xid: number } | undefined;

  before(async () => {
    proxy = await startProxy(zk.members[0].clientPort, {
      rewriteClientFrame: (frame) => {
        if (frame.opCode !== OpCode.multi || !cutAtMulti) return undefined;
        if (++multis !== cutAtMulti.n) return undefined;
        const how = cutAtMulti.how;
        cutAtMulti = undefined;
        if (how === 'pass') {
          answerToLose = { connection: frame.connection, xid: frame.xid! };
          return undefined;
        }
        setImmediate(() => proxy.cutAll());
        return null;
      },
      rewriteServerFrame: (frame) => {
        if (!answerToLose || frame.connection !== answerToLose.connection || frame.xid !== answerToLose.xid) return undefined;
        answerToLose = undefined;
        proxy.cutAll();
        return null;
      },
    });
    session = new ZkSession({ connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 20000, requestTimeoutMs: 15000 });
    await session.open();
    other = await connectOtherClient(zk.connectString, 30000);
  });

  after(async () => {
    session?.close();
    other?.close();
    await proxy?.close();
  });

  for (const how of ['swallow', 'pass'] as const) {
    test(`the report says what happened and running the plan again finishes the job (multi ${how === 'swallow' ? 'lost before the server' : 'applied, answer lost'})`, async () => {
      const root = `/lost-${how}`;
      const paths = await buildTree(other, root, 12, 3); // 1885 nodes
      const p = await plan(session, root);
      assert.equal(p.count, paths.length);
      multis = 0;
      cutAtMulti = { n: 3, how };
      const first = await execute(session, p, { batchSize: 200 });
      assert.equal(first.interrupted?.code, 'connectionLoss');
      assert.equal(answerToLose, undefined, 'the server answered the third multi, and that answer was dropped');
      assert.equal(first.deleted.length, 400, 'two batches went through before the cut');
      assert.equal(first.remaining, p.count - 400);
      assert.deepEqual(first.notDeleted, []);
      await eventually(() => session.state === 'connected', 20000, 'the reconnect');
      const second = await execute(session, p, { batchSize: 200 });
      assert.equal(second.interrupted, undefined);
      assert.deepEqual(second.notDeleted, []);
      assert.equal(second.remaining, 0);
      // The second run accounts for every node once: what the first run deleted is already gone now.
      assert.equal(second.deleted.length + second.alreadyGone.length, p.count);
      const gone = new Set(second.alreadyGone);
      assert.ok(first.deleted.every((path) => gone.has(path)));
      assert.equal(new Set([...second.deleted, ...second.alreadyGone]).size, p.count, 'no node counted twice');
      // The lost batch: never applied (swallowed), or applied without an answer (its nodes are gone too).
      assert.equal(second.alreadyGone.length, how === 'swallow' ? 400 : 600);
      assert.equal(await session.exists(root), undefined);
    });
  }
});
