import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { dataFields } from '../../src/cli/commands/log/lineBatch';
import { auditFields, type AuditMatch } from '../../src/zk/serverLogs/auditJoin';
import type { Txn, TxnRecord } from '../../src/zk/serverLogs/txnTypes';
import { hex } from '../../src/zk/stat';
import { txnJson } from '../../src/cli/commands/log/txnJson';
import { TxnType } from '../../src/zk/serverLogs/txnOpCodes';
import { decodeTxnPayload } from '../../src/zk/serverLogs/txnPayload';
import { records, txnPayload } from '../support/fixtures/serverLogFixtures';

// The line as objects, JSON.stringify'd: what txnJson writes straight into a string must equal it.
function recordFields(record: TxnRecord): Record<string, unknown> {
  const { op, ...rest } = record;
  const fields: Record<string, unknown> = { op };
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'data') Object.assign(fields, dataFields(value as Buffer | null));
    else if (key === 'parts') fields.parts = (value as TxnRecord[]).map(recordFields);
    else fields[key] = typeof value === 'bigint' ? String(value) : value;
  }
  return fields;
}

function txnLine(txn: Txn, audit?: AuditMatch): Record<string, unknown> {
  return { zxid: hex(txn.zxid), time: txn.time, session: hex(txn.session), ...recordFields(txn.record), ...auditFields(audit) };
}

const binary = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
const cases = [
  { type: TxnType.create, record: records.create('/a', 'plain text') },
  { type: TxnType.create2, record: records.create('/a/é✓', 'héllo ✓ \u202e', true) },
  { type: TxnType.create, record: records.create('/bell', '\u0007\t"quoted"\\') },
  { type: TxnType.create, record: records.create('/null', null) },
  { type: TxnType.setData, record: records.setData('/bin', binary, 7) },
  { type: TxnType.setData, record: records.setData('/empty', Buffer.alloc(0), 1) },
  { type: TxnType.createTTL, record: records.createTTL('/ttl', 't', 123456789012345n) },
  { type: TxnType.createContainer, record: records.createContainer('/box', 'c') },
  { type: TxnType.setACL, record: records.setACL('/a', [{ perms: 1, scheme: 'digest', id: 'u:h=' }], 3) },
  { type: TxnType.delete, record: records.delete('/a') },
  { type: TxnType.deleteContainer, record: records.delete('/box') },
  { type: TxnType.createSession, record: records.createSession(30000) },
  { type: TxnType.closeSession, record: records.closeSession(['/e1', '/e2']) },
  { type: TxnType.closeSession, record: Buffer.alloc(0) },
  { type: TxnType.error, record: records.error(-110) },
  { type: TxnType.multi, record: records.multi([
    { type: TxnType.create, record: records.create('/m', 'x') },
    { type: TxnType.setData, record: records.setData('/m', binary, 2) },
    { type: TxnType.check, record: records.check('/m', 2) },
    { type: TxnType.error, record: records.error(-101) },
  ]) },
];

test('zooscope log --json: each transaction\'s line written directly is exactly JSON.stringify of its line object, every record kind', () => {
  for (const [i, c] of cases.entries()) {
    const txn = decodeTxnPayload(txnPayload({ zxid: 0x500000000n + BigInt(i), session: 0xff00000000000001n, time: 1_700_000_000_123n, ...c, digest: { version: 2, treeDigest: 5n } }));
    assert.equal(txnJson(txn), JSON.stringify(txnLine(txn)), txn.record.op);
    // With the audit log's client and user (a hostile user name too: JSON's own escapes, the same either way).
    const audit = { client: '10.0.0.7', user: 'alice\u202e,"x"\n' };
    assert.equal(txnJson(txn, auditFields(audit)), JSON.stringify(txnLine(txn, audit)), `${txn.record.op} with audit`);
  }
});
