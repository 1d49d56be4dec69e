// Compare, copy and mirror (src/zk/compare) against two real standalone servers: every kind of difference found
// and none invented, writes made meanwhile reported as such, copies and mirrors that compare equal afterwards,
// version checks, an interrupted copy finished by a second run, and the read-only guard.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { compareSubtrees, CompareResult, CompareSide, Difference, executeCopy, planCopy, CopyPlan } from '../../src/zk/compare';
import { readLiveTree } from '../../src/zk/compare/readLive';
import { OpCode } from '../../src/zk/protocol/opcodes';
import { createNullable } from '../../src/zk/protocol/nullableData';
import * as writes from '../../src/zk/protocol/writes';
import { ZkSession } from '../../src/zk/session/session';
import { mapBounded } from '../../src/zk/timeouts';
import { exportSubtree, parseExport } from '../../src/zk/transfer';
import { HOSTILE_NAMES } from '../support/fixtures/hostileFixture';
import { holdRequestsFrom } from '../support/fakes/requestGate';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const READ_ONLY_ACL: writes.AclEntry[] = [{ scheme: 'world', id: 'anyone', perms: 1 }];
const WIDE = 1000;
const hostile = Object.values(HOSTILE_NAMES);

async function put(session: ZkSession, path: string, data: Buffer | null, options: { flags?: number; ttlMs?: bigint; acl?: writes.AclEntry[] } = {}): Promise<void> {
  await createNullable(session.channel, { path, data, acl: options.acl ?? writes.OPEN_ACL, flags: options.flags ?? 0, ttlMs: options.ttlMs });
}

/** `kind path` per difference, sorted: what a test compares against the differences it expects. */
const lines = (differences: Difference[]) => differences.map((d) => `${d.kind} ${d.path}`).sort();

async function compared(left: CompareSide, right: CompareSide, options: Parameters<typeof compareSubtrees>[2] = {}): Promise<CompareResult> {
  const result = await compareSubtrees(left, right, options);
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  assert.equal(result.complete, true);
  return result;
}

async function applied(session: ZkSession, plan: CopyPlan) {
  assert.equal(plan.problem, undefined, JSON.stringify(plan.problem));
  const run = await executeCopy(session, plan, { readOnly: false }, { batchSize: 100 });
  if (!run.ok) assert.fail(JSON.stringify(run.failure));
  return run.report;
}

describe('compare, copy and mirror subtrees on two servers', () => {
  let one: ZkCluster;
  let two: ZkCluster;
  let proxy: TcpProxy;
  let left: ZkSession;
  let right: ZkSession;
  let rightThroughProxy: ZkSession;
  let otherLeft: OtherClient;
  let otherRight: OtherClient;
  let cutAtMulti: number | undefined;
  let cutConnection: number | undefined;

  before(async () => {
    [one, two] = await Promise.all([startStandalone({ adminServer: false }), startStandalone({ adminServer: false })]);
    proxy = await startProxy(two.members[0].clientPort, {
      rewriteClientFrame: (frame) => {
        // From the chosen batch on, nothing more of that connection reaches the server; then it is cut.
        if (frame.connection === cutConnection) return null;
        if (frame.opCode === OpCode.multi && cutAtMulti !== undefined && --cutAtMulti === 0) {
          cutAtMulti = undefined;
          cutConnection = frame.connection;
          setImmediate(() => proxy.cutAll());
          return null;
        }
        return undefined;
      },
    });
    left = new ZkSession({ connectString: one.connectString, sessionTimeoutMs: 20000 });
    right = new ZkSession({ connectString: two.connectString, sessionTimeoutMs: 20000 });
    rightThroughProxy = new ZkSession({ connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 30000, requestTimeoutMs: 15000 });
    await Promise.all([left.open(), right.open(), rightThroughProxy.open()]);
    [otherLeft, otherRight] = await Promise.all([connectOtherClient(one.connectString, 30000), connectOtherClient(two.connectString, 30000)]);

    // The same subtree on both servers, then one difference of each kind.
    for (const session of [left, right]) {
      await put(session, '/cmp', Buffer.from('root'));
      await put(session, '/cmp/same', Buffer.from('a=1\nb=ünïcode'));
      await put(session, '/cmp/binary', Buffer.from([0, 0xff, 0xfe, 0x80]));
      await put(session, '/cmp/binaryDiffers', Buffer.from([0, 0xff, 0xfe, session === left ? 0x80 : 0x81]));
      await put(session, '/cmp/bothNull', null);
      await put(session, '/cmp/bothEmpty', Buffer.alloc(0));
      await put(session, '/cmp/nullVsEmpty', session === left ? null : Buffer.alloc(0));
      await put(session, '/cmp/wide', null);
      await put(session, '/cmp/acl', Buffer.from('x'), { acl: session === left ? writes.OPEN_ACL as writes.AclEntry[] : READ_ONLY_ACL });
      await put(session, '/cmp/mode', Buffer.from('m'));
      await put(session, '/cmp/container', Buffer.from('c'), { flags: session === left ? writes.CreateFlags.container : 0 });
      await put(session, '/cmp/ttl', Buffer.from('t'), session === left ? { flags: writes.CreateFlags.persistentWithTtl, ttlMs: 3_600_000n } : {});
      await put(session, '/cmp/seq-0000000007', Buffer.from('sequential name'));
      for (const name of hostile) await put(session, `/cmp/${name}`, Buffer.from(name));
    }
    await mapBounded(Array.from({ length: WIDE }, (_, i) => i), 256, (i) => put(left, `/cmp/wide/n${i}`, Buffer.from(String(i))));
    await put(right, '/cmp/onlyRight', Buffer.from('r'));
    await put(left, `/cmp/only-${HOSTILE_NAMES.rtlOverride}`, Buffer.from('l'));
    await otherLeft.create('/cmp/mode/ephemeral', 'e', zookeeper.CreateMode.EPHEMERAL);
    await put(right, '/cmp/mode/ephemeral', Buffer.from('e'));
  });

  after(async () => {
    for (const s of [left, right, rightThroughProxy]) s?.close();
    otherLeft?.close();
    otherRight?.close();
    await proxy?.close();
    await Promise.all([one?.stop(), two?.stop()]);
  });

  const expected = [
    'data /binaryDiffers', 'data /nullVsEmpty', 'acl /acl', 'mode /mode/ephemeral', 'onlyRight /onlyRight',
    `onlyLeft /only-${HOSTILE_NAMES.rtlOverride}`, ...Array.from({ length: WIDE }, (_, i) => `onlyLeft /wide/n${i}`),
  ].sort();

  test('every kind of difference is found, and none invented (binary, null vs empty, 1,000 children, ACL, ephemeral)', async () => {
    const result = await compared({ session: left, root: '/cmp' }, { session: right, root: '/cmp' });
    assert.deepEqual(lines(result.differences), expected);
    assert.equal(result.equal, false);
    assert.deepEqual(result.nodes, { left: 13 + hostile.length + WIDE + 2, right: 13 + hostile.length + 2 });
    // Container and TTL nodes look persistent to a client of this server: the result says so rather than pretending.
    assert.deepEqual(result.limits, ['containerAndTtlLookPersistent']);
    const nullVsEmpty = result.differences.find((d) => d.path === '/nullVsEmpty');
    assert.deepEqual([nullVsEmpty?.left?.dataLength, nullVsEmpty?.right?.dataLength], [null, 0]);
    const mode = result.differences.find((d) => d.kind === 'mode');
    assert.deepEqual([mode?.left?.kind, mode?.right?.kind], ['ephemeral', 'persistent']);
    const acl = result.differences.find((d) => d.kind === 'acl');
    assert.deepEqual([acl?.left?.acl, acl?.right?.acl], [['world:anyone:cdrwa'], ['world:anyone:r']]);
  });

  test('options: ephemeral nodes, ACLs and the data of chosen paths can be left out', async () => {
    const result = await compared({ session: left, root: '/cmp' }, { session: right, root: '/cmp' },
      { ignoreEphemeral: true, ignoreAcls: true, ignoreData: ['/binary*', '/**/nullVsEmpty'] });
    assert.deepEqual(lines(result.differences), expected.filter((l) => !/^(data|acl|mode) /.test(l)).concat('onlyRight /mode/ephemeral').sort());
  });

  test('a subtree compared with itself, and with its own export, is equal', async () => {
    assert.equal((await compared({ session: left, root: '/cmp' }, { session: left, root: '/cmp' })).equal, true);
    const chunks: string[] = [];
    await exportSubtree(left, '/cmp', (c) => chunks.push(c));
    const parsed = parseExport(chunks.join(''));
    if (!parsed.ok) assert.fail('not an export');
    const result = await compared({ export: parsed.doc }, { session: left, root: '/cmp' });
    assert.deepEqual(lines(result.differences), []);
    assert.deepEqual(result.limits, ['containerAndTtlLookPersistent', 'exportNullIsEmpty', 'exportModes']);
    // Against the other server the export shows the same differences, except null vs empty (an export cannot tell).
    const across = await compared({ export: parsed.doc }, { session: right, root: '/cmp' });
    assert.deepEqual(lines(across.differences), expected.filter((l) => l !== 'data /nullVsEmpty'));
  });

  test('a comparison cancelled while it reads stops and says so (nothing reported as equal)', async () => {
    const abort = new AbortController();
    const phases: string[] = [];
    const result = await compareSubtrees({ session: left, root: '/cmp' }, { session: right, root: '/cmp' }, {
      signal: abort.signal,
      onProgress: (p) => {
        phases.push(p.phase);
        abort.abort(); // at the first progress report, well before 1,000 children are read
      },
    });
    assert.equal(result.cancelled, true);
    assert.equal(result.complete, false);
    assert.equal(result.equal, false);
    assert.deepEqual(result.differences, []);
    assert.equal(phases[0], 'reading');
  });

  test('a node written between its read and the re-check is reported as changed, not as a difference', async () => {
    await put(left, '/chg', null);
    await put(right, '/chg', null);
    await put(left, '/chg/cfg', Buffer.from('old'));
    await put(right, '/chg/cfg', Buffer.from('new')); // a writer updating both servers, halfway
    await put(left, '/chg/added', Buffer.from('x')); // ... and creating one on both, halfway
    // Without a write meanwhile both are real differences.
    assert.deepEqual(lines((await compared({ session: left, root: '/chg' }, { session: right, root: '/chg' })).differences), ['data /cfg', 'onlyLeft /added']);
    // The writer finishes while the comparison re-checks what it found.
    const gates = [
      holdRequestsFrom(left.channel, (operation) => operation === 'exists', () => otherLeft.setData('/chg/cfg', 'new')),
      holdRequestsFrom(right.channel, (operation) => operation === 'exists', () => otherRight.create('/chg/added', 'x')),
    ];
    try {
      const result = await compared({ session: left, root: '/chg' }, { session: right, root: '/chg' });
      assert.deepEqual(lines(result.differences), ['changed /added', 'changed /cfg']);
      assert.equal(result.equal, false);
    } finally {
      gates.forEach((g) => g.restore());
    }
    assert.equal((await compared({ session: left, root: '/chg' }, { session: right, root: '/chg' })).equal, true);
  });

  test('a copy to another server, applied, then compares equal (ephemeral nodes not copied, null data kept)', async () => {
    const plan = await planCopy({ session: left, root: '/cmp' }, right, '/copy');
    assert.deepEqual(plan.skipped.map((s) => `${s.reason.code} ${s.path}`), ['ephemeral /copy/mode/ephemeral']);
    assert.equal(plan.counts.create, 13 + hostile.length + WIDE + 1);
    assert.deepEqual(plan.aclChanges.map((s) => s.path), []);
    const report = await applied(right, plan);
    assert.equal(report.created, plan.counts.create);
    assert.deepEqual(report.failed, []);
    const after = await compared({ session: left, root: '/cmp' }, { session: right, root: '/copy' }, { ignoreEphemeral: true });
    assert.deepEqual(lines(after.differences), []);
    // A second run has nothing left to do.
    const again = await planCopy({ session: left, root: '/cmp' }, right, '/copy');
    assert.deepEqual([again.writes.length, again.deletes.length, again.aclChanges.length], [0, 0, 0]);
  });

  test('a mirror deletes what the source lacks and sets data and ACLs; then compares equal', async () => {
    await put(right, '/mirror', null);
    await put(right, '/mirror/same', Buffer.from('stale'));
    await put(right, '/mirror/extra', Buffer.from('gone soon'));
    await put(right, '/mirror/extra/deeper', null);
    await otherRight.create('/mirror/session', '', zookeeper.CreateMode.EPHEMERAL);
    const plan = await planCopy({ session: right, root: '/cmp' }, right, '/mirror', { mirror: true });
    assert.deepEqual(plan.deletes.map((s) => s.path), ['/mirror/extra/deeper', '/mirror/extra']);
    assert.deepEqual(plan.skipped.map((s) => `${s.reason.code} ${s.path}`), ['targetEphemeral /mirror/session']);
    assert.deepEqual(plan.writes.filter((s) => s.action === 'setData').map((s) => s.path), ['/mirror', '/mirror/same']);
    assert.deepEqual(plan.aclChanges.map((s) => s.path), ['/mirror/acl']);
    const report = await applied(right, plan);
    assert.deepEqual([report.deleted, report.aclsSet, report.failed.length], [2, 1, 0]);
    const after = await compared({ session: right, root: '/cmp' }, { session: right, root: '/mirror' }, { ignoreEphemeral: true });
    assert.deepEqual(lines(after.differences), []);
  });

  test('digest entries the server hides (no ADMIN permission): a copy refuses to plan with them, a compare ignores only their hashes', async () => {
    // ZooKeeper 3.7+ answers getACL without ADMIN permission with `alice:x` in place of alice's password hash.
    const alice = { scheme: 'digest', id: 'alice:kR2TdtMnQ7Fh6VwF9sRtq8cJ1Ys=', perms: 31 };
    const bob = { scheme: 'digest', id: 'bob:Zq0k2Vb8rTn5uW1yX3aC4dE6fG8=', perms: 31 };
    const anyoneReads = { scheme: 'world', id: 'anyone', perms: 1 };
    await put(left, '/hidden', null);
    await put(left, '/hidden/alice', Buffer.from('a'), { acl: [alice, anyoneReads] });
    await put(right, '/hidden', null);
    await put(right, '/hidden/alice', Buffer.from('a'), { acl: [alice, anyoneReads] });
    await put(right, '/hiddenBob', null);
    await put(right, '/hiddenBob/alice', Buffer.from('a'), { acl: [bob, anyoneReads] });
    const read = await writes.getAcl(left.channel, '/hidden/alice');
    assert.ok(read.acl.some((a) => a.id === 'alice:x'), `the server hid the hash: ${JSON.stringify(read.acl)}`);

    const plan = await planCopy({ session: left, root: '/hidden' }, right, '/hiddenCopy');
    assert.deepEqual(plan.problem, { side: 'source', code: 'aclHidden', path: '/hidden/alice' });
    assert.deepEqual([plan.writes.length, plan.aclChanges.length], [0, 0]);
    assert.equal((await planCopy({ session: left, root: '/hidden' }, right, '/hiddenCopy', { acls: false })).problem, undefined);

    const same = await compared({ session: left, root: '/hidden' }, { session: right, root: '/hidden' });
    assert.deepEqual(lines(same.differences), []);
    assert.ok(same.limits.includes('digestHidden'), same.limits.join());
    const otherUser = await compared({ session: left, root: '/hidden' }, { session: right, root: '/hiddenBob' });
    assert.deepEqual(lines(otherUser.differences), ['acl /alice']);
  });

  test('a write between the plan and the apply is refused by the version check', async () => {
    await put(right, '/versioned', null);
    await put(right, '/versioned/same', Buffer.from('old'));
    const plan = await planCopy({ session: left, root: '/cmp' }, right, '/versioned');
    await otherRight.setData('/versioned/same', 'written by someone else');
    const report = await applied(right, plan);
    assert.deepEqual(report.failed.map((f) => `${f.operation} ${f.path} ${f.code}`), ['setData /versioned/same badVersion']);
    assert.equal((await otherRight.getData('/versioned/same')).data.toString(), 'written by someone else');
    assert.equal(report.created, plan.counts.create);
  });

  test('an interrupted copy (connection cut mid-apply) is finished by a second run', async () => {
    const plan = await planCopy({ session: left, root: '/cmp' }, rightThroughProxy, '/resumed');
    cutAtMulti = 3;
    const first = await executeCopy(rightThroughProxy, plan, { readOnly: false }, { batchSize: 100 });
    if (!first.ok) assert.fail(JSON.stringify(first.failure));
    assert.ok(first.report.interrupted, 'the cut was seen');
    assert.ok(first.report.remaining > 0);
    assert.ok(first.report.created < plan.counts.create, `created ${first.report.created}`);
    const second = await planCopy({ session: left, root: '/cmp' }, rightThroughProxy, '/resumed');
    // Only what is left (batches whose answer the cut lost were applied all the same: fewer still).
    assert.ok(second.counts.create > 0 && second.counts.create <= plan.counts.create - first.report.created, `left ${second.counts.create}`);
    const report = await applied(rightThroughProxy, second);
    assert.deepEqual(report.failed, []);
    assert.deepEqual(lines((await compared({ session: left, root: '/cmp' }, { session: right, root: '/resumed' }, { ignoreEphemeral: true })).differences), []);
  });

  test('a read-only connection refuses to apply a plan, and a plan that could not read everything is not applied', async () => {
    const plan = await planCopy({ session: left, root: '/cmp' }, right, '/readOnly');
    const refused = await executeCopy(right, plan, { readOnly: true });
    assert.deepEqual(refused.ok ? 'applied' : refused.failure.code, 'readOnly');
    assert.equal(await otherRight.exists('/readOnly'), undefined);
    const missing = await planCopy({ session: left, root: '/no-such-node' }, right, '/readOnly', { mirror: true });
    assert.deepEqual(missing.problem, { side: 'source', code: 'noNode', path: '/no-such-node' });
    const incomplete = await executeCopy(right, missing, { readOnly: false });
    assert.deepEqual(incomplete.ok ? 'applied' : incomplete.failure.code, 'incompletePlan');
    // A mirror onto a subtree of its own source (or its parent) would delete what it copies: refused before reading.
    for (const [from, to] of [['/cmp', '/cmp/wide'], ['/cmp/wide', '/cmp'], ['/cmp', '/']]) {
      const overlap = await planCopy({ session: left, root: from }, left, to, { mirror: true });
      assert.deepEqual(overlap.problem, { side: 'target', code: 'overlap', path: to });
    }
  });

  test('a read past its bound of nodes stops with subtreeTooLarge, batched and node by node; the copy plans nothing', async () => {
    for (const multiRead of [true, false]) {
      const read = await readLiveTree(left, '/cmp/wide', { maxNodes: 100, multiRead });
      assert.deepEqual(read.error && { code: read.error.code, path: read.error.path }, { code: 'subtreeTooLarge', path: '/cmp/wide' }, `multiRead ${multiRead}`);
      assert.ok(read.nodes.size <= 101, `kept ${read.nodes.size}`);
      const bytes = await readLiveTree(left, '/cmp/wide', { maxDataBytes: 100, multiRead });
      assert.equal(bytes.error?.code, 'subtreeTooLarge', `multiRead ${multiRead}`);
    }
    const plan = await planCopy({ session: left, root: '/cmp' }, right, '/bounded', { maxNodes: 100 });
    assert.deepEqual(plan.problem, { side: 'source', code: 'subtreeTooLarge', path: '/cmp/wide' });
    assert.equal(await otherRight.exists('/bounded'), undefined);
  });
});
