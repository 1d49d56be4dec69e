// One entry's payload: TxnHeader, the record, then an optional TxnDigest (SerializeUtils.deserializeTxn).
import { JuteReader } from '../protocol/jute';
import { readTxnRecord, TXN_DIGEST_BYTES, UndecodableRecord } from './txnRecords';
import type { Txn } from './txnTypes';

/** Decodes a payload whose checksum was verified; throws UndecodableRecord (or RangeError) when it does not parse. */
export function decodeTxnPayload(payload: Buffer): Txn {
  const reader = new JuteReader(payload);
  const session = reader.ulong();
  const cxid = reader.int();
  const zxid = reader.ulong();
  const time = Number(reader.long());
  const type = reader.int();
  const record = readTxnRecord(type, reader);
  const txn: Txn = { session, cxid, zxid, time, type, record };
  if (reader.remaining === TXN_DIGEST_BYTES) {
    txn.digest = { version: reader.int(), treeDigest: reader.long() };
  } else if (reader.remaining !== 0) {
    throw new UndecodableRecord(`${reader.remaining} bytes after the ${record.op} record`);
  }
  return txn;
}
