// Reads single entries of log files again, at the offsets an index kept: each read brings a block, so entries that
// lie close together (a question's matches often do) cost one read. The entry is checked as the full read checks
// it (framing, end byte, checksum): a file that changed since it was indexed is said, not misread.
import * as fs from 'node:fs';
import { adler32 } from './adler32';
import { decodeTxnPayload } from './txnPayload';
import type { Txn } from './txnTypes';

const ENTRY_HEAD_BYTES = 12;
const END_OF_RECORD = 0x42;
// Small: a question's entries are often far apart (one lock among many), and a block is read for each.
const BLOCK_BYTES = 8 * 1024;

/** The file is not as it was when it was indexed. */
export class LogChanged extends Error {}

interface Window { handle: fs.promises.FileHandle; start: number; bytes: Buffer; length: number }

export class EntryReader {
  private readonly windows = new Map<number, Window>();

  constructor(private readonly files: readonly string[], private readonly states: readonly string[]) {}

  async txnAt(fileId: number, offset: number): Promise<Txn> {
    const head = await this.bytesAt(fileId, offset, ENTRY_HEAD_BYTES);
    const checksum = head.bytes.readUInt32BE(head.at + 4);
    const length = head.bytes.readInt32BE(head.at + 8);
    const file = this.files[fileId];
    if (head.bytes.readInt32BE(head.at) !== 0 || length <= 0) throw this.changed(fileId, offset);
    const entry = await this.bytesAt(fileId, offset, ENTRY_HEAD_BYTES + length + 1);
    const start = entry.at + ENTRY_HEAD_BYTES;
    const payload = Buffer.from(entry.bytes.subarray(start, start + length)); // its own copy: data must not pin the block
    if (entry.bytes[start + length] !== END_OF_RECORD || adler32(payload) !== checksum) throw this.changed(fileId, offset);
    try {
      return decodeTxnPayload(payload);
    } catch {
      throw new LogChanged(`${file} at byte ${offset}: the entry no longer parses; the logs changed since they were read`);
    }
  }

  private changed(fileId: number, offset: number): LogChanged {
    return new LogChanged(`${this.files[fileId]} at byte ${offset}: not the entry read before; the logs changed since they were read (it was ${this.states[fileId]} in size:mtime)`);
  }

  /** `length` bytes from `offset`, from the file's current block or a new one read there. */
  private async bytesAt(fileId: number, offset: number, length: number): Promise<{ bytes: Buffer; at: number }> {
    let window = this.windows.get(fileId);
    if (window && offset >= window.start && offset + length <= window.start + window.length) return { bytes: window.bytes, at: offset - window.start };
    if (!window) {
      window = { handle: await fs.promises.open(this.files[fileId], 'r'), start: 0, bytes: Buffer.alloc(0), length: 0 };
      this.windows.set(fileId, window);
    }
    const size = Math.max(BLOCK_BYTES, length);
    if (window.bytes.length < size) window.bytes = Buffer.allocUnsafe(size);
    const { bytesRead } = await window.handle.read(window.bytes, 0, size, offset);
    window.start = offset;
    window.length = bytesRead;
    if (bytesRead < length) throw this.changed(fileId, offset);
    return { bytes: window.bytes, at: 0 };
  }

  async close(): Promise<void> {
    await Promise.all([...this.windows.values()].map((window) => window.handle.close()));
    this.windows.clear();
  }
}
