// The one place that knows node-zookeeper-client's internals (version 1.1.3): its ConnectionManager, whose queue,
// socket handlers and state the channel uses, and the shape of a request that queue accepts.
import type { Client } from 'node-zookeeper-client';
import { OpCode, Xid } from './opcodes';

export type LibraryCallback = (error: unknown, reply?: Buffer) => void;

/** A request of ours, in the shape the library's queue writes (it assigns the xid). */
export interface OwnRequest {
  header: { xid: number; type: number };
  payload: { setChrootPath(): void } | null;
  zooscope: true;
  /** A reply too long for the channel fails this request alone (its sender asks again in smaller parts). */
  failsAloneIfTooLarge?: true;
  toBuffer(): Buffer;
}

export interface PendingPacket {
  request: { header: { xid: number; type: number } | null; zooscope?: true; failsAloneIfTooLarge?: true };
  callback?: LibraryCallback;
}

export interface LibrarySocket {
  destroy(): void;
  destroyed?: boolean;
  remoteAddress?: string;
  remotePort?: number;
  write(data: Buffer): boolean;
}

/** The parts of node-zookeeper-client's ConnectionManager the channel relies on. */
export interface ConnectionManagerInternals {
  state: number;
  /** The negotiated session timeout once connected (the one asked for before). */
  sessionTimeout: number;
  chrootPath?: string;
  zxid: Buffer;
  socket?: LibrarySocket;
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
  setState(state: number): void;
  findNextServer(callback: (server: { host: string; port: string | number }) => void): void;
}

/** The library's connection states the channel acts on. */
export const LibraryState = {
  connecting: 1,
  connected: 2,
  connectedReadOnly: 3,
  authenticationFailed: -4,
} as const;

/** Whether the library holds a session on its socket (read-only counts). */
export function isConnected(manager: ConnectionManagerInternals): boolean {
  return manager.state === LibraryState.connected || manager.state === LibraryState.connectedReadOnly;
}

/** The client's ConnectionManager, checked for the parts used here (a library upgrade must fail loudly). */
export function connectionManagerOf(client: Client): ConnectionManagerInternals {
  const manager = (client as unknown as { connectionManager?: ConnectionManagerInternals }).connectionManager;
  if (!manager || !Array.isArray(manager.pendingQueue) || typeof manager.queue !== 'function' ||
    !Array.isArray(manager.packetQueue?.queue)) {
    throw new Error('node-zookeeper-client internals changed: cannot install the protocol extensions');
  }
  return manager;
}

/** A request whose `body` (the record after the request header) is already serialized, chroot included. */
export function ownRequest(opCode: number, body: Buffer, failsAloneIfTooLarge = false): OwnRequest {
  return {
    header: { xid: 0, type: opCode },
    payload: { setChrootPath() { /* paths in `body` already carry the chroot */ } },
    zooscope: true,
    ...(failsAloneIfTooLarge ? { failsAloneIfTooLarge: true as const } : {}),
    toBuffer() {
      const frame = Buffer.allocUnsafe(12 + body.length);
      frame.writeInt32BE(8 + body.length, 0);
      frame.writeInt32BE(this.header.xid, 4);
      frame.writeInt32BE(opCode, 8);
      body.copy(frame, 12);
      return frame;
    },
  };
}

/** A ping (xid -2): the library writes it without waiting for an answer, and ignores the answer. */
export function pingRequest(): OwnRequest {
  return {
    header: { xid: Xid.ping, type: OpCode.ping },
    payload: null,
    zooscope: true,
    toBuffer() {
      const frame = Buffer.allocUnsafe(12);
      frame.writeInt32BE(8, 0);
      frame.writeInt32BE(Xid.ping, 4);
      frame.writeInt32BE(OpCode.ping, 8);
      return frame;
    },
  };
}

/**
 * After the library queued a new connection's credentials and watch set-up (at the END of its queue), puts them
 * first: requests made while connecting were queued before them, and the server would otherwise run those under
 * the previous identity (none), an ACL-protected read failing or a create getting the wrong owner's ACL.
 */
export function sessionSetUpFirst(manager: ConnectionManagerInternals): void {
  const queue = manager.packetQueue.queue;
  const isSetUp = (p: PendingPacket) => p.request.header?.xid === Xid.auth || p.request.header?.xid === Xid.setWatches;
  if (!queue.some(isSetUp)) return;
  const setUp = queue.filter(isSetUp);
  const rest = queue.filter((p) => !isSetUp(p));
  queue.splice(0, queue.length, ...setUp, ...rest);
}
