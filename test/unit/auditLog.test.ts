// The servers' audit log: lines as Debian's ZooKeeper 3.8.0 wrote them (copied from a real server's
// zookeeper_audit.log, tabs and all), hostile files (one issue line each, the rest read), and the join's rule: the
// same session, operation and path within the tolerance, the server's zone found from the lines themselves, and a
// write whose line is gone left without an address.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { auditFiles, MAX_AUDIT_LINE, parseAuditLine, readAuditFile, type AuditEntry } from '../../src/zk/serverLogs/auditLog';
import { AuditBook, AuditJoin, MATCH_TOLERANCE_MS, type AuditedItem } from '../../src/zk/serverLogs/auditJoin';
import type { LogSetItem } from '../../src/zk/serverLogs/logSet';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';
import { runZooscope } from '../../src/cli/dispatch';
import type { Output } from '../../src/cli/output';
import { logFile, records } from '../support/fixtures/serverLogFixtures';

const REAL = [
  '2026-11-28 23:31:59,765 INFO audit.Slf4jAuditLogger: user=root\toperation=serverStart\tresult=success',
  '2026-11-28 23:32:04,698 INFO audit.Slf4jAuditLogger: session=0x10002a6d4810000\tuser=127.0.0.1\tip=127.0.0.1\toperation=create\tznode=/a\tznode_type=persistent\tresult=success',
  '2026-11-28 23:32:04,722 INFO audit.Slf4jAuditLogger: session=0x10002a6d4810001\tuser=alice,127.0.0.1\tip=127.0.0.1\toperation=create\tznode=/b\u202eevil\tznode_type=persistent\tresult=success',
  '2026-11-28 23:32:04,763 ERROR audit.Slf4jAuditLogger: session=0x10002a6d4810000\tuser=127.0.0.1\tip=127.0.0.1\toperation=delete\tznode=/nope\tresult=failure',
  '2026-11-28 23:32:04,767 ERROR audit.Slf4jAuditLogger: session=0x10002a6d4810000\tuser=127.0.0.1\tip=127.0.0.1\toperation=multiOperation\tresult=failure',
  '2026-11-28 23:32:04,777 INFO audit.Slf4jAuditLogger: session=0x10002a6d4810000\tuser=root\toperation=ephemeralZNodeDeletionOnSessionCloseOrExpire\tznode=/e\tresult=success',
];

const entryOf = (line: string): AuditEntry => {
  const parsed = parseAuditLine(line, 1);
  assert.ok(parsed && 'entry' in parsed, `${line}: ${parsed ? (parsed as { problem: string }).problem : 'not an audit line'}`);
  return parsed.entry;
};

test('the lines a real 3.8.0 server wrote: every field, the time as written (its zone unknown)', () => {
  assert.deepEqual(entryOf(REAL[0]), { user: 'root', operation: 'serverStart', result: 'success', time: Date.UTC(2026, 10, 28, 23, 31, 59, 765), zoned: false, line: 1 });
  assert.deepEqual(entryOf(REAL[1]), {
    session: 0x10002a6d4810000n, user: '127.0.0.1', ip: '127.0.0.1', operation: 'create', znode: '/a', znodeType: 'persistent',
    result: 'success', time: Date.UTC(2026, 10, 28, 23, 32, 4, 698), zoned: false, line: 1,
  });
  assert.equal(entryOf(REAL[2]).znode, '/b\u202eevil');
  assert.equal(entryOf(REAL[2]).user, 'alice,127.0.0.1');
  assert.deepEqual([entryOf(REAL[4]).operation, entryOf(REAL[4]).znode, entryOf(REAL[4]).result], ['multiOperation', undefined, 'failure']);
  assert.equal(entryOf(REAL[5]).ip, undefined);
  // Another appender's pattern (slf4j-simple with dates; a zone in the pattern) and a CRLF file.
  assert.equal(entryOf('2026-11-28T23:32:04.698+05:30 [NIOWorkerThread-1] INFO org.apache.zookeeper.audit.Slf4jAuditLogger - session=0x1\tuser=u\tip=10.0.0.1\toperation=setData\tznode=/x\tresult=success').time, Date.UTC(2026, 10, 28, 18, 2, 4, 698));
  assert.equal(entryOf(`${REAL[1]}\r`.replace(/\r$/, '')).znode, '/a');
  // The server's own log lines are not audit lines.
  assert.equal(parseAuditLine('2026-11-28 23:32:04,569 - INFO  [SyncThread:0:FileTxnLog@284] - Creating new log file: log.1', 1), undefined);
});

test('hostile audit files: garbage, a huge line, a tab or line break inside a value: one issue line each, the rest read', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-audit-'));
  try {
    const file = path.join(dir, 'zookeeper_audit.log');
    const forgedUser = '2026-11-28 23:32:05,000 INFO audit.Slf4jAuditLogger: session=0x1\tuser=x\tip=6.6.6.6\tip=127.0.0.1\toperation=create\tznode=/f\tresult=success';
    const cut = '2026-11-28 23:32:05,001 INFO audit.Slf4jAuditLogger: session=0x1\tuser=x\tip=1.2.3.4\toperation=create\tznode=/line';
    const badSession = '2026-11-28 23:32:05,002 INFO audit.Slf4jAuditLogger: session=0xZZ\u202e\tuser=x\tip=1.2.3.4\toperation=create\tznode=/s\tresult=success';
    fs.writeFileSync(file, Buffer.concat([
      Buffer.from(`${REAL[1]}\n`),
      Buffer.from([0x00, 0xff, 0xfe, 0x0a]),
      Buffer.from(`2026-11-28 23:32:05,000 INFO audit.Slf4jAuditLogger: session=0x1\tuser=${'u'.repeat(MAX_AUDIT_LINE * 3)}\tresult=success\n`),
      Buffer.from(`${forgedUser}\n${cut}\nbreak\tznode_type=persistent\tresult=success\n${badSession}\n`),
      Buffer.from('2026-11-28 23:32:05,003 - INFO  [main:ZooKeeperServer@1] - not an audit line\n'),
      Buffer.from(`${REAL[2]}\r\n${REAL[3]}`),
    ]));
    const entries: AuditEntry[] = [];
    const issues: string[] = [];
    for await (const item of readAuditFile(file)) {
      if (item.kind === 'entry') entries.push(item.entry);
      else issues.push(item.issue.message);
    }
    assert.deepEqual(entries.map((e) => [e.line, e.znode]), [[1, '/a'], [9, '/b\u202eevil'], [10, '/nope']]);
    assert.equal(issues.length, 5, issues.join('\n'));
    assert.match(issues[0], /line 3 is longer than/);
    assert.match(issues[1], /line 4: a value holds a tab/);
    assert.match(issues[2], /line 5: no operation or result/);
    assert.match(issues[3], /line 7: its session is not a session id/);
    assert.match(issues[4], /3 lines are not audit lines: skipped/); // the garbage, the cut line's rest, the server's line
    for (const message of issues) assert.ok(!/[\n\r\u202e]/.test(message), `one plain line: ${message}`);
    // Too many bad lines: said up to a limit, then counted in one line.
    fs.writeFileSync(file, `${REAL[1]}\n${`${cut}\n`.repeat(500)}`);
    const many: string[] = [];
    for await (const item of readAuditFile(file)) if (item.kind === 'issue') many.push(item.issue.message);
    assert.equal(many.length, 21);
    assert.match(many[20], /480 more lines/);
    // A folder: ZooKeeper's documented file and its rolled copies, oldest first.
    for (const name of ['zookeeper_audit.log.2', 'zookeeper_audit.log.10', 'zookeeper.log', 'zookeeper_audit.log.1']) fs.writeFileSync(path.join(dir, name), '');
    assert.deepEqual(auditFiles(dir).map((f) => path.basename(f)), ['zookeeper_audit.log.10', 'zookeeper_audit.log.2', 'zookeeper_audit.log.1', 'zookeeper_audit.log']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const T0 = Date.UTC(2026, 10, 28, 3, 0, 0);
const ACL = [{ perms: 31, scheme: 'world', id: 'anyone' }];
let zxid = 0n;
const txn = (session: bigint, time: number, record: Txn['record']): LogSetItem => ({ kind: 'txn', source: 'x', txn: { session, cxid: 1, zxid: ++zxid, time, type: 1, record } });
const create = (p: string): Txn['record'] => ({ op: 'create', path: p, data: null, acl: ACL, ephemeral: false, parentCVersion: 0 });
const setData = (p: string): Txn['record'] => ({ op: 'setData', path: p, data: null, version: 1 });
const line = (session: bigint, ip: string, user: string, operation: string, znode: string, time: number): AuditEntry => ({ session, ip, user, operation, znode, result: 'success', time, zoned: false, line: 0 });

async function joined(items: LogSetItem[], lines: AuditEntry[]): Promise<{ out: AuditedItem[]; join: AuditJoin }> {
  const book = new AuditBook();
  const file = book.file('zookeeper_audit.log');
  for (const entry of lines) book.add(entry, file);
  const join = new AuditJoin(book);
  const out: AuditedItem[] = [];
  async function* source(): AsyncGenerator<LogSetItem> { yield* items; }
  for await (const item of join.items(source())) out.push(item);
  return { out, join };
}

test('the join: session, operation and path within the tolerance; the zone found; a missing line gives no address', async () => {
  const IST = (5 * 60 + 30) * 60000; // the server's clock in UTC+05:30
  const items = [
    txn(0xan, T0, create('/a')),
    txn(0xan, T0 + 10, setData('/a')),
    txn(0xbn, T0 + 20, create('/b')),
    txn(0xbn, T0 + 30, setData('/b')), // one line for these two: which lacks its own cannot be told
    txn(0xbn, T0 + 40, setData('/b')),
    txn(0xbn, T0 + 45, setData('/c')), // two writes, two lines in the same millisecond: in order
    txn(0xbn, T0 + 45, setData('/c')),
    txn(0xbn, T0 + 50, { op: 'multi', parts: [create('/m1'), create('/m2')] }),
    txn(0xbn, T0 + 60, { op: 'multi', parts: [create('/f'), { op: 'error', err: -110 }] }), // failed: nothing written
    txn(0xan, T0 + 70, create('/late')), // its line is beyond the tolerance
    txn(0xan, T0 + 80, create('/other')), // only another session's line has this path
    txn(0n, T0 + 90, { op: 'deleteContainer', path: '/a' }), // the server's own
    txn(0xan, T0 + 100, create('/y')), // a forged line (a path with a line break can carry one) disagrees with the real
  ];
  const lines = [
    line(0xan, '10.0.0.1', '10.0.0.1', 'create', '/a', T0 + IST + 3),
    line(0xan, '10.0.0.1', '10.0.0.1', 'setData', '/a', T0 + IST + 12),
    line(0xbn, '10.0.0.2', 'alice,10.0.0.2', 'create', '/b', T0 + IST + 21),
    line(0xbn, '10.0.0.2', 'alice,10.0.0.2', 'setData', '/b', T0 + IST + 41),
    line(0xbn, '10.0.0.2', 'alice,10.0.0.2', 'setData', '/c', T0 + IST + 46),
    line(0xbn, '10.0.0.2', 'alice,10.0.0.2', 'setData', '/c', T0 + IST + 46),
    line(0xbn, '10.0.0.2', 'alice,10.0.0.2', 'create', '/m1', T0 + IST + 52),
    line(0xbn, '10.0.0.2', 'alice,10.0.0.2', 'create', '/m2', T0 + IST + 52),
    line(0xan, '10.0.0.1', '10.0.0.1', 'create', '/late', T0 + IST + 70 + MATCH_TOLERANCE_MS + 1),
    line(0xcn, '10.0.0.3', '10.0.0.3', 'create', '/other', T0 + IST + 81),
    line(0xan, '10.0.0.1', '10.0.0.1', 'create', '/f', T0 + IST + 61),
    line(0xan, '6.6.6.6', '6.6.6.6', 'create', '/y', T0 + IST + 99),
    line(0xan, '10.0.0.1', '10.0.0.1', 'create', '/y', T0 + IST + 101),
  ];
  const { out, join } = await joined(items, lines);
  assert.deepEqual(out.map((item) => (item.kind === 'txn' ? item.audit?.user ?? null : 'issue')), [
    '10.0.0.1', '10.0.0.1', 'alice,10.0.0.2', null, null, 'alice,10.0.0.2', 'alice,10.0.0.2', 'alice,10.0.0.2', null, null, null, null, null,
  ]);
  assert.match(join.disputeNote() ?? '', /^1 write had audit lines that disagree/);
  assert.equal(join.unsureWrites, 2);
  assert.equal(out[0].kind === 'txn' && out[0].audit?.client, '10.0.0.1');
  assert.deepEqual(join.zoneNotes(), ['zookeeper_audit.log: its times are the server\'s local time, UTC+05:30 (as its lines and the transactions agree)']);
});

test('zooscope log --audit: text lines show a hostile user as visible text, JSON keeps it exact; --sessions lists them', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-audit-'));
  try {
    fs.writeFileSync(path.join(dir, 'log.1'), logFile([
      { zxid: 1n, session: 0x5n, time: BigInt(T0), type: 1, record: records.create('/a', 'x') },
      { zxid: 2n, session: 0x5n, time: BigInt(T0 + 5), type: 2, record: records.delete('/a') },
    ]));
    const audit = path.join(dir, 'zookeeper_audit.log');
    fs.writeFileSync(audit, [
      `2026-11-28 03:00:00,002 INFO audit.Slf4jAuditLogger: session=0x5\tuser=bob\u202e,127.0.0.1\tip=127.0.0.1\toperation=create\tznode=/a\tznode_type=persistent\tresult=success`,
    ].join('\n'));
    const run = async (args: string[]) => {
      const lines: string[] = [];
      const errors: string[] = [];
      const out = { text: (t: string) => lines.push(t), exact: (t: string) => lines.push(...t.split('\n').filter(Boolean)), error: (t: string) => errors.push(t), closed: false } as unknown as Output;
      return { code: await runZooscope(['log', path.join(dir, 'log.1'), ...args], out, 'test'), lines, errors };
    };
    const text = await run(['--audit', audit]);
    assert.equal(text.code, 0, text.errors.join('\n'));
    assert.equal(text.lines[0], '0x1 2026-11-28T03:00:00.000Z 0x5 (client 127.0.0.1, user bob[U+202E],127.0.0.1) create /a');
    assert.equal(text.lines[1], '0x2 2026-11-28T03:00:00.005Z 0x5 delete /a', 'the delete has no audit line: no address');
    const json = await run(['--audit', dir, '--json']);
    assert.ok(json.lines[0].includes('"client":"127.0.0.1","user":"bob\\u202e,127.0.0.1"'), json.lines[0]);
    assert.ok(!json.lines[1].includes('client'));
    const sessions = await run(['--audit', audit, '--sessions']);
    assert.match(sessions.lines[0], /; from 127\.0\.0\.1; as "bob\[U\+202E\],127\.0\.0\.1"$/);
    assert.equal((await run(['--audit', audit, '--tree-at', '0x1'])).code, 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
