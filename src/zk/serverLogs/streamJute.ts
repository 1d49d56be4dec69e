// Jute values read straight from a stream (a snapshot is too big to hold): big-endian ints and longs, and strings
// and buffers whose length is checked before any byte is buffered for them.
import type { ByteSource } from './byteSource';

/** The stream ended inside a value. */
export class StreamEnded extends Error {}

/** A length no value may have (negative, or above the reader's limit). */
export class UnreasonableLength extends Error {}

export class StreamJute {
  constructor(private readonly source: ByteSource, private readonly maxLength: number) {}

  get offset(): number {
    return this.source.offset;
  }

  private async need(bytes: number): Promise<void> {
    if (!this.source.has(bytes) && !(await this.source.fill(bytes))) {
      throw new StreamEnded(`the stream ends at byte ${this.source.offset + this.source.available}, inside a value`);
    }
  }

  async int(): Promise<number> {
    await this.need(4);
    return this.source.takeInt32();
  }

  async ulong(): Promise<bigint> {
    await this.need(8);
    return this.source.take(8).readBigUInt64BE(0);
  }

  async long(): Promise<bigint> {
    await this.need(8);
    return this.source.take(8).readBigInt64BE(0);
  }

  /** Several fixed-size fields at once (a StatPersisted): one wait, then read from the returned bytes. */
  async fixed(bytes: number): Promise<Buffer> {
    await this.need(bytes);
    return this.source.take(bytes);
  }

  async buffer(): Promise<Buffer | null> {
    const length = await this.length();
    if (length < 0) return null;
    await this.need(length);
    return Buffer.from(this.source.take(length));
  }

  /** null (length -1) reads as null; jute writes strings as UTF-8. */
  async string(): Promise<string | null> {
    const length = await this.length();
    if (length < 0) return null;
    await this.need(length);
    return this.source.take(length).toString('utf8');
  }

  private async length(): Promise<number> {
    const at = this.source.offset;
    const length = await this.int();
    if (length < -1 || length > this.maxLength) throw new UnreasonableLength(`length ${length} at byte ${at} is outside -1..${this.maxLength}`);
    return length;
  }
}
