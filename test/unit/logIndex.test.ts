import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lockHistoryFromIndex, lockHistoryFromLogs } from '../../src/zk/history/fromServerLogs';
import { parsePathGlob } from '../../src/zk/pathGlob';
import { globFolderTest, LogIndex, pathKey } from '../../src/zk/serverLogs/logIndex';
import { logSource, readLogSet, type LogSetItem, type LogSource } from '../../src/zk/serverLogs/logSet';
import { nodeHistory, nodeHistoryFromIndex, type HistoryItem } from '../../src/zk/serverLogs/nodeHistory';
import type { LogBound } from '../../src/zk/serverLogs/txnFilter';
import { TxnType } from '../../src/zk/serverLogs/txnOpCodes';
import { type FixtureTxn, logFile, records } from '../support/fixtures/serverLogFixtures';

/** A small pseudo-random generator: the same workload every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

const T0 = 1_700_000_000_000n;

/**
 * A workload of every kind the index files: plain writes under /app, lock queues under /locks (ephemeral sequential
 * members, released, given up, gone with an expired or closed session, listed or not), multis (one failed), a
 * container removed by the server. `pathless`: closeSessions without their paths, as older servers write them.
 */
function workload(pathless: boolean, count = 3000): FixtureTxn[] {
  const next = random(7);
  const txns: FixtureTxn[] = [];
  let zxid = 0n;
  const add = (session: bigint, type: number, record: Buffer, cxid = 3) => txns.push({ zxid: ++zxid, session, cxid, time: T0 + zxid * 997n, type, record });
  const queued = new Map<bigint, string[]>();
  let sequence = 0;
  let session = 0x200000000n;
  for (const dir of ['/app', '/locks', '/locks/q1', '/locks/q2', '/app/deep', '/app/deep/er']) add(1n, TxnType.create, records.create(dir, ''));
  while (txns.length < count) {
    const roll = next();
    if (roll < 0.35) {
      const dir = ['/app', '/app/deep', '/app/deep/er'][Math.floor(next() * 3)];
      const name = `${dir}/n${Math.floor(next() * 30)}`;
      const kind = next();
      if (kind < 0.4) add(1n, TxnType.create, records.create(name, `made ${zxid}`));
      else if (kind < 0.8) add(1n, TxnType.setData, records.setData(name, `v ${zxid}`, Number(zxid % 100n)));
      else add(1n, TxnType.delete, records.delete(name));
    } else if (roll < 0.65) {
      const owner = ++session;
      const member = `/locks/q${1 + Math.floor(next() * 2)}/_c_0f0e0d0c-0b0a-0908-0706-050403020100-lock-${String(sequence++).padStart(10, '0')}`;
      add(owner, TxnType.createSession, records.createSession(4000));
      add(owner, TxnType.create2, records.create(member, null, true));
      queued.set(owner, [member]);
    } else if (roll < 0.9 && queued.size > 0) {
      const owners = [...queued.keys()];
      const owner = owners[Math.floor(next() * Math.min(3, owners.length))];
      const member = queued.get(owner)!;
      const how = next();
      if (how < 0.5) {
        add(owner, TxnType.delete, records.delete(member[0]));
        add(owner, TxnType.closeSession, pathless ? Buffer.alloc(0) : records.closeSession([]));
      } else add(owner, TxnType.closeSession, pathless ? Buffer.alloc(0) : records.closeSession(member), how < 0.75 ? 0 : 5);
      queued.delete(owner);
    } else if (roll < 0.95) {
      const name = `/app/m${Math.floor(next() * 5)}`;
      const failed = next() < 0.3;
      add(1n, TxnType.multi, records.multi([
        { type: TxnType.create, record: records.create(name, 'in a multi') },
        failed ? { type: TxnType.error, record: records.error(-101) } : { type: TxnType.setData, record: records.setData('/app', `by multi ${zxid}`, 1) },
      ]));
    } else {
      add(1n, TxnType.createContainer, records.createContainer('/app/box', 'c'));
      add(0n, TxnType.deleteContainer, records.delete('/app/box'));
    }
  }
  return txns;
}

/** The transactions in files of `per` each, the given zxids left out (a gap), in a member's version-2. */
function member(root: string, txns: FixtureTxn[], per: number, leaveOut: (zxid: bigint) => boolean = () => false): LogSource {
  const dir = path.join(root, 'version-2');
  fs.mkdirSync(dir, { recursive: true });
  const kept = txns.filter((t) => !leaveOut(t.zxid));
  for (let i = 0; i < kept.length; i += per) {
    const part = kept.slice(i, i + per);
    fs.writeFileSync(path.join(dir, `log.${part[0].zxid.toString(16)}`), logFile(part));
  }
  return logSource(root);
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* replay(items: LogSetItem[]): AsyncGenerator<LogSetItem> {
  yield* items;
}

/** The lock history as `zooscope log --locks --to` reads it whole: every transaction until the first past `to`. */
async function* until(items: AsyncIterable<LogSetItem>, to: LogBound | undefined): AsyncGenerator<LogSetItem> {
  for await (const item of items) {
    if (item.kind === 'txn' && to && ('zxid' in to ? item.txn.zxid > to.zxid : item.txn.time > to.time)) return;
    yield item;
  }
}

function withTemp(run: (root: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-logindex-'));
    try {
      await run(root);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };
}

const TARGETS = ['/app', '/app/n3', '/app/deep/n7', '/app/deep/er/n1', '/app/m2', '/app/box', '/', '/nothing/here', '/app/*', '/app/**', '/**', '/**/n1', '/locks/q1/*',
  '/locks/**', '/app/deep/**/n?', '/*/deep', '/app/n1*', '/app/**n2'];

for (const form of [{ name: 'closeSessions listing their paths (3.6+)', pathless: false }, { name: 'closeSessions without paths (older servers)', pathless: true }]) {
  test(`${form.name}: node history from the index is the full read's, item for item (issues in place), for paths and globs`, withTemp(async (root) => {
    const txns = workload(form.pathless);
    const ephemerals = txns.filter((t) => t.type === TxnType.create2).map((t) => t.record);
    assert.ok(ephemerals.length > 100);
    // A gap (zxids 1500–1509 in no file) and several files.
    const sources = [member(root, txns, 400, (z) => z >= 1500n && z < 1510n)];
    const index = await LogIndex.build(sources);
    assert.equal(index.issues.length, 1);
    const read = await all(readLogSet(sources));
    // The targets, and a sample of every path the logs name (each lock member's is its own).
    const named = [...new Set(read.flatMap((item) => (item.kind === 'txn' && 'path' in item.txn.record ? [item.txn.record.path] : [])))];
    for (const target of [...TARGETS, ...named.filter((_, i) => i % 12 === 0)]) {
      const full: HistoryItem[] = await all(nodeHistory(replay(read), target));
      const indexed = await all(nodeHistoryFromIndex(index, target));
      assert.deepEqual(indexed, full, target);
    }
    // It reads few: one node's transactions, not the log.
    const one = index.select({ path: '/app/deep/n7' }).length;
    // (Older servers' closeSessions name no path: each is read for every question.)
    assert.ok(one > 0 && one < index.count / (form.pathless ? 4 : 20), `${one} of ${index.count} chosen for one node`);
  }));

  test(`${form.name}: lock history from the index is the full read's, whole and cut at a time or a zxid, from a snapshot or not`, withTemp(async (root) => {
    const txns = workload(form.pathless);
    const sources = [member(root, txns, 500, (z) => z === 2500n)];
    const index = await LogIndex.build(sources);
    const times = txns.map((t) => Number(t.time));
    const read = await all(readLogSet(sources));
    const windows: (LogBound | undefined)[] = [undefined, { time: times[1200] }, { time: times[2800] }, { zxid: 900n }, { zxid: 2499n }, { zxid: 5n }];
    const starts = [undefined, { zxid: 0n, nodes: [] }, { zxid: 6n, nodes: [] }, { zxid: 700n, nodes: [] }];
    for (const lockRoot of ['/locks', '/locks/q2', '/']) {
      for (const to of windows) {
        for (const start of starts) {
          const what = `${lockRoot} to ${JSON.stringify(to, (_, v) => (typeof v === 'bigint' ? String(v) : v))} from ${start?.zxid}`;
          const full = await lockHistoryFromLogs(until(replay(read), to), lockRoot, start);
          const indexed = await lockHistoryFromIndex(index, lockRoot, start, { to });
          assert.deepEqual(indexed, full, what);
        }
      }
    }
    const full = await lockHistoryFromLogs(readLogSet(sources), '/locks', undefined);
    assert.ok([...full.history.intervals()].length > 100, 'the workload has lock activity');
    assert.match(full.stoppedAt ?? '', /0x9c4/, 'the gap stops the history');
  }));
}

test('several members merged: the index holds each transaction once, from whichever member had it, and says a gap as the merge does', withTemp(async (root) => {
  const txns = workload(false, 1200);
  const a = member(path.join(root, 'a'), txns, 300, (z) => z >= 300n && z < 600n);
  const b = member(path.join(root, 'b'), txns, 250, (z) => z < 200n || (z >= 500n && z < 520n));
  const index = await LogIndex.build([a, b]);
  const merged = (await all(readLogSet([a, b]))).flatMap((item) => (item.kind === 'txn' ? [item.txn.zxid] : []));
  assert.deepEqual([...index.zxids], merged);
  assert.deepEqual(index.issues.map((i) => i.item.issue.message), ['no log given holds zxid 0x1f4–0x207 (20 transactions): what happened then is not known']);
  for (const target of ['/locks/**', '/app/n3', '/app/**']) assert.deepEqual(await all(nodeHistoryFromIndex(index, target)), await all(nodeHistory(readLogSet([a, b]), target)), target);
}));

test('an index knows when its files changed (size or mtime, a file added): it no longer matches, and a changed entry is refused', withTemp(async (root) => {
  const txns = workload(false, 600);
  const source = member(root, txns, 200);
  const index = await LogIndex.build([source]);
  assert.equal(index.matches([logSource(root)]), true);
  const [first] = source.files;
  const bytes = fs.readFileSync(first);
  // The same size, other bytes, a later mtime: an operator copied another member's file over it.
  bytes[40] ^= 0xff;
  fs.writeFileSync(first, bytes);
  fs.utimesSync(first, new Date(), new Date(Date.now() + 5000));
  assert.equal(index.matches([logSource(root)]), false);
  await assert.rejects(all(nodeHistoryFromIndex(index, '/**')), /the logs changed since they were read/);
  fs.writeFileSync(path.join(root, 'version-2', 'log.ffff'), logFile([{ zxid: 0xffffn, type: TxnType.delete, record: records.delete('/x') }]));
  const rebuilt = await LogIndex.build([logSource(root)]);
  assert.equal(rebuilt.matches([logSource(root)]), true);
  assert.equal(index.matches([logSource(root)]), false);
}));

test('a glob\'s folders: every folder holding a path the glob matches is chosen (a superset), and unrelated folders are not', () => {
  const paths = ['/', '/a', '/a/b', '/a/b/c', '/a/bc/d', '/x/y/z/w', '/locks/q1/_c_x-lock-0000000001', '/ab', '/a/b/c/d/e', '/a b/c'];
  const globs = ['/', '/**', '/a', '/a/*', '/a/**', '/a/**/c', '/**/c', '/*/b', '/a/b?', '/a/b*/**', '/locks/*/_c_*', '/a/b**', '/?/b/*', '/a b/*', '/x/**/w', 'a/*'];
  for (const glob of globs) {
    const matches = parsePathGlob(glob);
    const folders = globFolderTest(glob);
    for (const p of paths) if (matches(p)) assert.ok(folders(pathKey(p).dir), `${glob} matches ${p}: its folder ${pathKey(p).dir} must be chosen`);
  }
  assert.equal(globFolderTest('/a/*')('/x'), false);
  assert.equal(globFolderTest('/a/**/c')('/b/a'), false);
  assert.equal(globFolderTest('/locks/*/_c_*')('/locks/q1'), true);
  assert.equal(globFolderTest('/locks/*/_c_*')('/locks'), false);
});

test('an index costs well under 100 bytes a transaction in its arrays', withTemp(async (root) => {
  const index = await LogIndex.build([member(root, workload(false, 20000), 5000)]);
  assert.ok(index.arrayBytes / index.count < 100, `${(index.arrayBytes / index.count).toFixed(1)} B per transaction`);
}));
