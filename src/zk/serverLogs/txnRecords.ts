// The record after a TxnHeader, read by its type the way SerializeUtils.deserializeTxn and DataTree.processTxn read
// it (record layouts: zookeeper.jute, module org.apache.zookeeper.txn).
import { JuteReader } from '../protocol/jute';
import { txnOpOf } from './txnOpCodes';
import type { LogAcl, TxnRecord } from './txnTypes';

/** A TxnDigest (int version, long treeDigest) is this long; it may follow any record (3.6+ with digests on). */
export const TXN_DIGEST_BYTES = 12;

export class UndecodableRecord extends Error {}

function acls(reader: JuteReader): LogAcl[] {
  return reader.vector((r) => ({ perms: r.int(), scheme: r.string(), id: r.string() }));
}

/** Reads the record of `type` from `reader`; the caller sees what is left (a digest, or nothing). */
export function readTxnRecord(type: number, reader: JuteReader): TxnRecord {
  const op = txnOpOf(type);
  switch (op) {
    case 'create':
    case 'create2':
      return readCreate(op, reader);
    case 'createContainer':
      return { op, path: reader.string(), data: reader.buffer(), acl: acls(reader), parentCVersion: reader.int() };
    case 'createTTL':
      return { op, path: reader.string(), data: reader.buffer(), acl: acls(reader), parentCVersion: reader.int(), ttl: reader.long() };
    case 'delete':
    case 'deleteContainer':
      return { op, path: reader.string() };
    case 'setData':
    case 'reconfig':
      return { op, path: reader.string(), data: reader.buffer(), version: reader.int() };
    case 'setACL':
      return { op, path: reader.string(), acl: acls(reader), version: reader.int() };
    case 'check':
      return { op, path: reader.string(), version: reader.int() };
    case 'multi':
      return { op, parts: reader.vector(readMultiPart) };
    case 'createSession':
      return { op, timeout: reader.int() };
    case 'closeSession':
      return readCloseSession(reader);
    case 'error':
      return { op, err: reader.int() };
    default:
      throw new UndecodableRecord(`unsupported transaction type ${type}`);
  }
}

/** CreateTxn; a record that ends before parentCVersion is the oldest form (CreateTxnV0), as ZooKeeper falls back. */
function readCreate(op: 'create' | 'create2', reader: JuteReader): TxnRecord {
  const path = reader.string();
  const data = reader.buffer();
  const acl = acls(reader);
  const ephemeral = reader.bool();
  if (reader.remaining < 4) return { op, path, data, acl, ephemeral };
  return { op, path, data, acl, ephemeral, parentCVersion: reader.int() };
}

/** A multi's part (Txn: int type, buffer record); the record fills its buffer exactly. */
function readMultiPart(reader: JuteReader): TxnRecord {
  const type = reader.int();
  const bytes = reader.buffer() ?? Buffer.alloc(0);
  const part = new JuteReader(bytes);
  const record = readTxnRecord(type, part);
  if (record.op === 'multi') throw new UndecodableRecord('a multi inside a multi');
  if (part.remaining !== 0) throw new UndecodableRecord(`multi part of type ${type} has ${part.remaining} bytes left over`);
  return record;
}

/**
 * CloseSessionTxn (vector of paths) since 3.6; no body before, or with `zookeeper.closeSessionTxn.enabled=false`.
 * Java's reader knows which by its own setting; we tell by the bytes: a vector of paths that ends where the entry
 * ends or where a digest starts, or else no body.
 */
function readCloseSession(reader: JuteReader): TxnRecord {
  const left = reader.remaining;
  if (left === 0) return { op: 'closeSession' };
  const here = reader.fixed(0);
  const paths = pathsFilling(new JuteReader(here.bytes, here.at), left);
  if (paths) {
    reader.fixed(left - paths.left);
    return { op: 'closeSession', paths: paths.paths };
  }
  if (left === TXN_DIGEST_BYTES) return { op: 'closeSession' };
  throw new UndecodableRecord(`closeSession with ${left} bytes that are neither paths nor a digest`);
}

function pathsFilling(reader: JuteReader, left: number): { paths: string[]; left: number } | undefined {
  try {
    const count = reader.int();
    if (count < 0 || count * 4 > left) return undefined;
    const paths: string[] = [];
    for (let i = 0; i < count; i++) {
      const path = reader.string();
      if (!path.startsWith('/')) return undefined;
      paths.push(path);
    }
    return reader.remaining === 0 || reader.remaining === TXN_DIGEST_BYTES ? { paths, left: reader.remaining } : undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
