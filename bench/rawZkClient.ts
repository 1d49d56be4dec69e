// A ZooKeeper client of a few lines for the SSH bench's baselines: the handshake, then `exists` round trips one at a
// time, over any carrier (a TCP socket, a bare `ssh -W`'s stdin/stdout, our tunnel socket), so what differs between
// them is the carrier alone. No watches, no pings: a session of a few seconds.
import type { Readable, Writable } from 'node:stream';

const OP_EXISTS = 3;

function framed(body: Buffer): Buffer {
  const bytes = Buffer.alloc(4 + body.length);
  bytes.writeInt32BE(body.length, 0);
  body.copy(bytes, 4);
  return bytes;
}

/** ConnectRequest: protocolVersion, lastZxidSeen, timeOut, sessionId, passwd (16 zero bytes), readOnly. */
function connectRequest(): Buffer {
  const body = Buffer.alloc(4 + 8 + 4 + 8 + 4 + 16 + 1);
  body.writeInt32BE(30000, 12);
  body.writeInt32BE(16, 24);
  return framed(body);
}

/** RequestHeader (xid, type) and ExistsRequest (path, watch false). */
function existsRequest(xid: number, path: string): Buffer {
  const name = Buffer.from(path);
  const body = Buffer.alloc(8 + 4 + name.length + 1);
  body.writeInt32BE(xid, 0);
  body.writeInt32BE(OP_EXISTS, 4);
  body.writeInt32BE(name.length, 8);
  name.copy(body, 12);
  return framed(body);
}

export class RawZkClient {
  private pending: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (frame: Buffer) => void; reject: (error: Error) => void } | undefined;
  private xid = 0;

  constructor(input: Readable, private readonly output: Writable) {
    input.on('data', (chunk: Buffer) => this.onData(chunk));
    const ended = (error?: Error) => this.waiting?.reject(error ?? new Error('the carrier closed'));
    input.on('error', ended);
    input.on('close', () => ended());
    output.on('error', ended);
  }

  private onData(chunk: Buffer): void {
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    while (this.pending.length >= 4 && this.pending.length >= 4 + this.pending.readInt32BE(0)) {
      const end = 4 + this.pending.readInt32BE(0);
      const frame = this.pending.subarray(4, end);
      this.pending = this.pending.subarray(end);
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.resolve(frame);
    }
  }

  private ask(request: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.output.write(request);
    });
  }

  /** The session's handshake (ConnectRequest → ConnectResponse). */
  async handshake(): Promise<void> {
    await this.ask(connectRequest());
  }

  /** One `exists` request and its reply. */
  async exists(path: string): Promise<void> {
    const reply = await this.ask(existsRequest(++this.xid, path));
    if (reply.readInt32BE(0) !== this.xid) throw new Error(`reply ${reply.readInt32BE(0)} to request ${this.xid}`);
  }
}
