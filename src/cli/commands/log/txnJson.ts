// `zooscope log --json`'s line of a transaction written straight into a string: the same text as
// JSON.stringify of the line as objects (test/unit/logJson.test.ts holds them equal), without the objects made in between (a log has millions).
import type { Txn, TxnRecord } from '../../../zk/serverLogs/txnTypes';
import { hex } from '../../../zk/stat';
import { dataFields } from './lineBatch';

/** Data as dataFields gives it, as JSON members; bytes all below 0x80 are the same text in latin1, which is quicker. */
function dataJson(data: Buffer | null): string {
  if (data === null) return '';
  let ascii = true;
  for (let i = 0; i < data.length; i++) {
    if (data[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return `,"data":${JSON.stringify(data.toString('latin1'))}`;
  const fields = dataFields(data);
  return fields.data !== undefined ? `,"data":${JSON.stringify(fields.data)}` : `,"dataBase64":${JSON.stringify(fields.dataBase64)}`;
}

/** The record's members, op first, the rest in the record's own order (as recordFields spreads them). */
function recordJson(record: TxnRecord): string {
  let out = `"op":${JSON.stringify(record.op)}`;
  const fields = record as unknown as Record<string, unknown>;
  for (const key in fields) {
    const value = fields[key];
    if (key === 'op' || value === undefined) continue;
    if (key === 'data') out += dataJson(value as Buffer | null);
    else if (key === 'parts') out += `,"parts":[${(value as TxnRecord[]).map((part) => `{${recordJson(part)}}`).join(',')}]`;
    else out += `,${JSON.stringify(key)}:${typeof value === 'bigint' ? `"${value}"` : JSON.stringify(value)}`;
  }
  return out;
}

/** `extra`: members after the record's (the audit log's client and user). */
export function txnJson(txn: Txn, extra: Readonly<Record<string, string>> = {}): string {
  let more = '';
  for (const key in extra) more += `,${JSON.stringify(key)}:${JSON.stringify(extra[key])}`;
  return `{"zxid":"${hex(txn.zxid)}","time":${JSON.stringify(txn.time)},"session":"${hex(txn.session)}",${recordJson(txn.record)}${more}}`;
}
