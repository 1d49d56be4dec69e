// Takes the replies to our own requests (any opcode, including ones the library does not know) and every watch
// notification from the frames the server sends; the rest goes on to the library.
import { ZkError } from '../errors';
import { FrameLengthError, REPLY_HEADER_BYTES } from './frameReader';
import { JuteReader } from './jute';
import { ConnectionManagerInternals, LibraryState } from './libraryInternals';
import { Xid } from './opcodes';

export interface WatchNotification {
  type: number;
  state: number;
  /** Path without the chroot. */
  path: string;
}

/** Where the reply header (xid, zxid, err) after the 4-byte length ends. */
const REPLY_HEADER_END = 4 + REPLY_HEADER_BYTES;
/** A ConnectResponse up to its password length: protocolVersion, timeOut, sessionId, passwd length. */
const CONNECT_RESPONSE_MIN = 24;

/** Why `frame` cannot be read, if it cannot (checked before anyone parses it). */
export function malformedFrame(frame: Buffer, connecting: boolean): string | undefined {
  if (connecting) {
    if (frame.length < CONNECT_RESPONSE_MIN) return `handshake answer of ${frame.length - 4} bytes is too short`;
    // The library allocates the password with the length the peer sends: keep it within the frame.
    const passwordLength = frame.readInt32BE(20);
    if (passwordLength < -1 || passwordLength > frame.length - CONNECT_RESPONSE_MIN) {
      return `handshake answer has a password length of ${passwordLength}`;
    }
    return undefined;
  }
  return frame.length < REPLY_HEADER_END ? `reply of ${frame.length - 4} bytes is shorter than a reply header` : undefined;
}

/** What a request of ours gets when its reply was longer than the channel accepts (see refuseTooLarge). */
export class ReplyTooLarge extends Error {
  constructor(readonly length: number, readonly limit: number) {
    super(`reply of ${length} bytes exceeds the limit of ${limit} bytes`);
    this.name = 'ReplyTooLarge';
  }
}

export class FrameRouter {
  private readonly notificationListeners = new Set<(n: WatchNotification) => void>();

  /** `clientPath` strips the chroot from a path the server sent. */
  constructor(private readonly manager: ConnectionManagerInternals, private readonly clientPath: (serverPath: string) => string) {}

  onNotification(listener: (n: WatchNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  /**
   * A reply refused for its length (see FrameReader): when it answers the oldest request and that one may fail
   * alone, fails it and returns true (the caller skips the frame); otherwise false (the connection must go).
   */
  refuseTooLarge(error: FrameLengthError): boolean {
    if (!error.header || !this.oldestFailsAloneIfTooLarge()) return false;
    const head = this.manager.pendingQueue[0];
    if (head.request.header?.xid !== error.header.readInt32BE(0)) return false;
    this.manager.pendingQueue.shift();
    head.callback?.(new ReplyTooLarge(error.length, error.limit));
    return true;
  }

  /** Whether the oldest request waiting for its reply is ours and may fail alone when that reply is too large. */
  oldestFailsAloneIfTooLarge(): boolean {
    const manager = this.manager;
    return manager.state !== LibraryState.connecting && manager.pendingQueue[0]?.request.failsAloneIfTooLarge === true;
  }

  /** Handles a frame if it is ours; returns false to let the library handle it. */
  route(frame: Buffer): boolean {
    const manager = this.manager;
    if (manager.state === LibraryState.connecting || frame.length < REPLY_HEADER_END) return false;
    const xid = frame.readInt32BE(4);
    if (xid === Xid.notification) {
      this.emitNotification(frame);
      // The library's one-shot watchers need it too, if it has any (lock sessions never do: a hand-off skips
      // the library's second parse of every notification).
      return manager.watcherManager?.isEmpty() === true;
    }
    if (xid < 0) return false;
    const head = manager.pendingQueue[0];
    if (!head?.request.zooscope) return false;
    manager.pendingQueue.shift();
    if (head.request.header?.xid !== xid) {
      // Out of order: the connection is unusable. The library fails all pending requests and reconnects.
      head.callback?.(new ZkError('marshallingError', 'reply', undefined));
      manager.socket?.destroy();
      return true;
    }
    const zxid = frame.readBigInt64BE(8);
    if (zxid > 0n) manager.zxid = Buffer.from(frame.subarray(8, 16));
    const err = frame.readInt32BE(16);
    // The body goes along with an error too: a failed multi still lists the result of each op.
    if (err !== 0) head.callback?.({ code: err }, frame.subarray(REPLY_HEADER_END));
    else head.callback?.(null, frame.subarray(REPLY_HEADER_END));
    return true;
  }

  private emitNotification(frame: Buffer): void {
    if (this.notificationListeners.size === 0) return;
    const reader = new JuteReader(frame, REPLY_HEADER_END);
    const type = reader.int();
    const state = reader.int();
    const path = this.clientPath(reader.string());
    for (const listener of [...this.notificationListeners]) {
      try {
        listener({ type, state, path });
      } catch (error) {
        // A listener's own failure is no broken frame: let it surface as before, outside the frame parser.
        queueMicrotask(() => { throw error; });
      }
    }
  }
}
