// Adler-32, the checksum ZooKeeper puts before each log entry and in a snapshot's seals (java.util.zip.Adler32).
// Node's zlib computes it internally but does not expose it.

const MOD = 65521;
/** The most bytes summed before `b` could pass 2^53 without a reduction (zlib's NMAX). */
const NMAX = 5552;

export class Adler32 {
  private a = 1;
  private b = 0;

  update(bytes: Uint8Array, start = 0, end = bytes.length): this {
    let a = this.a;
    let b = this.b;
    for (let i = start; i < end; ) {
      const stop = Math.min(end, i + NMAX);
      for (; i < stop; i++) {
        a += bytes[i];
        b += a;
      }
      a %= MOD;
      b %= MOD;
    }
    this.a = a;
    this.b = b;
    return this;
  }

  /** The value as Java's `getValue()` gives it: an unsigned 32-bit number. */
  get value(): number {
    return (this.b * 65536 + this.a) >>> 0;
  }
}

export function adler32(bytes: Uint8Array): number {
  return new Adler32().update(bytes).value;
}
