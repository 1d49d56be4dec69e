import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readTxnLog, type TxnLogItem } from '../../src/zk/serverLogs/txnLogReader';
import { adler32 } from '../../src/zk/serverLogs/adler32';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';
import { hex } from '../../src/zk/stat';
import { logEntry, logFile, logFileHeader, plainAdler32, records, txnPayload, type FixtureTxn } from '../support/fixtures/serverLogFixtures';

async function readAll(bytes: Buffer, chunk = 7): Promise<TxnLogItem[]> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  const out: TxnLogItem[] = [];
  for await (const item of readTxnLog(Readable.from(chunks), 'log.1')) out.push(item);
  return out;
}
const txns = (items: TxnLogItem[]): Txn[] => items.flatMap((i) => (i.kind === 'txn' ? [i.txn] : []));
const issues = (items: TxnLogItem[]) => items.flatMap((i) => (i.kind === 'issue' ? [i.issue] : []));

const BIDI = '/locks/invoice-\u202Egnp.exe';
const EVERY_TYPE: FixtureTxn[] = [
  { zxid: 1n, type: -10, record: records.createSession(30000) },
  { zxid: 2n, type: 1, record: records.create('/a', 'hello') },
  { zxid: 3n, type: 15, record: records.create('/a/e', null, true, 0) },
  { zxid: 4n, type: 19, record: records.createContainer('/c', '') },
  { zxid: 5n, type: 21, record: records.createTTL('/t', 'x', 5000n) },
  { zxid: 6n, type: 5, record: records.setData('/a', Buffer.from([0xff, 0x00]), 1) },
  { zxid: 7n, type: 7, record: records.setACL('/a', [{ perms: 1, scheme: 'digest', id: 'u:h' }], 0) },
  { zxid: 8n, type: 2, record: records.delete(BIDI) },
  { zxid: 9n, session: 0n, type: 20, record: records.delete('/c') },
  { zxid: 10n, type: 14, record: records.multi([{ type: 13, record: records.check('/a', 2) }, { type: 1, record: records.create('/m', 'y') }]) },
  { zxid: 11n, type: 14, record: records.multi([{ type: -1, record: records.error(0) }, { type: -1, record: records.error(-110) }]) },
  { zxid: 12n, type: -1, record: records.error(-101) },
  { zxid: 13n, type: 16, record: records.setData('/zookeeper/config', 'server.1=...', -1) },
  { zxid: 14n, type: -11, record: records.closeSession(['/a/e', '/x']) },
  { zxid: 15n, type: -11, record: records.closeSession([]) },
];

describe('transaction log reader', () => {
  test('Adler-32 matches a plain computation, past the point where sums must be reduced', () => {
    const bytes = Buffer.alloc(100_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    assert.equal(adler32(bytes), plainAdler32(bytes));
    assert.equal(adler32(Buffer.from('Wikipedia')), 0x11e60398);
  });

  for (const withDigest of [false, true]) {
    test(`every record type the servers write, ${withDigest ? 'with' : 'without'} digests`, async () => {
      const input = EVERY_TYPE.map((t) => ({ ...t, digest: withDigest ? { version: 2, treeDigest: 0x1234567890abcdefn } : undefined }));
      const items = await readAll(logFile(input));
      assert.deepEqual(issues(items), []);
      assert.deepEqual(items[0], { kind: 'header', header: { magic: 0x5a4b4c47, version: 2, dbid: 0n } });
      const read = txns(items);
      assert.deepEqual(read.map((t) => t.zxid), input.map((t) => t.zxid));
      assert.deepEqual(read.map((t) => t.record.op), ['createSession', 'create', 'create2', 'createContainer', 'createTTL', 'setData', 'setACL', 'delete', 'deleteContainer', 'multi', 'multi', 'error', 'reconfig', 'closeSession', 'closeSession']);
      assert.deepEqual(read.map((t) => t.digest), input.map((t) => t.digest));
      assert.deepEqual(read[0].record, { op: 'createSession', timeout: 30000 });
      assert.deepEqual(read[1].record, { op: 'create', path: '/a', data: Buffer.from('hello'), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], ephemeral: false, parentCVersion: 1 });
      assert.deepEqual(read[2].record, { op: 'create2', path: '/a/e', data: null, acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], ephemeral: true, parentCVersion: 0 });
      assert.deepEqual(read[3].record, { op: 'createContainer', path: '/c', data: Buffer.alloc(0), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], parentCVersion: 1 });
      assert.deepEqual(read[4].record, { op: 'createTTL', path: '/t', data: Buffer.from('x'), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], parentCVersion: 1, ttl: 5000n });
      assert.deepEqual(read[5].record, { op: 'setData', path: '/a', data: Buffer.from([0xff, 0]), version: 1 });
      assert.deepEqual(read[6].record, { op: 'setACL', path: '/a', acl: [{ perms: 1, scheme: 'digest', id: 'u:h' }], version: 0 });
      assert.deepEqual(read[7].record, { op: 'delete', path: BIDI }, 'a bidi path comes back exactly as written');
      assert.equal(read[8].session, 0n);
      assert.deepEqual(read[9].record, { op: 'multi', parts: [{ op: 'check', path: '/a', version: 2 }, { op: 'create', path: '/m', data: Buffer.from('y'), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], ephemeral: false, parentCVersion: 1 }] });
      assert.deepEqual(read[10].record, { op: 'multi', parts: [{ op: 'error', err: 0 }, { op: 'error', err: -110 }] });
      assert.deepEqual(read[11].record, { op: 'error', err: -101 });
      assert.deepEqual(read[12].record, { op: 'reconfig', path: '/zookeeper/config', data: Buffer.from('server.1=...'), version: -1 });
      assert.deepEqual(read[13].record, { op: 'closeSession', paths: ['/a/e', '/x'] });
      assert.deepEqual(read[14].record, { op: 'closeSession', paths: [] });
      assert.equal(read[0].time, 1_700_000_000_123);
    });

    test(`closeSession without a body (before 3.6, or closeSessionTxn disabled), ${withDigest ? 'with' : 'without'} a digest`, async () => {
      const digest = withDigest ? { version: 2, treeDigest: -5n } : undefined;
      const read = txns(await readAll(logFile([{ zxid: 3n, type: -11, record: Buffer.alloc(0), digest }])));
      assert.deepEqual(read.map((t) => [t.record, t.digest]), [[{ op: 'closeSession' }, digest]]);
    });
  }

  test('the oldest create (no parentCVersion) reads as ZooKeeper falls back to it', async () => {
    const read = txns(await readAll(logFile([{ zxid: 1n, type: 1, record: records.create('/old', 'v', false, null) }])));
    assert.deepEqual(read[0].record, { op: 'create', path: '/old', data: Buffer.from('v'), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], ephemeral: false });
  });

  test('zxids and sessions above 2^53 stay exact and print as 0x hex', async () => {
    const read = txns(await readAll(logFile([{ zxid: 0x7fff_0000_0000_0001n, session: 0xff00_0000_0000_0123n, type: -10, record: records.createSession(1) }])));
    assert.equal(hex(read[0].zxid), '0x7fff000000000001');
    assert.equal(hex(read[0].session), '0xff00000000000123');
  });

  test('a log that ends exactly after an entry, without a zero tail, ends without an issue', async () => {
    const items = await readAll(logFile(EVERY_TYPE.slice(0, 2), 0));
    assert.equal(txns(items).length, 2);
    assert.deepEqual(issues(items), []);
  });

  const two = [EVERY_TYPE[0], EVERY_TYPE[1]];
  const whole = Buffer.concat([logFileHeader(), ...two.map((t) => logEntry(txnPayload(t)))]);
  for (const [where, cut] of [['in its checksum', 6], ['in its payload', 20], ['before its end byte', 1]] as const) {
    test(`a torn last entry (cut ${where}) is one line, the entries before it are read`, async () => {
      const items = await readAll(whole.subarray(0, where === 'in its checksum' ? whole.length - logEntry(txnPayload(two[1])).length + cut : whole.length - cut));
      assert.equal(txns(items).length, 1);
      const found = issues(items);
      assert.equal(found.length, 1);
      assert.equal(found[0].kind, 'tornEntry');
      assert.doesNotMatch(found[0].message, /\n/);
    });
  }

  test('an entry whose checksum lies is one line; it is skipped and the next one is read', async () => {
    const [a, b, c] = EVERY_TYPE;
    const bytes = Buffer.concat([logFileHeader(), logEntry(txnPayload(a)), logEntry(txnPayload(b), { checksum: 12345n }), logEntry(txnPayload(c)), Buffer.alloc(64)]);
    const items = await readAll(bytes);
    assert.deepEqual(txns(items).map((t) => t.zxid), [1n, 3n]);
    assert.deepEqual(issues(items).map((i) => [i.kind, i.offset]), [['badChecksum', 16 + logEntry(txnPayload(a)).length]]);
  });

  test('garbage after the header is one line, and nothing is invented from it', async () => {
    const garbage = Buffer.alloc(5000);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 131 + 17) & 0xff;
    const items = await readAll(Buffer.concat([logFileHeader(), garbage]));
    assert.equal(txns(items).length, 0);
    assert.equal(issues(items).length, 1);
    assert.match(issues(items)[0].kind, /badLength|badEndByte|badChecksum|tornEntry/);
  });

  test('a length of 2 GB is refused in one line without reading or allocating it', async () => {
    const entry = Buffer.alloc(12);
    entry.writeInt32BE(0x7fffffff, 8);
    let pulled = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.concat([logFileHeader(), logEntry(txnPayload(EVERY_TYPE[0])), entry]);
      for (;;) {
        pulled++;
        yield Buffer.alloc(65536, 1);
      }
    }
    const items: TxnLogItem[] = [];
    for await (const item of readTxnLog(endless(), 'log.2')) items.push(item);
    assert.equal(txns(items).length, 1);
    assert.deepEqual(issues(items).map((i) => i.kind), ['badLength']);
    assert.match(issues(items)[0].message, /2147483647/);
    assert.ok(pulled <= 1, `read ${pulled} chunks past the bad length`);
  });

  test('a file that is not a log says so in one line', async () => {
    const items = await readAll(Buffer.concat([logFileHeader(0n, 0x5a4b534e), Buffer.alloc(100)]));
    assert.deepEqual(issues(items).map((i) => i.kind), ['badHeader']);
    assert.deepEqual(issues(await readAll(Buffer.from('ZK'))).map((i) => i.kind), ['badHeader']);
  });

  test('streaming reads ahead no more than the entry it decodes: memory does not grow with the log', async () => {
    const entry = logEntry(txnPayload(EVERY_TYPE[1]));
    let produced = 0;
    async function* log(): AsyncGenerator<Buffer> {
      yield logFileHeader();
      for (let i = 0; i < 100_000; i++) {
        produced++;
        yield entry;
      }
    }
    let seen = 0;
    for await (const item of readTxnLog(log(), 'log.big')) {
      if (item.kind !== 'txn') continue;
      seen++;
      assert.ok(produced - seen <= 1, `${produced - seen} entries buffered ahead`);
      if (seen === 50_000) break;
    }
    assert.equal(seen, 50_000);
  });
});
