// Why a plain ZooKeeper connection through `ssh -W` sends a byte ahead. sshd turns Nagle off (TCP_NODELAY) only for
// connections with a session (a shell, a command); a `-W` connection has none, so sshd holds a small packet while
// the one before it waits for its ACK. The client's kernel delays that ACK up to 40 ms when ssh has nothing to send
// back. So a watch event that follows a reply within 40 ms (a lock hand-off: the waiter's `exists` reply, then the
// holder's delete) waits for the delayed ACK: measured on loopback, every such event came 39 ms late, and a
// hand-off took 6.5× its time direct; a bare `ssh -W` does the same.
//
// The cure: when the server's bytes came and nothing is written back, send one byte, which ssh sends at once with
// the ACK. Nothing harmless can be sent to ZooKeeper alone, so the byte is the first of the next frame: a frame's
// 4-byte length starts with 0 below 16 MiB. When the next frame starts otherwise, a ping (which may go at any time)
// is finished first.
const PING = Buffer.from([0, 0, 0, 8, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 11]);

/** Tracks the frames written, to know where one begins. */
export class AckNudge {
  private headerRead = 0;
  private length = 0;
  private bodyLeft = 0;
  /** A 0 byte went ahead as the next frame's first. */
  private ahead = false;

  /** The byte to send now as the next frame's first; undefined mid-frame or when one went ahead already. */
  nudge(): Buffer | undefined {
    if (this.ahead || this.headerRead > 0 || this.bodyLeft > 0) return undefined;
    this.ahead = true;
    this.advance(PING.subarray(0, 1));
    return PING.subarray(0, 1);
  }

  /** What to send for `chunk`, written by the connection's user, given the byte sent ahead. */
  outgoing(chunk: Buffer): Buffer {
    if (!this.ahead || chunk.length === 0) {
      this.advance(chunk);
      return chunk;
    }
    this.ahead = false;
    if (chunk[0] === 0) {
      const rest = chunk.subarray(1);
      this.advance(rest);
      return rest;
    }
    const ping = PING.subarray(1);
    this.advance(ping);
    this.advance(chunk);
    return Buffer.concat([ping, chunk]);
  }

  private advance(bytes: Buffer): void {
    for (let i = 0; i < bytes.length;) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, bytes.length - i);
        this.bodyLeft -= n;
        i += n;
        continue;
      }
      this.length = this.length * 256 + bytes[i++];
      if (++this.headerRead === 4) {
        this.bodyLeft = this.length;
        this.headerRead = 0;
        this.length = 0;
      }
    }
  }
}
