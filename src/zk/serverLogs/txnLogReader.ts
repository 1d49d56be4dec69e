// Streams a transaction log file (`log.<zxid>`) as FileTxnLog writes it: FileHeader (magic ZKLG, version, dbid), then
// entries of long Adler-32 checksum, int length, payload, end byte 0x42; a zero length is the preallocated tail.
// Trouble is reported as one LogIssue and the rest is read where framing allows.
import * as fs from 'node:fs';
import { adler32 } from './adler32';
import { ByteSource } from './byteSource';
import { logIssue, type LogIssue } from './logIssues';
import { decodeTxnPayload } from './txnPayload';
import type { LogFileHeader, Txn } from './txnTypes';

export const TXNLOG_MAGIC = 0x5a4b4c47; // "ZKLG"
const END_OF_RECORD = 0x42;
const FILE_HEADER_BYTES = 16;
const ENTRY_HEAD_BYTES = 12;

/**
 * The longest entry accepted. ZooKeeper refuses records above jute.maxbuffer (1 MiB by default) plus a little;
 * operators raise it, so the default here is generous but still bounds the memory one entry may take.
 */
export const DEFAULT_MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export type TxnLogItem =
  | { kind: 'header'; header: LogFileHeader }
  | { kind: 'txn'; txn: Txn; offset: number }
  | { kind: 'issue'; issue: LogIssue };

export interface TxnLogReadOptions {
  /** Entries longer than this are refused as a bad length (see DEFAULT_MAX_ENTRY_BYTES). */
  maxEntryBytes?: number;
  /** Size of each read from the file. */
  chunkBytes?: number;
}

/** Reads a log file from disk. */
export function readTxnLogFile(file: string, options: TxnLogReadOptions = {}): AsyncGenerator<TxnLogItem> {
  return flatten(readTxnLogFileBatches(file, options));
}

/** readTxnLogFile a batch at a time: every entry the bytes at hand hold, before waiting for more. */
export function readTxnLogFileBatches(file: string, options: TxnLogReadOptions = {}): AsyncGenerator<TxnLogItem[]> {
  const stream = fs.createReadStream(file, { highWaterMark: options.chunkBytes ?? 256 * 1024 });
  return readTxnLogBatches(stream, file, options);
}

/** Reads a log from any stream of its bytes; `name` says which file in issues. */
export function readTxnLog(chunks: AsyncIterable<Buffer | Uint8Array | string>, name: string, options: TxnLogReadOptions = {}): AsyncGenerator<TxnLogItem> {
  return flatten(readTxnLogBatches(chunks, name, options));
}

async function* flatten<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/**
 * The reader itself. Items come in batches (everything parsed from the bytes at hand, handed on before waiting for
 * more): a log holds millions of entries, and a promise per entry costs more than reading it.
 */
export async function* readTxnLogBatches(chunks: AsyncIterable<Buffer | Uint8Array | string>, name: string, options: TxnLogReadOptions = {}): AsyncGenerator<TxnLogItem[]> {
  const maxEntryBytes = options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
  const source = new ByteSource(chunks);
  let batch: TxnLogItem[] = [];
  try {
    const head = await source.read(FILE_HEADER_BYTES);
    if (head.length < FILE_HEADER_BYTES || head.readInt32BE(0) !== TXNLOG_MAGIC) {
      const what = head.length < 4 ? `only ${head.length} bytes` : head.length < FILE_HEADER_BYTES && head.readInt32BE(0) === TXNLOG_MAGIC ? `a header cut short at ${head.length} bytes` : 'no ZKLG magic number';
      yield [{ kind: 'issue', issue: logIssue('badHeader', name, 0, `not a ZooKeeper transaction log (${what})`) }];
      return;
    }
    batch.push({ kind: 'header', header: { magic: head.readInt32BE(0), version: head.readInt32BE(4), dbid: head.readBigInt64BE(8) } });
    for (;;) {
      const offset = source.offset;
      // Before waiting for more bytes, what was parsed is handed on.
      if (!source.has(ENTRY_HEAD_BYTES) && batch.length > 0) {
        yield batch;
        batch = [];
      }
      if (!source.has(ENTRY_HEAD_BYTES) && !(await source.fill(ENTRY_HEAD_BYTES))) {
        const rest = source.take(Math.min(ENTRY_HEAD_BYTES, source.available));
        if (rest.some((b) => b !== 0)) batch.push({ kind: 'issue', issue: torn(name, offset, rest.length, ENTRY_HEAD_BYTES) });
        break;
      }
      // The checksum is a long holding Adler-32's unsigned 32 bits.
      const checksumHigh = source.takeInt32();
      const checksum = source.takeInt32() >>> 0;
      const length = source.takeInt32();
      if (length === 0) break; // the preallocated zeros: the end of what was written
      if (length < 0 || length > maxEntryBytes) {
        batch.push({ kind: 'issue', issue: logIssue('badLength', name, offset + 8, `entry length ${length} is outside 1..${maxEntryBytes}; the rest of the file is not read`) });
        break;
      }
      if (!source.has(length + 1) && batch.length > 0) {
        yield batch;
        batch = [];
      }
      if (!source.has(length + 1) && !(await source.fill(length + 1))) {
        batch.push({ kind: 'issue', issue: torn(name, offset, ENTRY_HEAD_BYTES + source.available, ENTRY_HEAD_BYTES + length + 1) });
        break;
      }
      const payload = Buffer.from(source.take(length)); // its own copy: a view would pin the read chunk
      const end = source.takeByte();
      if (end !== END_OF_RECORD) {
        batch.push({ kind: 'issue', issue: logIssue('badEndByte', name, offset + ENTRY_HEAD_BYTES + length, `entry ends with byte 0x${end.toString(16).padStart(2, '0')} instead of 0x42; the rest of the file is not read`) });
        break;
      }
      const computed = adler32(payload);
      if (checksumHigh !== 0 || checksum !== computed) {
        const stored = (BigInt(checksumHigh >>> 0) << 32n) | BigInt(checksum);
        batch.push({ kind: 'issue', issue: logIssue('badChecksum', name, offset, `entry checksum 0x${stored.toString(16)} does not match its bytes (0x${computed.toString(16)}); entry skipped`) });
        continue;
      }
      try {
        batch.push({ kind: 'txn', txn: decodeTxnPayload(payload), offset });
      } catch (error) {
        batch.push({ kind: 'issue', issue: logIssue('undecodable', name, offset, `entry does not parse (${(error as Error).message}); entry skipped`) });
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    await source.close();
  }
}

function torn(name: string, offset: number, had: number, needed: number): LogIssue {
  return logIssue('tornEntry', name, offset, `the last entry is torn (${had} of at least ${needed} bytes): the server stopped while writing it, or the copy was cut short`);
}
