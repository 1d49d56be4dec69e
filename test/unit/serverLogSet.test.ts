import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logSource, readLogSet, type LogSetItem } from '../../src/zk/serverLogs/logSet';
import { nodeHistory, type HistoryEntry } from '../../src/zk/serverLogs/nodeHistory';
import { parseLogBound, txnMatcher } from '../../src/zk/serverLogs/txnFilter';
import { TxnType } from '../../src/zk/serverLogs/txnOpCodes';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';
import { type FixtureTxn, logFile, records } from '../support/fixtures/serverLogFixtures';

const setData = (zxid: bigint, session = 0x100000abcn): FixtureTxn => ({ zxid, session, type: TxnType.setData, record: records.setData('/x', `v${zxid}`, Number(zxid & 0xffffn)) });

/** A member's folder holding these files: name → transactions (a file named log.<hex of its first zxid>). */
function member(root: string, name: string, files: FixtureTxn[][]): string {
  const dir = path.join(root, name, 'version-2');
  fs.mkdirSync(dir, { recursive: true });
  for (const txns of files) fs.writeFileSync(path.join(dir, `log.${txns[0].zxid.toString(16)}`), logFile(txns));
  return path.join(root, name);
}

async function collect(items: AsyncIterable<LogSetItem>): Promise<{ zxids: bigint[]; sources: string[]; issues: string[] }> {
  const zxids: bigint[] = [];
  const sources: string[] = [];
  const issues: string[] = [];
  for await (const item of items) {
    if (item.kind === 'txn') {
      zxids.push(item.txn.zxid);
      sources.push(path.basename(item.source));
    } else issues.push(item.issue.message);
  }
  return { zxids, sources, issues };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));

function withTemp(run: (root: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-logset-'));
    try {
      await run(root);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };
}

test('members merged by zxid: each transaction once, a stretch one member lacks filled from another, no gap said', withTemp(async (root) => {
  const a = member(root, 'a', [range(1, 3).map((z) => setData(z)), range(6, 7).map((z) => setData(z))]);
  const b = member(root, 'b', [range(1, 5).map((z) => setData(z))]);
  const merged = await collect(readLogSet([logSource(a), logSource(b)]));
  assert.deepEqual(merged.issues, []);
  assert.deepEqual(merged.zxids, range(1, 7));
  assert.deepEqual(merged.sources, ['a', 'a', 'a', 'b', 'b', 'a', 'a']);
  // Alone, the member with the hole says it, once, and reads the rest.
  const alone = await collect(readLogSet([logSource(a)]));
  assert.deepEqual(alone.zxids, [...range(1, 3), ...range(6, 7)]);
  assert.deepEqual(alone.issues, ['no log given holds zxid 0x4–0x5 (2 transactions): what happened then is not known']);
}));

test('a gap that no member covers is one line; a new epoch starting at 1 is no gap, one starting later is', withTemp(async (root) => {
  const epoch2 = 0x200000000n;
  const a = member(root, 'a', [[setData(1n), setData(2n)], [setData(epoch2 + 1n), setData(epoch2 + 2n)]]);
  const b = member(root, 'b', [[setData(1n), setData(2n), setData(4n)], [setData(epoch2 + 5n)]]);
  const merged = await collect(readLogSet([logSource(a), logSource(b)]));
  assert.deepEqual(merged.zxids, [1n, 2n, 4n, epoch2 + 1n, epoch2 + 2n, epoch2 + 5n]);
  assert.deepEqual(merged.issues, [
    'no log given holds zxid 0x3: what happened then is not known',
    'no log given holds zxid 0x200000003–0x200000004 (2 transactions): what happened then is not known',
  ]);
  const late = member(root, 'late', [[setData(1n)], [setData(epoch2 + 3n)]]);
  assert.deepEqual((await collect(readLogSet([logSource(late)]))).issues, ['no log given holds zxid 0x200000001–0x200000002 (2 transactions): what happened then is not known']);
}));

test('a log that changes while it is read is said to be written by a running server, instead of its torn end', withTemp(async (root) => {
  const dir = member(root, 'a', [range(1, 3).map((z) => setData(z))]);
  const file = path.join(dir, 'version-2', 'log.1');
  // Cut inside the last entry, as a copy taken while the server writes can be.
  fs.writeFileSync(file, fs.readFileSync(file).subarray(0, fs.readFileSync(file).length - 4096 - 10));
  const still = await collect(readLogSet([logSource(dir)]));
  assert.deepEqual(still.zxids, range(1, 2));
  assert.equal(still.issues.length, 1);
  assert.match(still.issues[0], /torn/);

  const items = readLogSet([logSource(dir)]);
  const first = await items.next();
  assert.equal(first.done, false);
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(file, later, later); // the server wrote on
  const rest = await collect(items);
  assert.deepEqual(rest.zxids, [2n]);
  assert.deepEqual(rest.issues, [`${file}: changed while it was read, so a running server is writing it; read up to zxid 0x2, later transactions are not included`]);
}));

test('files that start past --to are not opened; a window by zxid or time, a session, path globs', withTemp(async (root) => {
  const dir = member(root, 'a', [range(1, 2).map((z) => setData(z)), [setData(3n)]]);
  fs.writeFileSync(path.join(dir, 'version-2', 'log.3'), 'not a log at all');
  assert.deepEqual((await collect(readLogSet([logSource(dir)], { toZxid: 2n }))).issues, []);
  assert.match((await collect(readLogSet([logSource(dir)]))).issues[0], /not a ZooKeeper transaction log/);

  const txn = (over: Partial<Txn>): Txn => ({ session: 1n, cxid: 1, zxid: 5n, time: Date.parse('2026-11-28T03:12:00Z'), type: 5, record: { op: 'setData', path: '/locks/q/n-1', data: null, version: 1 }, ...over });
  assert.equal(txnMatcher({ from: { zxid: 5n }, to: { zxid: 5n } })(txn({})), true);
  assert.equal(txnMatcher({ from: { zxid: 6n } })(txn({})), false);
  assert.equal(txnMatcher({ to: parseLogBound('2026-11-28T03:11:59.999Z') })(txn({})), false);
  assert.equal(txnMatcher({ from: parseLogBound('2026-11-28 03:12') })(txn({})), true, 'a time without a zone is UTC');
  assert.equal(txnMatcher({ session: 2n })(txn({})), false);
  assert.equal(txnMatcher({ paths: ['/locks/**'] })(txn({})), true);
  assert.equal(txnMatcher({ paths: ['/locks/*'] })(txn({})), false);
  assert.equal(txnMatcher({ paths: ['/a'] })(txn({ record: { op: 'closeSession', paths: ['/a'] } })), true, 'the ephemerals a close removed');
  assert.equal(txnMatcher({ paths: ['/a'] })(txn({ record: { op: 'multi', parts: [{ op: 'check', path: '/b', version: 1 }, { op: 'delete', path: '/a' }] } })), true);
  assert.deepEqual(parseLogBound('0x1a'), { zxid: 0x1an });
  for (const bad of ['yesterday', '0x', '12:00', '2026-13-45T00:00Z', '0x12345678901234567']) assert.equal(parseLogBound(bad), undefined, bad);
}));

test('node history: how each node went (deleted, its session closed with and without the listed paths, container, TTL), multi parts', async () => {
  const S = 0x100000001n;
  const E = 0x100000002n;
  let zxid = 0n;
  const t = (session: bigint, record: Txn['record'], cxid = 0): LogSetItem => ({ kind: 'txn', source: 'a', txn: { session, cxid, zxid: ++zxid, time: 1000 + Number(zxid), type: 0, record } });
  const acl = [{ perms: 31, scheme: 'world', id: 'anyone' }];
  const items = [
    t(S, { op: 'create', path: '/n', data: Buffer.from('one'), acl, ephemeral: false, parentCVersion: 1 }),
    t(S, { op: 'multi', parts: [{ op: 'setData', path: '/n', data: Buffer.from('two'), version: 1 }, { op: 'create', path: '/other', data: null, acl, ephemeral: false }] }),
    // Failed: the part before the failing one is logged as written, yet the server applied none of it.
    t(S, { op: 'multi', parts: [{ op: 'setData', path: '/n', data: Buffer.from('never'), version: 2 }, { op: 'error', err: -101 }] }),
    t(S, { op: 'setACL', path: '/n', acl, version: 1 }),
    t(E, { op: 'delete', path: '/n' }),
    t(E, { op: 'create', path: '/e1', data: null, acl, ephemeral: true }),
    t(E, { op: 'create', path: '/e2', data: null, acl, ephemeral: true }),
    t(E, { op: 'closeSession' }, 7), // the older form: no paths, the creates say whose they were; closed by its client
    t(S, { op: 'closeSession', paths: ['/e3'] }), // an ephemeral created before the logs begin; expired (cxid 0)
    t(S, { op: 'createContainer', path: '/box', data: null, acl, parentCVersion: 1 }),
    t(0n, { op: 'deleteContainer', path: '/box' }),
    t(S, { op: 'createTTL', path: '/ttl', data: null, acl, parentCVersion: 1, ttl: 300n }),
    t(0n, { op: 'deleteContainer', path: '/ttl' }),
  ];
  async function* feed() {
    yield* items;
  }
  const entries = async (target: string) => {
    const got: HistoryEntry[] = [];
    for await (const item of nodeHistory(feed(), target)) if (item.kind === 'entry') got.push(item.entry);
    return got.map((e) => `${e.op}${e.inMulti ? '*' : ''} ${e.path} ${e.removed ?? `v${e.version}`} ${e.session.toString(16)}`);
  };
  assert.deepEqual(await entries('/n'), ['create /n v0 100000001', 'setData* /n v1 100000001', 'setACL /n v1 100000001', 'delete /n deleted 100000002']);
  assert.deepEqual(await entries('/e*'), ['create /e1 v0 100000002', 'create /e2 v0 100000002', 'closeSession /e1 sessionClosed 100000002', 'closeSession /e2 sessionClosed 100000002', 'closeSession /e3 sessionExpired 100000001']);
  assert.deepEqual(await entries('/box'), ['createContainer /box v0 100000001', 'deleteContainer /box containerEmptied 0']);
  assert.deepEqual(await entries('/ttl'), ['createTTL /ttl v0 100000001', 'deleteContainer /ttl ttlExpired 0']);
  assert.deepEqual(await entries('/other'), ['create* /other v0 100000001']);
});
