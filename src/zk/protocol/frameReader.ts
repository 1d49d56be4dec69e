// Splits a TCP byte stream into ZooKeeper frames (4-byte big-endian length + body) without re-concatenating
// everything received so far on every chunk (node-zookeeper-client does, which is quadratic on big replies).
// A length that is negative or above the limit is refused as soon as its 4 bytes arrive: a broken or hostile peer
// must not make us buffer (or allocate) gigabytes while we wait for a frame that is not one. Only while the oldest
// request may fail alone (a batch of reads, asked again smaller) does a length above the limit wait for the reply
// header after it, which says whose reply it is; the channel then skips the frame as its bytes stream past,
// keeping none of them.

/**
 * Default limit for one frame. The largest real replies are far below it (getChildren of 100k children with long
 * names is about 3.2 MB; a server's jute.maxbuffer stops at 1 MB per znode by default) and far below what would
 * hurt a process.
 */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** The reply header after the length prefix: xid, zxid, err. */
export const REPLY_HEADER_BYTES = 16;

/** A length prefix that cannot start a ZooKeeper frame. */
export class FrameLengthError extends RangeError {
  /** `header`: the reply header that followed a length above the limit (a copy). */
  constructor(readonly length: number, readonly limit: number, readonly header?: Buffer) {
    super(length < 0 ? `invalid frame length ${length}` : `frame length ${length} exceeds the limit of ${limit} bytes`);
    this.name = 'FrameLengthError';
  }
}

export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes of a refused frame still to drop as they arrive. */
  private skipping = 0;

  /** `headerWanted`: whether a length above the limit should wait for the reply header (see above). */
  constructor(readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES, private readonly headerWanted: () => boolean = () => false) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  reset(): void {
    this.chunks = [];
    this.buffered = 0;
    this.skipping = 0;
  }

  /**
   * The next complete frame including its length prefix, or undefined until more bytes arrive. Throws a
   * FrameLengthError for a negative length or one above the limit (with the reply header after it, when wanted).
   */
  next(): Buffer | undefined {
    this.dropSkipped();
    if (this.skipping > 0 || this.buffered < 4) return undefined;
    const size = this.peekLength();
    if (size < 0) throw new FrameLengthError(size, this.maxFrameBytes);
    if (size > this.maxFrameBytes) {
      if (!this.headerWanted()) throw new FrameLengthError(size, this.maxFrameBytes);
      if (this.buffered < 4 + REPLY_HEADER_BYTES) return undefined;
      throw new FrameLengthError(size, this.maxFrameBytes, Buffer.from(this.take(4 + REPLY_HEADER_BYTES, true).subarray(4)));
    }
    const total = size + 4;
    if (this.buffered < total) return undefined;
    return this.take(total);
  }

  /** Drops the frame just refused for its length, now and as the rest of it arrives, keeping none of it. */
  skipRefusedFrame(): void {
    this.skipping = this.peekLength() + 4;
    this.dropSkipped();
  }

  private dropSkipped(): void {
    const bytes = Math.min(this.skipping, this.buffered);
    if (bytes === 0) return;
    this.consume(bytes);
    this.skipping -= bytes;
  }

  private peekLength(): number {
    const head = this.chunks[0];
    if (head.length >= 4) return head.readInt32BE(0);
    return this.take(4, true).readInt32BE(0);
  }

  private take(bytes: number, peek = false): Buffer {
    const head = this.chunks[0];
    if (head.length >= bytes) {
      const out = head.subarray(0, bytes);
      if (!peek) this.consume(bytes);
      return out;
    }
    const out = Buffer.allocUnsafe(bytes);
    let copied = 0;
    for (const chunk of this.chunks) {
      const n = Math.min(chunk.length, bytes - copied);
      chunk.copy(out, copied, 0, n);
      copied += n;
      if (copied === bytes) break;
    }
    if (!peek) this.consume(bytes);
    return out;
  }

  private consume(bytes: number): void {
    this.buffered -= bytes;
    while (bytes > 0) {
      const head = this.chunks[0];
      if (head.length <= bytes) {
        bytes -= head.length;
        this.chunks.shift();
      } else {
        this.chunks[0] = head.subarray(bytes);
        bytes = 0;
      }
    }
  }
}
