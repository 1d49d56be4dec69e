// What the logs cover, for the time control: the first and last transaction, each snapshot and log file once (several
// members' copies of the same boundary too), newest first with their times; a moment before the logs is told apart.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LogIndex } from '../../src/zk/serverLogs/logIndex';
import { logRange, logRangeFromIndex, momentOutsideLogs, utcText } from '../../src/zk/serverLogs/logRange';
import { logSource } from '../../src/zk/serverLogs/logSet';
import { TxnType } from '../../src/zk/serverLogs/txnOpCodes';
import { logFile, records, type FixtureTxn } from '../support/fixtures/serverLogFixtures';

const T0 = 1_796_000_000_000n; // 2026-11-30
const at = (zxid: bigint): FixtureTxn => ({ zxid, type: TxnType.create, record: records.create(`/n${zxid}`, '', false, Number(zxid)), session: 0x100000abcn, time: T0 + zxid * 1000n });

function member(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-range-unit-'));
  fs.writeFileSync(path.join(dir, 'log.1'), logFile([at(1n), at(2n), at(3n)]));
  fs.writeFileSync(path.join(dir, 'log.4'), logFile([at(4n), at(5n)]));
  // Only the names of snapshots are read here.
  fs.writeFileSync(path.join(dir, 'snapshot.2'), '');
  return dir;
}

test('the range and the boundaries of two members\' copies of the same logs, each once, newest first', async () => {
  const dirs = [member(), member()];
  try {
    const range = await logRange(dirs.map((dir) => logSource(dir)));
    assert.deepEqual(range.first, { zxid: 1n, time: Number(T0 + 1000n) });
    assert.deepEqual(range.last, { zxid: 5n, time: Number(T0 + 5000n) });
    assert.deepEqual(range.boundaries.map((b) => `${b.kind} ${b.zxid} ${b.time}`),
      [`log 4 ${T0 + 4000n}`, `snapshot 2 ${T0 + 2000n}`, `log 1 ${T0 + 1000n}`]);
    assert.equal(momentOutsideLogs(range, { time: Number(T0) }), 'before');
    assert.equal(momentOutsideLogs(range, { zxid: 0n }), 'before');
    assert.equal(momentOutsideLogs(range, { time: Number(T0 + 1000n) }), undefined);
    assert.equal(momentOutsideLogs({ boundaries: [] }, { zxid: 1n }), 'empty');
    assert.equal(utcText(Number(T0 + 1000n)), '2026-11-30 00:53:21.000 UTC');
  } finally {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the index gives the same range without reading a log again, and the same zxid for a time', async () => {
  const dirs = [member(), member()];
  try {
    const sources = dirs.map((dir) => logSource(dir));
    const index = await LogIndex.build(sources);
    assert.deepEqual(logRangeFromIndex(index), await logRange(sources));
    // A time between transactions stands for the last one at or before it; before the first, for none.
    assert.equal(index.lastAtOrBefore(Number(T0 + 3500n)), 2);
    assert.equal(index.zxids[index.lastAtOrBefore(Number(T0 + 5000n))!], 5n);
    assert.equal(index.lastAtOrBefore(Number(T0)), undefined);
    assert.equal(index.timeOf(4n), Number(T0 + 4000n));
    assert.equal(index.timeOf(9n), undefined);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-range-unit-'));
    dirs.push(empty);
    assert.deepEqual(logRangeFromIndex(await LogIndex.build([logSource(empty)])), { boundaries: [] });
  } finally {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
});
