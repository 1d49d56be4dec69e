// Splits a TCP byte stream into ZooKeeper frames (4-byte big-endian length + body) without re-concatenating
// everything received so far on every chunk (node-zookeeper-client does, which is quadratic on big replies).

export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  reset(): void {
    this.chunks = [];
    this.buffered = 0;
  }

  /** The next complete frame including its length prefix, or undefined until more bytes arrive. */
  next(): Buffer | undefined {
    if (this.buffered < 4) return undefined;
    const size = this.peekLength();
    if (size < 0) throw new RangeError(`invalid frame length ${size}`);
    const total = size + 4;
    if (this.buffered < total) return undefined;
    return this.take(total);
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
