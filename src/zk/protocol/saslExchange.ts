// The SASL exchange on one fresh connection, between the server's ConnectResponse and everything else: requests
// of type 102 carrying opaque tokens, answered by the server with a token (or an error code) until the mechanism
// is done. ZooKeeper ties the SASL identity to the connection, so this runs again after every reconnect.
import { OpCode } from './opcodes';
import type { SaslMechanism } from '../security/saslMechanism';

/** The server refused the credentials (AUTHFAILED -115, or -124 when it requires SASL). */
export class SaslRejected extends Error {
  constructor(readonly zkCode: number, message: string) {
    super(message);
    this.name = 'SaslRejected';
  }
}

/** Our own xids for SASL requests: the server only echoes them, and nothing else is in flight meanwhile. */
const FIRST_SASL_XID = 1;

export class SaslExchange {
  private xid = FIRST_SASL_XID;

  constructor(private readonly mechanism: SaslMechanism, private readonly write: (frame: Buffer) => void) {}

  async start(): Promise<void> {
    this.send(await this.mechanism.initial());
  }

  /** Handles one reply frame (with its length prefix); resolves true once authenticated. */
  async onReply(frame: Buffer): Promise<boolean> {
    if (frame.length < 20) throw new Error(`SASL: reply of ${frame.length - 4} bytes is too short`);
    const err = frame.readInt32BE(16);
    if (err !== 0) {
      // A server that requires SASL answers a failed exchange with -124 instead of AUTHFAILED (-115).
      const who = `${this.mechanism.name} as ${this.mechanism.identity || 'this user'}`;
      throw new SaslRejected(err, err === -115 || err === -124
        ? `${who} was rejected (AUTHFAILED, error ${err}): wrong user name or password`
        : `${who} was rejected by the server (error ${err})`);
    }
    const token = readBuffer(frame, 20);
    const answer = await this.mechanism.step(token);
    if (answer === undefined) return true;
    this.send(answer);
    return false;
  }

  private send(token: Buffer): void {
    const frame = Buffer.allocUnsafe(16 + token.length);
    frame.writeInt32BE(12 + token.length, 0);
    frame.writeInt32BE(this.xid++, 4);
    frame.writeInt32BE(OpCode.sasl, 8);
    frame.writeInt32BE(token.length, 12);
    token.copy(frame, 16);
    this.write(frame);
  }
}

/** A jute buffer (int32 length, -1 for null) at `offset`, bounded by the frame. */
function readBuffer(frame: Buffer, offset: number): Buffer {
  if (frame.length < offset + 4) return Buffer.alloc(0);
  const length = frame.readInt32BE(offset);
  if (length < 0) return Buffer.alloc(0);
  if (offset + 4 + length > frame.length) throw new Error('SASL: token longer than its frame');
  return frame.subarray(offset + 4, offset + 4 + length);
}
