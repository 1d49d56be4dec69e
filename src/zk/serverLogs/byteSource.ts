// Exact reads from a stream of chunks (a file read stream, a decompressor), holding at most one pending read's
// bytes plus one chunk: memory does not grow with the file's length.

export class ByteSource {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Where the unread part of chunks[0] starts. */
  private position = 0;
  private ended = false;
  private consumed = 0;
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(
    chunks: AsyncIterable<Buffer | Uint8Array | string>,
    /** Sees every byte handed out, in order (a snapshot's running checksum). */
    private readonly observe?: (bytes: Buffer) => void,
  ) {
    this.iterator = (async function* () {
      for await (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    })();
  }

  /** Bytes handed out so far: the file offset of the next read. */
  get offset(): number {
    return this.consumed;
  }

  /** Bytes buffered and not yet taken (after `fill` returned false: all that is left). */
  get available(): number {
    return this.buffered;
  }

  /** Whether `length` bytes are buffered, so `take` can run without waiting. */
  has(length: number): boolean {
    return this.buffered >= length;
  }

  /** Buffers up to `length` bytes; false when the stream ended first. */
  async fill(length: number): Promise<boolean> {
    while (this.buffered < length && !this.ended) {
      const next = await this.iterator.next();
      if (next.done) {
        this.ended = true;
      } else if (next.value.length > 0) {
        this.chunks.push(next.value);
        this.buffered += next.value.length;
      }
    }
    return this.buffered >= length;
  }

  /**
   * The next `length` bytes, or fewer when the stream ends first (what there was: a torn end). A view into the
   * stream's chunk when the bytes lie in one, so copy what must outlive the next read.
   */
  async read(length: number): Promise<Buffer> {
    if (!this.has(length)) await this.fill(length);
    return this.take(Math.min(length, this.buffered));
  }

  /** The next `length` bytes, which must be buffered (`has`/`fill`). */
  take(length: number): Buffer {
    if (length > this.buffered) throw new RangeError(`take(${length}) with ${this.buffered} buffered`);
    const first = this.chunks[0];
    let out: Buffer;
    if (length === 0) {
      out = Buffer.alloc(0);
    } else if (first.length - this.position >= length) {
      out = first.subarray(this.position, this.position + length);
      this.advance(length);
    } else {
      out = Buffer.allocUnsafe(length);
      for (let filled = 0; filled < length; ) {
        const chunk = this.chunks[0];
        const part = Math.min(chunk.length - this.position, length - filled);
        chunk.copy(out, filled, this.position, this.position + part);
        filled += part;
        this.advance(part);
      }
    }
    this.observe?.(out);
    return out;
  }

  /** A big-endian int, which must be buffered; no Buffer is made when it lies in one chunk (the common case). */
  takeInt32(): number {
    const first = this.chunks[0];
    if (this.observe || first.length - this.position < 4) return this.take(4).readInt32BE(0);
    const value = first.readInt32BE(this.position);
    this.advance(4);
    return value;
  }

  /** One byte, which must be buffered. */
  takeByte(): number {
    if (this.observe) return this.take(1)[0];
    const value = this.chunks[0][this.position];
    this.advance(1);
    return value;
  }

  private advance(length: number): void {
    this.position += length;
    this.buffered -= length;
    this.consumed += length;
    if (this.position === this.chunks[0].length) {
      this.chunks.shift();
      this.position = 0;
    }
  }

  /** Stops reading: the underlying stream is returned (a file stream closes its descriptor). */
  async close(): Promise<void> {
    this.chunks = [];
    this.buffered = 0;
    this.position = 0;
    if (!this.ended) {
      this.ended = true;
      await this.iterator.return?.();
    }
  }
}
