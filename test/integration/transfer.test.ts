import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { OpCode } from '../../src/zk/protocol/opcodes';
import { ZkSession } from '../../src/zk/session/session';
import { mapBounded } from '../../src/zk/timeouts';
import { CopyPlan, CopyReport, executeCopy, planCopy } from '../../src/zk/compare';
import { ExportDocument, exportSubtree, parseExport } from '../../src/zk/transfer';
import { WriteFailure } from '../../src/zk/write';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';

async function exportText(session: ZkSession, root: string): Promise<{ text: string; summary: Awaited<ReturnType<typeof exportSubtree>> }> {
  const chunks: string[] = [];
  const summary = await exportSubtree(session, root, (c) => chunks.push(c));
  return { text: chunks.join(''), summary };
}

function docOf(text: string): ExportDocument {
  const parsed = parseExport(text);
  if (!parsed.ok) assert.fail(`not an export: ${JSON.stringify(parsed.problem)}`);
  return parsed.doc;
}

// Importing is copying from the export (the copy plan relocates its root and skips what cannot be written).
const planImport = (session: ZkSession, doc: ExportDocument, targetRoot: string, acls = false) => planCopy({ export: doc }, session, targetRoot, { acls });

async function run(session: ZkSession, plan: CopyPlan, batchSize?: number): Promise<CopyReport> {
  assert.equal(plan.problem, undefined, 'the plan can be applied');
  const done = await executeCopy(session, plan, { readOnly: false }, { batchSize });
  if (!done.ok) assert.fail(`import refused: ${JSON.stringify(done.failure)}`);
  return done.report;
}

/** Each planned path's action: create / setData from the writes, the skip reason's code, else unchanged. */
function actions(plan: CopyPlan): (path: string) => string {
  const planned = new Map<string, string>(plan.writes.map((w) => [w.path, w.action]));
  for (const s of plan.skipped) planned.set(s.path, `skip:${s.reason.code}`);
  return (path) => planned.get(path) ?? 'unchanged';
}

/** path → data of every node under root (via a crawl of our own export). */
async function snapshot(session: ZkSession, root: string, relocateTo = root): Promise<Map<string, string>> {
  const doc = docOf((await exportText(session, root)).text);
  return new Map(doc.nodes.map((n) => [relocateTo + n.path.slice(root.length), `${n.encoding}:${n.data}`]));
}

describe('export a subtree to JSON and import it with a dry run', () => {
  let zk: ZkCluster;
  let proxy: TcpProxy;
  let session: ZkSession;
  let other: OtherClient;
  let cutAtMulti: number | undefined;
  let multis = 0;

  before(async () => {
    zk = await startStandalone({ adminServer: false });
    proxy = await startProxy(zk.members[0].clientPort, {
      rewriteClientFrame: (frame) => {
        if (frame.opCode !== OpCode.multi || cutAtMulti === undefined) return undefined;
        if (++multis === cutAtMulti) {
          cutAtMulti = undefined;
          setImmediate(() => proxy.cutAll());
        }
        return undefined;
      },
    });
    session = new ZkSession({ connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 20000, requestTimeoutMs: 15000 });
    await session.open();
    other = await connectOtherClient(zk.connectString, 30000);
    await other.mkdirp('/src/conf');
    await other.create('/src/conf/text', 'a=1\nb=ünïcode 日本');
    await other.create('/src/conf/binary', Buffer.from([0, 0xff, 0xfe, 0x80, 0x41]));
    await other.create('/src/conf/empty');
    await other.create('/src/conf/name with spaces & ü', '{"json": true}');
    await other.create('/src/lock-', '', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
  });

  after(async () => {
    session?.close();
    other?.close();
    await proxy?.close();
    await zk?.stop();
  });

  test('the export: parents first, UTF-8 as text, other bytes as base64, stat kept, ephemerals marked', async () => {
    const { text, summary } = await exportText(session, '/src');
    assert.equal(summary.complete, true);
    assert.equal(summary.nodes, 7);
    assert.equal(summary.ephemeral, 1);
    const doc = docOf(text);
    assert.equal(doc.root, '/src');
    const byPath = new Map(doc.nodes.map((n) => [n.path, n]));
    assert.deepEqual([byPath.get('/src/conf/text')?.encoding, byPath.get('/src/conf/text')?.data], ['utf8', 'a=1\nb=ünïcode 日本']);
    assert.deepEqual([byPath.get('/src/conf/binary')?.encoding, byPath.get('/src/conf/binary')?.data], ['base64', Buffer.from([0, 0xff, 0xfe, 0x80, 0x41]).toString('base64')]);
    assert.equal(byPath.get('/src/conf/empty')?.data, '');
    assert.match(byPath.get('/src/conf/text')?.stat?.czxid ?? '', /^0x[0-9a-f]+$/);
    const lock = doc.nodes.find((n) => n.path.startsWith('/src/lock-'));
    assert.equal(lock?.ephemeral, true);
    const seen = new Set<string>();
    for (const n of doc.nodes) {
      const parent = n.path.slice(0, n.path.lastIndexOf('/'));
      if (n.path !== '/src') assert.ok(seen.has(parent), `${n.path} before its parent`);
      seen.add(n.path);
    }
  });

  test('the export records each node\'s ACL (read-only, ip-restricted, open)', async () => {
    await other.mkdirp('/aclsrc');
    const createWithAcl = (path: string, acl: zookeeper.ACL[]) => new Promise<void>((resolve, reject) =>
      other.client.create(path, Buffer.from('x'), acl, zookeeper.CreateMode.PERSISTENT, (e) => (e ? reject(e) : resolve())));
    await createWithAcl('/aclsrc/readonly', [new zookeeper.ACL(zookeeper.Permission.READ, new zookeeper.Id('world', 'anyone'))]);
    await createWithAcl('/aclsrc/local', [new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id('ip', '127.0.0.1'))]);
    const { text, summary } = await exportText(session, '/aclsrc');
    assert.equal(summary.complete, true);
    const byPath = new Map(docOf(text).nodes.map((n) => [n.path, n.acl]));
    assert.deepEqual(byPath.get('/aclsrc'), [{ scheme: 'world', id: 'anyone', perms: 'cdrwa' }]);
    assert.deepEqual(byPath.get('/aclsrc/readonly'), [{ scheme: 'world', id: 'anyone', perms: 'r' }]);
    assert.deepEqual(byPath.get('/aclsrc/local'), [{ scheme: 'ip', id: '127.0.0.1', perms: 'cdrwa' }]);
    assert.equal(docOf(text).nodes[0].path, '/aclsrc', 'parents still first');
  });

  test('import re-applies the exported ACLs when asked: one planned change per node, set after every write', async () => {
    const doc = docOf((await exportText(session, '/aclsrc')).text);
    const without = await planImport(session, doc, '/acldst');
    assert.deepEqual(without.aclChanges, [], 'not asked: no ACL changes');
    const plan = await planImport(session, doc, '/acldst', true);
    assert.deepEqual(plan.aclChanges.map((c) => c.path).sort(), ['/acldst/local', '/acldst/readonly'], 'the open root needs no change');
    const report = await run(session, plan);
    assert.deepEqual(report.failed, []);
    assert.equal(report.aclsSet, 2);
    const aclOf = (path: string) => new Promise<string[]>((resolve, reject) => other.client.getACL(path, (e, acls) =>
      (e ? reject(e) : resolve(acls.map((a) => `${a.id.scheme}:${a.id.id}:${(a as unknown as { permission: number }).permission}`)))));
    assert.deepEqual(await aclOf('/acldst/readonly'), ['world:anyone:1']);
    assert.deepEqual(await aclOf('/acldst/local'), ['ip:127.0.0.1:31']);
    // Run again: the ACLs now match, so the plan changes none.
    const again = await planImport(session, doc, '/acldst', true);
    assert.deepEqual(again.aclChanges, []);
  });

  test('dry run lists what would be created, changed or left alone, and writes nothing; then import applies it', async () => {
    const doc = docOf((await exportText(session, '/src')).text);
    await other.mkdirp('/dst/conf');
    await other.create('/dst/conf/text', 'a=1\nb=ünïcode 日本'); // same data: left alone
    await other.create('/dst/conf/empty', 'not empty'); // differs: changed
    const before = await snapshot(session, '/dst');
    const plan = await planImport(session, doc, '/dst');
    const action = actions(plan);
    assert.equal(action('/dst'), 'unchanged'); // both empty
    assert.deepEqual([action('/dst/conf/text'), action('/dst/conf/empty'), action('/dst/conf/binary'), action('/dst/conf/name with spaces & ü')],
      ['unchanged', 'setData', 'create', 'create']);
    assert.deepEqual(plan.skipped.map((s) => s.reason.code), ['ephemeral']);
    assert.deepEqual(await snapshot(session, '/dst'), before, 'the dry run wrote nothing');
    const report = await run(session, plan);
    assert.deepEqual(report.failed, []);
    assert.equal(report.created, 2);
    const src = await snapshot(session, '/src', '/dst');
    const dst = await snapshot(session, '/dst');
    for (const [path, data] of src) if (!path.startsWith('/dst/lock-')) assert.equal(dst.get(path), data, path);
  });

  test('a node changed after the dry run is not overwritten: badVersion is reported', async () => {
    const doc = docOf((await exportText(session, '/src')).text);
    await other.mkdirp('/dst2/conf');
    await other.create('/dst2/conf/text', 'old');
    const plan = await planImport(session, doc, '/dst2');
    await other.setData('/dst2/conf/text', 'someone else');
    const report = await run(session, plan);
    assert.deepEqual(report.failed.map((f) => [f.code, f.path, f.operation]), [['badVersion', '/dst2/conf/text', 'setData']]);
    assert.equal((await session.getData('/dst2/conf/text')).data.toString(), 'someone else');
  });

  test('the connection lost in the middle of an import: the report says so and running the plan again finishes it', async () => {
    await other.mkdirp('/big/a');
    await mapBounded(Array.from({ length: 600 }, (_, i) => i), 256, (i) => other.create(`/big/a/n${i}`, `v${i}`));
    const doc = docOf((await exportText(session, '/big')).text);
    const plan = await planImport(session, doc, '/copy');
    assert.equal(plan.counts.create, 602);
    // Cut as the fourth batch of 50 creates goes out.
    multis = 0;
    cutAtMulti = 4;
    const first = await run(session, plan, 50);
    assert.equal(first.interrupted?.code, 'connectionLoss');
    assert.ok(first.remaining > 0 && first.created < 602, `created ${first.created}, remaining ${first.remaining}`);
    assert.equal(first.created + first.remaining + first.failed.length, 602);
    assert.deepEqual(first.failed, []);
    await eventually(() => session.state === 'connected', 20000, 'the reconnect');
    // Planned again, the import lists only what is left.
    const rest = await planImport(session, doc, '/copy');
    assert.equal(rest.counts.create + rest.counts.unchanged, 602);
    assert.ok(rest.counts.create > 0 && rest.counts.create < 602, `left: ${rest.counts.create}`);
    const second = await run(session, rest);
    assert.equal(second.interrupted, undefined);
    assert.deepEqual(second.failed, []);
    // Batches the server applied but never answered count as remaining in the first report: the new plan knows better.
    assert.equal(second.created, rest.counts.create);
    assert.ok(first.created + second.created <= 602);
    // Nothing duplicated or lost: the copy equals the source.
    assert.deepEqual(await snapshot(session, '/copy'), await snapshot(session, '/big', '/copy'));
    const third = await planImport(session, doc, '/copy');
    assert.deepEqual([third.counts.create, third.counts.setData, third.counts.unchanged], [0, 0, 602]);
  });

  test('bad input: not JSON, not an export, a node outside the root, invalid or protected target paths, read-only', async () => {
    assert.equal((parseExport('{nope') as { problem: { code: string } }).problem.code, 'notJson');
    assert.equal((parseExport('{"format":"other","nodes":[]}') as { problem: { code: string } }).problem.code, 'notAnExport');
    assert.equal((parseExport('{"format":"zooscope-export","version":9,"root":"/a","nodes":[]}') as { problem: { code: string } }).problem.code, 'unsupportedVersion');
    const outside = parseExport(JSON.stringify({ format: 'zooscope-export', version: 1, root: '/a', exportedAt: '', nodes: [{ path: '/b', data: '', encoding: 'utf8' }] }));
    assert.deepEqual((outside as { problem: unknown }).problem, { code: 'badNode', index: 0, field: 'path' });
    const doc = docOf(JSON.stringify({
      format: 'zooscope-export', version: 1, root: '/x', exportedAt: '', nodes: [
        { path: '/x', data: '', encoding: 'utf8' }, { path: '/x/bad//name', data: '', encoding: 'utf8' }, { path: '/x/ok', data: 'AQI=', encoding: 'base64' },
      ],
    }));
    const plan = await planImport(session, doc, '/imp');
    const action = actions(plan);
    assert.deepEqual(['/imp', '/imp/bad//name', '/imp/ok'].map(action), ['create', 'skip:invalidPath', 'create']);
    const intoZk = await planImport(session, doc, '/zookeeper/x');
    assert.deepEqual(intoZk.writes, []);
    assert.deepEqual(intoZk.skipped.map((s) => s.reason.code), ['protectedPath', 'invalidPath', 'protectedPath']);
    const readOnly = await executeCopy(session, plan, { readOnly: true });
    assert.equal((readOnly as { failure: WriteFailure }).failure.code, 'readOnly');
    assert.equal(await session.exists('/imp'), undefined);
    const report = await run(session, plan);
    assert.deepEqual(report.failed, []);
    assert.deepEqual((await session.getData('/imp/ok')).data, Buffer.from([1, 2]));
  });
});
