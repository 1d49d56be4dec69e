// Sends requests of our own through node-zookeeper-client's connection: its queue assigns xids, keeps order and
// handles reconnects; a small frame pre-parser in front of its socket handler takes the replies to our requests
// (any opcode, including ones the library does not know) and every watch notification, and passes the rest on.
// It also keeps the connection honest, as the Java client does: pings every third of the negotiated session timeout
// (less a margin), and a connection that brings nothing for two thirds of it is dropped, so the session is known to
// be suspended before the ensemble can expire it (the library pings but never notices that no answer comes). A
// frame that cannot be one (bad length, too short to parse) drops the connection instead of crashing the process.
import { performance } from 'node:perf_hooks';
import type { Client } from 'node-zookeeper-client';
import { ZkError } from '../errors';
import { installLibraryFixes } from '../security/libraryFixes';
import type { SaslMechanism } from '../security/sasl';
import { SaslExchange, SaslRejected } from '../security/saslExchange';
import { installTlsTransport, TlsConnectionInfo, TransportManager } from '../security/secureTransport';
import { speaksTls } from '../security/portProbes';
import { plainToTlsPortLine, TlsFailure } from '../security/tlsFailure';
import type { PreparedTls } from '../security/tlsSettings';
import { DEFAULT_MAX_FRAME_BYTES, FrameReader } from './frameReader';
import { JuteReader } from './jute';
import { shortened, visibleText } from '../../shared/visibleText';
import { OpCode, Xid } from './opcodes';

type LibraryCallback = (error: unknown, reply?: Buffer) => void;

interface OwnRequest {
  header: { xid: number; type: number };
  payload: { setChrootPath(): void } | null;
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
  /** The negotiated session timeout once connected (the one asked for before). */
  sessionTimeout: number;
  chrootPath?: string;
  zxid: Buffer;
  socket?: { destroy(): void; destroyed?: boolean; remoteAddress?: string; remotePort?: number; write(data: Buffer): boolean };
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

const CONNECTING = 1;
const AUTHENTICATION_FAILED = -4;
/** The server closes a session that did not authenticate with SASL when it requires SASL. */
const SESSION_CLOSED_REQUIRE_SASL = -124;
const CONNECTED = 2;
const CONNECTED_READ_ONLY = 3;

/** The longest SASL failure said (characters): mechanisms may quote what the server sent. */
const MAX_SASL_LINE = 300;

/** The reply header (xid, zxid, err) after the 4-byte length. */
const REPLY_HEADER_END = 20;
/** A ConnectResponse up to its password length: protocolVersion, timeOut, sessionId, passwd length. */
const CONNECT_RESPONSE_MIN = 24;

/** The timings of a connection's liveness check, from the negotiated session timeout (ms). */
export function livenessTimings(sessionTimeoutMs: number): { readTimeoutMs: number; pingIntervalMs: number } {
  // Two thirds, as the Java client: the ensemble expires a session no sooner than its timeout after the last
  // touch the leader saw, so the client knows first, with a third to spare for pings in flight.
  const readTimeoutMs = Math.floor((sessionTimeoutMs * 2) / 3);
  // A third less a second (at most a sixth), as the Java client: the leader hears of a follower's touches only on
  // its own pings (every half tick), so the touch it saw last may be one ping older than the last answer we got.
  const pingIntervalMs = Math.max(1, Math.floor(sessionTimeoutMs / 3 - Math.min(1000, sessionTimeoutMs / 6)));
  return { readTimeoutMs, pingIntervalMs };
}

export interface ChannelOptions {
  /** How long a connected socket may wait for the answer to the session handshake (ms). */
  handshakeTimeoutMs?: number;
  /** The largest frame accepted (bytes); a longer one drops the connection. */
  maxFrameBytes?: number;
  /** Open every socket with TLS. */
  tls?: PreparedTls;
  /** Authenticate every new connection with SASL before anything else is sent; a fresh mechanism each time. */
  sasl?: (serverHost: string) => SaslMechanism;
}

/** What the channel reports about TLS and SASL, as it happens. */
export type SecurityEvent =
  | { kind: 'tlsSecured'; info: TlsConnectionInfo }
  | { kind: 'tlsFailure'; server: string; failure: TlsFailure }
  | { kind: 'saslAuthenticated'; mechanism: string; identity: string; server: string }
  /** Final: the library stops reconnecting. */
  | { kind: 'authFailed'; line: string }
  /** The server did not answer a SASL step in time: the connection was dropped and is tried again (not final). */
  | { kind: 'saslNoAnswer'; server: string; line: string };

export interface WatchNotification {
  type: number;
  state: number;
  /** Path without the chroot. */
  path: string;
}

export class RawChannel {
  private readonly frames: FrameReader;
  private readonly notificationListeners = new Set<(n: WatchNotification) => void>();
  private readonly dropListeners = new Set<(reason: string) => void>();
  private readonly manager: ConnectionManagerInternals;
  private readonly handshakeTimeoutMs: number;
  private reconnectPrevented = false;
  private handshakeTimer: NodeJS.Timeout | undefined;
  /** The socket the liveness check watches (the connected one), and its timer. */
  private livenessSocket: ConnectionManagerInternals['socket'];
  private livenessTimer: NodeJS.Timeout | undefined;
  /** performance.now() of the last bytes received, and of the last ping we sent. */
  private lastHeard = 0;
  private lastPing = 0;
  private lastDropReason: string | undefined;
  private readonly securityListeners = new Set<(event: SecurityEvent) => void>();
  private readonly saslFactory: ChannelOptions['sasl'];
  /** The SASL exchange of the connection being set up, and the ConnectResponse held back until it succeeds. */
  private sasl: { exchange: SaslExchange; mechanism: SaslMechanism; socket: ConnectionManagerInternals['socket']; held: Buffer; queue: Promise<void> } | undefined;
  private passOn: (frame: Buffer) => void = () => undefined;
  private tlsInfoValue: TlsConnectionInfo | undefined;
  private saslIdentityValue: { mechanism: string; identity: string } | undefined;
  private authFailureValue: string | undefined;
  private readonly usesTls: boolean;
  /** The plain connection being set up, and whether its server has said anything yet. */
  private plainAttempt: { socket: ConnectionManagerInternals['socket']; host: string; port: number; heard: boolean } | undefined;
  /** When each server was last asked whether it speaks TLS (performance.now()). */
  private readonly tlsAsked = new Map<string, number>();
  /** The host name of the server being connected to, as the connect string names it (Kerberos needs the name). */
  private currentHost: string | undefined;

  /**
   * `handshakeTimeoutMs`: how long a connected socket may wait for the server's answer to the session handshake.
   * The library clears its connect timeout once TCP connects and then waits for that answer forever; a server
   * that accepts connections while it is still starting (seen after restarts) can leave it there for good.
   */
  constructor(client: Client, options: ChannelOptions | number = {}) {
    const o = typeof options === 'number' ? { handshakeTimeoutMs: options } : options;
    this.handshakeTimeoutMs = o.handshakeTimeoutMs ?? 10000;
    this.frames = new FrameReader(o.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    this.manager = (client as unknown as { connectionManager: ConnectionManagerInternals }).connectionManager;
    if (!this.manager || !Array.isArray(this.manager.pendingQueue) || typeof this.manager.queue !== 'function' ||
      !Array.isArray(this.manager.packetQueue?.queue)) {
      throw new Error('node-zookeeper-client internals changed: cannot install the protocol extensions');
    }
    this.saslFactory = o.sasl;
    this.usesTls = !!o.tls;
    installLibraryFixes();
    if (o.tls) {
      installTlsTransport(this.manager as unknown as TransportManager, o.tls, {
        onFailure: (server, failure) => this.emitSecurity({ kind: 'tlsFailure', server, failure }),
        onSecured: (info) => {
          this.tlsInfoValue = info;
          this.emitSecurity({ kind: 'tlsSecured', info });
        },
      });
    }
    this.install();
  }

  /** TLS and SASL events (handshakes, failures in one line). */
  onSecurity(listener: (event: SecurityEvent) => void): () => void {
    this.securityListeners.add(listener);
    return () => this.securityListeners.delete(listener);
  }

  /** The TLS facts of the last handshake that succeeded. */
  get tlsInfo(): TlsConnectionInfo | undefined {
    return this.tlsInfoValue;
  }

  /** Who SASL authenticated this connection as (cleared when a connection closes). */
  get saslIdentity(): { mechanism: string; identity: string } | undefined {
    return this.saslIdentityValue;
  }

  /** Why authentication failed for good, once it has. */
  get authFailure(): string | undefined {
    return this.authFailureValue;
  }

  private emitSecurity(event: SecurityEvent): void {
    for (const listener of [...this.securityListeners]) listener(event);
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

  /** Called with one line saying why, whenever the channel drops a connection itself (silence, a broken frame). */
  onDrop(listener: (reason: string) => void): () => void {
    this.dropListeners.add(listener);
    return () => this.dropListeners.delete(listener);
  }

  /** Why the channel last dropped a connection itself, if it ever did. */
  get lastDrop(): string | undefined {
    return this.lastDropReason;
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
    this.passOn = passOn;
    const findNextServer = manager.findNextServer.bind(manager);
    manager.findNextServer = (callback) => findNextServer((server) => {
      this.currentHost = server.host;
      callback(server);
    });
    // These are bound to each new socket in connect(), so instance properties take effect from the next socket on.
    manager.onSocketConnected = () => {
      this.frames.reset();
      if (this.reconnectPrevented) {
        // A connect the library had scheduled (its spin delay) before it was stopped: drop that socket.
        if (manager.connectTimeoutHandler) clearTimeout(manager.connectTimeoutHandler);
        manager.socket?.destroy();
        return;
      }
      const socket = manager.socket;
      this.plainAttempt = !this.usesTls && socket?.remoteAddress && socket.remotePort
        ? { socket, host: socket.remoteAddress, port: socket.remotePort, heard: false }
        : undefined;
      connected();
      this.watchHandshake();
    };
    manager.onSocketClosed = (hadError: boolean) => {
      clearTimeout(this.handshakeTimer);
      // The library clears its connect timer only on connect or error: one left by a socket that closed before
      // connecting would keep the process alive after close(), then destroy whichever socket is current by then.
      if (manager.connectTimeoutHandler) clearTimeout(manager.connectTimeoutHandler);
      this.sasl = undefined;
      this.saslIdentityValue = undefined;
      this.checkSilentClose();
      this.stopLiveness();
      this.frames.reset();
      closed(hadError);
    };
    manager.onSocketData = (chunk: Buffer) => {
      const socket = manager.socket;
      // Any bytes count as a sign of life, as in the Java client (a huge reply arrives in many chunks).
      this.lastHeard = performance.now();
      const attempt = this.plainAttempt;
      if (attempt && attempt.socket === socket) attempt.heard = true;
      this.frames.push(chunk);
      for (;;) {
        let frame: Buffer | undefined;
        try {
          frame = this.frames.next();
        } catch (error) {
          return this.drop(`${(error as Error).message}`);
        }
        if (!frame) break;
        // Frames of a SASL exchange in progress belong to it (the server sends nothing else meanwhile).
        if (this.sasl && this.sasl.socket === socket) {
          this.onSaslReply(frame);
          continue;
        }
        const problem = this.malformed(frame);
        if (problem) return this.drop(problem);
        if (manager.state === CONNECTING && this.saslFactory && frame.readInt32BE(8) > 0) {
          // A session was granted: authenticate before the library sees it, so its queued requests, auth packets
          // and watch re-registration are written only after SASL succeeded.
          this.beginSasl(frame);
          continue;
        }
        const requireSasl = manager.state !== CONNECTING && frame.readInt32BE(16) === SESSION_CLOSED_REQUIRE_SASL;
        let ours: boolean;
        try {
          ours = this.dispatch(frame);
        } catch (error) {
          return this.drop(`unreadable reply (${(error as Error).message})`);
        }
        if (!ours) {
          try {
            passOn(frame);
          } catch (error) {
            // The library parses its replies with no bounds checks; a reply it cannot read ends the connection, not
            // the process.
            return this.drop(`unreadable reply (${(error as Error).message})`);
          }
        }
        if (requireSasl) {
          return this.failAuthentication(`${this.serverAddress ?? 'the server'} requires SASL authentication and closed the session (error -124); connect with SASL credentials`);
        }
        if (ours) continue;
        // The library dropped the socket itself (a reply out of order): the rest belongs to a dead connection.
        if (manager.socket !== socket || socket?.destroyed) return;
      }
      if (this.livenessSocket !== socket && (manager.state === CONNECTED || manager.state === CONNECTED_READ_ONLY)) {
        this.startLiveness();
      }
    };
  }

  /**
   * A plain connection the server closed before saying a word: a TLS port does that (Netty drops a record that is
   * not TLS), and the library would retry silently forever. Asks the port once in a while whether it speaks TLS.
   */
  private checkSilentClose(): void {
    const attempt = this.plainAttempt;
    this.plainAttempt = undefined;
    if (!attempt || attempt.heard || attempt.socket !== this.manager.socket || this.reconnectPrevented) return;
    const server = `${attempt.host}:${attempt.port}`;
    const now = performance.now();
    if (now - (this.tlsAsked.get(server) ?? -Infinity) < 5000) return;
    this.tlsAsked.set(server, now);
    void speaksTls(attempt.host, attempt.port).then((tls) => {
      if (tls && !this.reconnectPrevented) this.emitSecurity({ kind: 'tlsFailure', server, failure: plainToTlsPortLine(server) });
    });
  }

  private beginSasl(connectResponse: Buffer): void {
    const socket = this.manager.socket;
    const host = this.currentHost ?? socket?.remoteAddress ?? 'localhost';
    let mechanism: SaslMechanism;
    try {
      mechanism = this.saslFactory!(host);
    } catch (error) {
      return this.failAuthentication((error as Error).message);
    }
    const exchange = new SaslExchange(mechanism, (frame) => { if (this.manager.socket === socket) socket?.write(frame); });
    const state = { exchange, mechanism, socket, held: Buffer.from(connectResponse), queue: Promise.resolve() };
    this.sasl = state;
    state.queue = exchange.start().catch((error: unknown) => this.saslFailed(state, error));
  }

  /** Replies are handled one after the other, each after the previous step (which may be asynchronous). */
  private onSaslReply(frame: Buffer): void {
    const state = this.sasl;
    if (!state) return;
    const copy = Buffer.from(frame);
    state.queue = state.queue.then(async () => {
      if (this.sasl !== state) return;
      try {
        if (await state.exchange.onReply(copy)) this.saslSucceeded(state);
      } catch (error) {
        this.saslFailed(state, error);
      }
    });
  }

  private saslSucceeded(state: NonNullable<RawChannel['sasl']>): void {
    if (this.sasl !== state || this.manager.socket !== state.socket) return;
    this.sasl = undefined;
    const mechanism = state.mechanism;
    this.saslIdentityValue = { mechanism: mechanism.name, identity: mechanism.identity };
    this.emitSecurity({ kind: 'saslAuthenticated', mechanism: mechanism.name, identity: mechanism.identity, server: this.serverAddress ?? '' });
    // Now the library may see its session: it becomes CONNECTED and writes what waited.
    this.deliverHeld(state.held);
  }

  private deliverHeld(connectResponse: Buffer): void {
    try {
      this.passOn(connectResponse);
    } catch (error) {
      return this.drop(`unreadable handshake answer (${(error as Error).message})`);
    }
    const manager = this.manager;
    if (this.livenessSocket !== manager.socket && (manager.state === CONNECTED || manager.state === CONNECTED_READ_ONLY)) {
      this.startLiveness();
    }
  }

  private saslFailed(state: NonNullable<RawChannel['sasl']>, error: unknown): void {
    if (this.sasl !== state) return;
    this.sasl = undefined;
    if (this.manager.socket !== state.socket) return;
    const rejected = error instanceof SaslRejected;
    // A mechanism's message may quote the server (a DIGEST-MD5 challenge, a Kerberos error): one short visible line.
    const said = shortened(visibleText((error as Error).message.split('\n')[0]), MAX_SASL_LINE);
    this.failAuthentication(rejected ? `SASL ${said}` : `SASL failed: ${said}`);
  }

  /** Authentication failed for good: say why, and let the library stop (it retries nothing after AUTH_FAILED). */
  private failAuthentication(line: string): void {
    this.authFailureValue = line;
    this.emitSecurity({ kind: 'authFailed', line });
    this.manager.setState(AUTHENTICATION_FAILED);
    this.manager.socket?.destroy();
  }

  /** Why `frame` cannot be read, if it cannot (checked before anyone parses it). */
  private malformed(frame: Buffer): string | undefined {
    if (this.manager.state === CONNECTING) {
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

  /** Drops the connection with a reason; the library reports DISCONNECTED and tries the next server. */
  private drop(reason: string): void {
    this.dropSaying(reason);
  }

  /** drop(), returning the line said (undefined when there was no connection to drop). */
  private dropSaying(reason: string): string | undefined {
    const socket = this.manager.socket;
    this.stopLiveness();
    this.frames.reset();
    if (!socket || socket.destroyed) return undefined;
    const line = `connection to ${this.serverAddress ?? 'the server'} dropped: ${reason}`;
    this.lastDropReason = line;
    for (const listener of [...this.dropListeners]) listener(line);
    socket.destroy();
    return line;
  }

  /** Starts pinging the connected socket and watching it for silence. */
  private startLiveness(): void {
    this.stopLiveness();
    this.livenessSocket = this.manager.socket;
    this.lastPing = performance.now();
    this.scheduleLiveness();
  }

  private stopLiveness(): void {
    clearTimeout(this.livenessTimer);
    this.livenessTimer = undefined;
    this.livenessSocket = undefined;
  }

  private scheduleLiveness(): void {
    const { readTimeoutMs, pingIntervalMs } = livenessTimings(this.manager.sessionTimeout);
    const now = performance.now();
    const next = Math.min(this.lastHeard + readTimeoutMs, this.lastPing + pingIntervalMs) - now;
    clearTimeout(this.livenessTimer);
    this.livenessTimer = setTimeout(() => this.checkLiveness(false), Math.max(1, Math.ceil(next)));
    // The socket keeps the process alive while the connection matters; this timer need not.
    this.livenessTimer.unref();
  }

  private checkLiveness(afterIo: boolean): void {
    const manager = this.manager;
    if (!this.livenessSocket || manager.socket !== this.livenessSocket) return;
    if (manager.state !== CONNECTED && manager.state !== CONNECTED_READ_ONLY) return this.stopLiveness();
    const { readTimeoutMs, pingIntervalMs } = livenessTimings(manager.sessionTimeout);
    const now = performance.now();
    const silentMs = now - this.lastHeard;
    if (silentMs >= readTimeoutMs) {
      // A busy event loop runs timers before it reads sockets: let it read what may have arrived meanwhile (a
      // setImmediate runs after the poll phase) before calling the server silent.
      if (!afterIo) {
        setImmediate(() => this.checkLiveness(true));
        return;
      }
      return this.drop(`no reply for ${Math.round(silentMs)} ms (allowed: ${readTimeoutMs} ms, two thirds of the ${manager.sessionTimeout} ms session timeout)`);
    }
    if (now - this.lastPing >= pingIntervalMs) this.ping(now);
    this.scheduleLiveness();
  }

  /** Queues a ping (xid -2); the library writes it without waiting for an answer, and ignores the answer. */
  private ping(now: number): void {
    this.lastPing = now;
    const request: OwnRequest = {
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
    this.manager.queue(request, () => undefined);
  }

  /**
   * Drops a socket whose session handshake gets no answer in time, so the library tries again. It covers the SASL
   * exchange too (the session is held back until it succeeds): a server that never answers a SASL step is dropped
   * with a line saying so.
   */
  private watchHandshake(): void {
    const manager = this.manager;
    const socket = manager.socket;
    clearTimeout(this.handshakeTimer);
    this.handshakeTimer = setTimeout(() => {
      if (manager.socket !== socket || manager.state !== CONNECTING) return;
      const sasl = this.sasl;
      if (!sasl || sasl.socket !== socket) return void socket?.destroy();
      const server = this.serverAddress ?? 'the server';
      const line = this.dropSaying(`no answer to SASL ${sasl.mechanism.name} within ${this.handshakeTimeoutMs} ms`);
      if (line) this.emitSecurity({ kind: 'saslNoAnswer', server, line });
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
