import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { ZkSession } from '../../src/zk/session/session';
import { hex } from '../../src/zk/stat';
import { ZnodeWriter } from '../../src/zk/write';
import { readTxnLogFile } from '../../src/zk/serverLogs/txnLogReader';
import { readSnapshotFile } from '../../src/zk/serverLogs/snapshotReader';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';
import type { SnapshotNode } from '../../src/zk/serverLogs/snapshotTypes';
import { startStandalone, type ZkCluster } from '../support/servers/zkServer';
import { zooscopeLog } from '../support/clients/zooscopeLog';
import { connectOtherClient, eventually } from '../support/clients/zkClient';
import { snapshotFormatter, txnLogToolkit, type ToolkitTxn } from '../support/thirdParty/zkLogTools';

/** Writes every kind of transaction a server logs: plain writes, a failed write, multis (one with a failed part), ACLs, containers and TTL nodes removed by the server, ephemerals removed with their session. */
async function writeHistory(zk: ZkCluster): Promise<void> {
  const other = await connectOtherClient(zk.connectString);
  const session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 10000, requestTimeoutMs: 10000 });
  await session.open();
  const writer = new ZnodeWriter(session, { readOnly: false });
  try {
    await other.mkdirp('/w');
    await other.create('/w/a', 'first');
    await other.setData('/w/a', 'second');
    await other.create('/w/b', 'gone soon');
    await other.remove('/w/b');
    await other.create('/w/a', 'again').catch(() => undefined); // NODE_EXISTS: an error txn
    const commit = (tx: zookeeper.Transaction) => new Promise<void>((resolve) => tx.commit(() => resolve()));
    await commit(other.client.transaction().create('/w/m1', Buffer.from('m')).check('/w/a', 99)); // fails: check
    await commit(other.client.transaction().create('/w/m2', Buffer.from('m')).setData('/w/a', Buffer.from('third'), -1).check('/w/a', 2));
    await new Promise<void>((resolve, reject) => other.client.setACL('/w/m2', [new zookeeper.ACL(zookeeper.Permission.READ, new zookeeper.Id('world', 'anyone'))], -1, (e) => (e ? reject(e) : resolve())));
    assert.ok((await writer.create({ path: '/w/box', mode: 'container' })).ok);
    assert.ok((await writer.create({ path: '/w/box/item', data: Buffer.from('x') })).ok);
    await other.remove('/w/box/item');
    assert.ok((await writer.create({ path: '/w/short', mode: 'ttl', ttlMs: 300 })).ok);
    const temp = await connectOtherClient(zk.connectString);
    await temp.create('/w/eph', 'mine', zookeeper.CreateMode.EPHEMERAL);
    await temp.create('/w/eph-', 'seq', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    temp.close();
    await eventually(async () => !(await other.exists('/w/box')) && !(await other.exists('/w/short')) && !(await other.exists('/w/eph')), 20000, 'the server to remove the container, the TTL node and the ephemerals');
  } finally {
    session.close();
    other.close();
  }
}

async function ourTxns(file: string): Promise<{ txns: Txn[]; issues: string[] }> {
  const txns: Txn[] = [];
  const issues: string[] = [];
  for await (const item of readTxnLogFile(file)) {
    if (item.kind === 'txn') txns.push(item.txn);
    if (item.kind === 'issue') issues.push(item.issue.message);
  }
  return { txns, issues };
}

function asToolkit(t: Txn): ToolkitTxn {
  const out: ToolkitTxn = { session: hex(t.session), zxid: hex(t.zxid), op: t.record.op };
  if (t.record.op === 'multi') out.parts = t.record.parts.map((p) => p.op);
  else if ('path' in t.record) out.path = t.record.path;
  return out;
}

/** java.util.Date#toString in UTC (the tools run with -Duser.timezone=UTC): "Sat Nov 28 12:05:01 UTC 2026". */
function javaDate(ms: number): string {
  const [day, date, mon, year, time] = new Date(ms).toUTCString().replace(',', '').split(' ');
  return `${day} ${mon} ${date} ${time} UTC ${year}`;
}

/** SnapshotFormatter's `%#016x`: "0x" and at least 14 hex digits. */
function javaHex(value: bigint): string {
  return '0x' + BigInt.asUintN(64, value).toString(16).padStart(14, '0');
}

/** The snapshot with the highest zxid in its name. */
function newestSnapshot(snaps: string[]): string {
  const zxidOf = (file: string) => BigInt(`0x${/snapshot\.([0-9a-f]+)/i.exec(path.basename(file))![1]}`);
  return snaps.reduce((a, b) => (zxidOf(b) > zxidOf(a) ? b : a));
}

function files(dir: string, prefix: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.startsWith(prefix)).map((f) => path.join(dir, f));
}

for (const form of [
  { name: '3.8 defaults (digests, closeSession with its paths), gzip snapshots', props: { 'zookeeper.snapshot.compression.method': 'gz' } as Record<string, string>, toolkitProps: [] as string[] },
  { name: 'snappy snapshots', props: { 'zookeeper.snapshot.compression.method': 'snappy' } as Record<string, string>, toolkitProps: [] as string[] },
  { name: 'the older forms (no digests, closeSession without a body), plain snapshots', props: { 'zookeeper.digest.enabled': 'false', 'zookeeper.closeSessionTxn.enabled': 'false' }, toolkitProps: ['-Dzookeeper.digest.enabled=false', '-Dzookeeper.closeSessionTxn.enabled=false'] },
]) {
  describe(`server logs written by a real ZooKeeper 3.8.0: ${form.name}`, () => {
    let zk: ZkCluster;
    let dataDir: string;
    const allTxns: Txn[] = [];

    before(async () => {
      zk = await startStandalone({
        extendedTypes: true, adminServer: false,
        systemProperties: { 'znode.container.checkIntervalMs': '200', 'zookeeper.snapCount': '8', ...form.props },
      });
      dataDir = path.join(zk.members[0].dir, 'data', 'version-2');
      await writeHistory(zk);
      await zk.members[0].stop();
    });

    after(async () => {
      await zk?.stop();
    });

    test('every log file: the same transactions as TxnLogToolkit (count, zxids, sessions, types, paths, multi parts)', async () => {
      const logs = files(dataDir, 'log.');
      assert.ok(logs.length >= 2, `snapCount 8 should roll the log: ${logs.join(', ')}`);
      for (const log of logs) {
        const ours = await ourTxns(log);
        const theirs = await txnLogToolkit(log, form.toolkitProps);
        assert.deepEqual(ours.issues, [], log);
        assert.equal(ours.txns.length, theirs.eofCount, log);
        // 3.8.0's Request.op2String calls createTTL "createTtl"; later versions (and OpCode itself) say createTTL.
        assert.deepEqual(ours.txns.map(asToolkit), theirs.txns.map((t) => (t.op === 'createTtl' ? { ...t, op: 'createTTL' } : t)), log);
        allTxns.push(...ours.txns);
      }
      const ops = new Set(allTxns.flatMap((t) => [t.record.op, ...(t.record.op === 'multi' ? t.record.parts.map((p) => `multi/${p.op}`) : [])]));
      for (const op of ['createSession', 'create', 'create2', 'createContainer', 'createTTL', 'setData', 'setACL', 'delete', 'deleteContainer', 'error', 'multi', 'multi/error', 'multi/create', 'multi/check', 'multi/setData', 'closeSession']) {
        assert.ok(ops.has(op), `no ${op} in ${[...ops].join(' ')}`);
      }
      const closes = allTxns.filter((t) => t.record.op === 'closeSession').map((t) => (t.record as { paths?: string[] }).paths);
      const digests = allTxns.filter((t) => t.digest).length;
      if (form.props['zookeeper.digest.enabled'] === 'false') {
        assert.equal(digests, 0);
        assert.ok(closes.every((p) => p === undefined), 'closeSession without a body');
      } else {
        // A failed write (error txn) is logged without a digest; every other carries one.
        const undigested = allTxns.filter((t) => !t.digest).map((t) => `${hex(t.zxid)} ${t.record.op}`);
        assert.ok(undigested.every((t) => t.endsWith(' error')), undigested.join(', '));
        assert.ok(digests > 0);
        assert.ok(closes.some((p) => p?.includes('/w/eph')), 'a closeSession lists the ephemeral it removes');
      }
      const removals = allTxns.filter((t) => t.record.op === 'deleteContainer');
      assert.ok(removals.every((t) => t.session === 0n), 'the server removes containers and TTL nodes as session 0');
    });

    test('zooscope log --history: how each node of /w lived and went, the sessions that did it, whole (no false gap across files)', async () => {
      const { code, lines, errors } = await zooscopeLog([dataDir, '--history', '/w/**', '--json']);
      assert.deepEqual(errors, []);
      assert.equal(code, 0);
      const entries = lines.map((line) => JSON.parse(line) as { op: string; path: string; session: string; removed?: string; version?: number; data?: string; inMulti?: boolean });
      const byPath = (p: string) => entries.filter((e) => e.path === p).map((e) => `${e.op}${e.inMulti ? '*' : ''} ${e.removed ?? `v${e.version}${e.data === undefined ? '' : ` ${e.data}`}`}`);
      assert.deepEqual(byPath('/w/a'), ['create v0 first', 'setData v1 second', 'setData* v2 third']);
      assert.deepEqual(byPath('/w/b'), ['create v0 gone soon', 'delete deleted']);
      assert.deepEqual(byPath('/w/m2'), ['create* v0 m', 'setACL v1']);
      assert.deepEqual(byPath('/w/m1'), [], 'the failed multi created nothing');
      assert.deepEqual(byPath('/w/box'), ['createContainer v0 ', 'deleteContainer containerEmptied']);
      assert.deepEqual(byPath('/w/short'), ['createTTL v0 ', 'deleteContainer ttlExpired']);
      assert.deepEqual(byPath('/w/eph'), ['create v0 mine', 'closeSession sessionClosed']);
      const sequential = entries.filter((e) => e.path.startsWith('/w/eph-')).map((e) => `${e.op} ${e.removed ?? ''}`);
      assert.deepEqual(sequential, ['create ', 'closeSession sessionClosed']);
      const sessionOf = (p: string, op: string) => entries.find((e) => e.path === p && e.op === op)!.session;
      assert.equal(sessionOf('/w/b', 'delete'), sessionOf('/w/a', 'create'), 'deleted by the session that wrote /w');
      assert.equal(sessionOf('/w/eph', 'closeSession'), sessionOf('/w/eph', 'create'), 'gone with the session that made it');
      assert.notEqual(sessionOf('/w/eph', 'create'), sessionOf('/w/a', 'create'));
      assert.equal(sessionOf('/w/box', 'deleteContainer'), '0x0');
    });

    test('zooscope log --sessions: each session\'s start, timeout, end and writes; the ephemerals its end removed', async () => {
      const run = await zooscopeLog([dataDir, '--sessions', '--json']);
      assert.equal(run.code, 0, run.errors.join('\n'));
      const sessions = run.lines.map((line) => JSON.parse(line) as { session: string; began?: number; timeoutMs?: number; end?: string; created: number; deleted: number; failed: number; ephemeralsAtEnd?: string[] });
      const temp = sessions.find((s) => s.ephemeralsAtEnd?.includes('/w/eph'));
      assert.ok(temp, JSON.stringify(sessions));
      assert.equal(temp.end, 'closed');
      assert.equal(temp.created, 2);
      assert.ok(temp.began !== undefined && temp.timeoutMs! > 0);
      assert.deepEqual(temp.ephemeralsAtEnd!.map((p) => p.replace(/\d+$/, '')).sort(), ['/w/eph', '/w/eph-']);
      const writer = sessions.find((s) => s.deleted >= 2 && s.failed >= 2);
      assert.ok(writer, `the writer deleted /w/b and /w/box/item, and failed twice (a create, a multi): ${JSON.stringify(sessions)}`);
      const human = await zooscopeLog([dataDir, '--sessions']);
      assert.ok(human.lines.some((line) => line.startsWith(`${temp.session} began `) && line.includes('closed by its client') && line.includes('/w/eph')), human.lines.join('\n'));
    });

    test('every snapshot: the same tree as SnapshotFormatter (paths and stat fields), sealed', async () => {
      const snaps = files(dataDir, 'snapshot.');
      assert.ok(snaps.length >= 2, snaps.join(', '));
      const compression = form.props['zookeeper.snapshot.compression.method'];
      if (compression) assert.ok(snaps.every((s) => s.endsWith(`.${compression}`)), snaps.join(', '));
      for (const snap of snaps) {
        const nodes: SnapshotNode[] = [];
        const other: string[] = [];
        for await (const item of readSnapshotFile(snap)) {
          if (item.kind === 'node') nodes.push(item.node);
          else if (item.kind === 'issue') other.push(item.issue.message);
          else if (item.kind === 'sealed') other.push(`sealed ${item.seals}`);
        }
        // The server is stopped right after the writes: the snapshot it was writing then may be cut (a snappy one
        // can still be empty, its first block unwritten). ZooKeeper's own reader must then fail on it too, and ours
        // say it in one line; only the newest snapshot can be so.
        const theirs = await snapshotFormatter(snap).catch(() => undefined);
        if (theirs === undefined) {
          assert.equal(snap, newestSnapshot(snaps), `only the snapshot being written at the stop may be cut: ${snap}`);
          assert.equal(other.length, 1, other.join('\n'));
          assert.match(other[0], /not a ZooKeeper snapshot|cut short|ends inside|corrupt/);
          continue;
        }
        assert.deepEqual(other, [`sealed ${form.props['zookeeper.digest.enabled'] === 'false' ? 1 : 2}`], snap);
        const ours = nodes.map((n) => ({
          path: n.path === '' ? '/' : n.path,
          fields: {
            cZxid: javaHex(n.stat.czxid), ctime: javaDate(n.stat.ctime), mZxid: javaHex(n.stat.mzxid), mtime: javaDate(n.stat.mtime),
            pZxid: javaHex(n.stat.pzxid), cversion: String(n.stat.cversion), dataVersion: String(n.stat.version), aclVersion: String(n.stat.aversion),
            ephemeralOwner: javaHex(n.stat.ephemeralOwner), dataLength: String(n.data?.length ?? 0),
          },
        }));
        const sorted = <T extends { path: string }>(list: T[]) => [...list].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
        const theirsComparable = sorted(theirs).map((n) => ({ path: n.path, fields: Object.fromEntries(Object.keys(ours[0].fields).map((k) => [k, n.fields[k]])) }));
        assert.deepEqual(sorted(ours), theirsComparable, snap);
      }
    });
  });
}
