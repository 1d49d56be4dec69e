// Sends requests of our own through node-zookeeper-client's connection: its queue assigns xids, keeps order and
// handles reconnects; a small frame pre-parser in front of its socket handler takes the replies to our requests
// (any opcode, including ones the library does not know) and every watch notification, and passes the rest on.
import type { Client } from 'node-zookeeper-client';
import { ZkError } from '../errors';
import { FrameReader } from './frameReader';
import { JuteReader } from './jute';
import { Xid } from './opcodes';

type LibraryCallback = (error: unknown, reply?: Buffer) => void;

interface OwnRequest {
  header: { xid: number; type: number };
  payload: { setChrootPath(): void };
  zooscope: true;
  toBuffer(): Buffer;
}

interface PendingPacket {
  request: { header: { xid: number; type: number } | null; zooscope?: true };
  callback?: LibraryCallback;
}

/** The parts of node-zookeeper-client's ConnectionManager this module relies on (version 1.1.3). */
interface ConnectionManagerInternals {
  state: number;
  chrootPath?: string;
  zxid: Buffer;
  socket?: { destroy(): void; remoteAddress?: string; remotePort?: number };
  pendingQueue: PendingPacket[];
  /** Requests not written yet (PacketQueue); they wait there while there is no connection. */
  packetQueue: { queue: PendingPacket[] };
  connectTimeoutHandler?: NodeJS.Timeout | null;
  /** The library's one-shot watchers (the ones registered through its own API). */
  watcherManager?: { isEmpty(): boolean };
  queue(request: OwnRequest, callback: LibraryCallback): void;
  onSocketData(chunk: Buffer): void;
  onSocketClosed(hadError: boolean): void;
  onSocketConnected(): void;
  connect(): void;
}

const CONNECTING = 1;

export interface WatchNotification {
  type: number;
  state: number;
  /** Path without the chroot. */
  path: string;
}

export class RawChannel {
  private readonly frames = new FrameReader();
  private readonly notificationListeners = new Set<(n: WatchNotification) => void>();
  private readonly manager: ConnectionManagerInternals;
  private reconnectPrevented = false;
  private handshakeTimer: NodeJS.Timeout | undefined;

  /**
   * `handshakeTimeoutMs`: how long a connected socket may wait for the server's answer to the session handshake.
   * The library clears its connect timeout once TCP connects and then waits for that answer forever; a server
   * that accepts connections while it is still starting (seen after restarts) can leave it there for good.
   */
  constructor(client: Client, private readonly handshakeTimeoutMs = 10000) {
    this.manager = (client as unknown as { connectionManager: ConnectionManagerInternals }).connectionManager;
    if (!this.manager || !Array.isArray(this.manager.pendingQueue) || typeof this.manager.queue !== 'function' ||
      !Array.isArray(this.manager.packetQueue?.queue)) {
      throw new Error('node-zookeeper-client internals changed: cannot install the protocol extensions');
    }
    this.install();
  }

  get chroot(): string {
    return this.manager.chrootPath ?? '';
  }

  /** host:port of the server the connection is attached to, if any. */
  get serverAddress(): string | undefined {
    const s = this.manager.socket;
    return s?.remoteAddress ? `${s.remoteAddress}:${s.remotePort}` : undefined;
  }

  /** Prefixes the chroot, as the server expects. */
  serverPath(path: string): string {
    const chroot = this.chroot;
    if (!chroot) return path;
    return path === '/' ? chroot : chroot + path;
  }

  /** Strips the chroot from a path the server sent. */
  clientPath(serverPath: string): string {
    const chroot = this.chroot;
    if (!chroot || !serverPath.startsWith(chroot)) return serverPath;
    return serverPath.length === chroot.length ? '/' : serverPath.slice(chroot.length);
  }

  onNotification(listener: (n: WatchNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  /**
   * Queues one request. `body` is the serialized record after the request header. Resolves with the reply body
   * (after the reply header); rejects with a ZkError for a server error or a lost connection. No timeout here:
   * callers add one.
   */
  send(opCode: number, body: Buffer, operation: string, path?: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.queueOwn(opCode, body, (error, reply) => {
        if (error) reject(ZkError.from(error, operation, path));
        else resolve(reply ?? Buffer.alloc(0));
      });
    });
  }

  private queueOwn(opCode: number, body: Buffer, callback: LibraryCallback): void {
    const request: OwnRequest = {
      header: { xid: 0, type: opCode },
      payload: { setChrootPath() { /* paths in `body` already carry the chroot */ } },
      zooscope: true,
      toBuffer() {
        const frame = Buffer.allocUnsafe(12 + body.length);
        frame.writeInt32BE(8 + body.length, 0);
        frame.writeInt32BE(this.header.xid, 4);
        frame.writeInt32BE(opCode, 8);
        body.copy(frame, 12);
        return frame;
      },
    };
    this.manager.queue(request, callback);
  }

  /**
   * Like send(), but a server error resolves with its code and whatever body came with it (multi answers per op
   * even when it fails). Connection errors still reject.
   */
  sendForReply(opCode: number, body: Buffer, operation: string, path?: string): Promise<{ err: number; reply: Buffer }> {
    return new Promise((resolve, reject) => {
      this.queueOwn(opCode, body, (error, reply) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (!error) resolve({ err: 0, reply: reply ?? Buffer.alloc(0) });
        else if (typeof code === 'number' && reply) resolve({ err: code, reply });
        else reject(ZkError.from(error, operation, path));
      });
    });
  }

  /** Stops the library from opening new sockets (it would retry a dead ensemble forever). */
  preventReconnect(): void {
    this.reconnectPrevented = true;
    this.manager.connect = () => { /* closed for good */ };
  }

  /** Fails every request still waiting to be written (the library never would once it stops connecting). */
  failQueued(error: unknown): void {
    const packets = this.manager.packetQueue.queue.splice(0);
    for (const packet of packets) packet.callback?.(error);
  }

  /** Whether the library ever opened a socket (connect() was called and a server picked). */
  get hasSocket(): boolean {
    return !!this.manager.socket;
  }

  destroySocket(): void {
    this.manager.socket?.destroy();
  }

  private install(): void {
    const manager = this.manager;
    const passOn = manager.onSocketData.bind(manager);
    const closed = manager.onSocketClosed.bind(manager);
    const connected = manager.onSocketConnected.bind(manager);
    // These are bound to each new socket in connect(), so instance properties take effect from the next socket on.
    manager.onSocketConnected = () => {
      this.frames.reset();
      if (this.reconnectPrevented) {
        // A connect the library had scheduled (its spin delay) before it was stopped: drop that socket.
        if (manager.connectTimeoutHandler) clearTimeout(manager.connectTimeoutHandler);
        manager.socket?.destroy();
        return;
      }
      connected();
      this.watchHandshake();
    };
    manager.onSocketClosed = (hadError: boolean) => {
      clearTimeout(this.handshakeTimer);
      this.frames.reset();
      closed(hadError);
    };
    manager.onSocketData = (chunk: Buffer) => {
      this.frames.push(chunk);
      for (let frame = this.frames.next(); frame; frame = this.frames.next()) {
        if (!this.dispatch(frame)) passOn(frame);
      }
    };
  }

  /** Drops a socket whose session handshake gets no answer in time, so the library tries again. */
  private watchHandshake(): void {
    const manager = this.manager;
    const socket = manager.socket;
    clearTimeout(this.handshakeTimer);
    this.handshakeTimer = setTimeout(() => {
      if (manager.socket === socket && manager.state === CONNECTING) socket?.destroy();
    }, this.handshakeTimeoutMs);
    this.handshakeTimer.unref();
  }

  /** Handles a frame if it is ours; returns false to let the library handle it. */
  private dispatch(frame: Buffer): boolean {
    const manager = this.manager;
    if (manager.state === CONNECTING || frame.length < 20) return false;
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
    if (err !== 0) head.callback?.({ code: err }, frame.subarray(20));
    else head.callback?.(null, frame.subarray(20));
    return true;
  }

  private emitNotification(frame: Buffer): void {
    if (this.notificationListeners.size === 0) return;
    const reader = new JuteReader(frame, 20);
    const type = reader.int();
    const state = reader.int();
    const path = this.clientPath(reader.string());
    for (const listener of [...this.notificationListeners]) listener({ type, state, path });
  }
}
