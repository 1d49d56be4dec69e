// Sends requests of our own through node-zookeeper-client's connection: its queue assigns xids, keeps order and
// handles reconnects; a small frame pre-parser in front of its socket handler takes the replies to our requests and
// every watch notification (frameRouter), and passes the rest on. Around it: liveness (pings and the read timeout),
// the SASL gate that holds back the handshake answer, and the silent-close TLS check, each in its own file. A frame
// that cannot be one (bad length, too short to parse) drops the connection instead of crashing the process.
import type { Client } from 'node-zookeeper-client';
import { ZkError } from '../errors';
import { installLibraryFixes } from '../security/libraryFixes';
import type { SaslMechanism } from '../security/saslMechanism';
import { installTlsTransport, TlsConnectionInfo } from '../security/secureTransport';
import type { TlsFailure } from '../security/tlsFailure';
import type { PreparedTls } from '../security/tlsSettings';
import type { TransportManager } from '../transportManager';
import type { Dialer } from '../tunnel/dialer';
import type { TunnelFailure } from '../tunnel/sshFailure';
import { installTunnelTransport } from '../tunnel/tunnelTransport';
import { DEFAULT_MAX_FRAME_BYTES, FrameLengthError, FrameReader } from './frameReader';
import { FrameRouter, malformedFrame, ReplyTooLarge, WatchNotification } from './frameRouter';
import {
  connectionManagerOf, ConnectionManagerInternals, isConnected, LibraryCallback, LibraryState, ownRequest, pingRequest, sessionSetUpFirst,
} from './libraryInternals';
import { Liveness } from './liveness';
import { SaslGate } from './saslGate';
import { SilentCloseCheck } from './silentCloseCheck';

export type { WatchNotification } from './frameRouter';

const failureOf = (error: unknown, operation: string, path?: string): ZkError =>
  error instanceof ReplyTooLarge ? new ZkError('replyTooLarge', operation, path) : ZkError.from(error, operation, path);

/** The server closes a session that did not authenticate with SASL when it requires SASL. */
const SESSION_CLOSED_REQUIRE_SASL = -124;

export interface ChannelOptions {
  /** How long a connected socket may wait for the answer to the session handshake (ms). */
  handshakeTimeoutMs?: number;
  /** The largest frame accepted (bytes); a longer one drops the connection. */
  maxFrameBytes?: number;
  /** Open every socket with TLS. */
  tls?: PreparedTls;
  /** Authenticate every new connection with SASL before anything else is sent; a fresh mechanism each time. */
  sasl?: (serverHost: string) => SaslMechanism;
  /** Opens every connection through an SSH bastion (TLS, when used, goes on top of the tunnel). */
  dialer?: Dialer;
}

export interface SendOptions {
  /**
   * A reply longer than the channel accepts fails this request alone with `replyTooLarge` (the frame is skipped as
   * it arrives), instead of ending the connection: for requests the sender can ask again in smaller parts.
   */
  failsAloneIfTooLarge?: boolean;
}

/** What the channel reports about TLS and SASL, as it happens. */
export type SecurityEvent =
  | { kind: 'tlsSecured'; info: TlsConnectionInfo }
  | { kind: 'tlsFailure'; server: string; failure: TlsFailure }
  | { kind: 'saslAuthenticated'; mechanism: string; identity: string; server: string }
  /** Final: the library stops reconnecting. */
  | { kind: 'authFailed'; line: string }
  /** The server did not answer a SASL step in time: the connection was dropped and is tried again (not final). */
  | { kind: 'saslNoAnswer'; server: string; line: string }
  /** The SSH tunnel to `server` failed or closed (the line names the bastion). */
  | { kind: 'tunnelFailure'; server: string; failure: TunnelFailure };

export class RawChannel {
  private readonly frames: FrameReader;
  private readonly router: FrameRouter;
  private readonly liveness: Liveness;
  /** Only when SASL is configured. */
  private readonly saslGate: SaslGate | undefined;
  /** Only for plain connections (a TLS handshake says itself what went wrong). */
  private readonly silentClose: SilentCloseCheck | undefined;
  private readonly dropListeners = new Set<(reason: string) => void>();
  private readonly securityListeners = new Set<(event: SecurityEvent) => void>();
  private readonly manager: ConnectionManagerInternals;
  private readonly handshakeTimeoutMs: number;
  private reconnectPrevented = false;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private lastDropReason: string | undefined;
  private passOn: (frame: Buffer) => void = () => undefined;
  private tlsInfoValue: TlsConnectionInfo | undefined;
  private authFailureValue: string | undefined;
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
    this.frames = new FrameReader(o.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES, () => this.router.oldestFailsAloneIfTooLarge());
    const manager = connectionManagerOf(client);
    this.manager = manager;
    this.router = new FrameRouter(manager, (path) => this.clientPath(path));
    this.liveness = new Liveness({
      get socket() { return manager.socket; },
      get connected() { return isConnected(manager); },
      get sessionTimeoutMs() { return manager.sessionTimeout; },
      ping: () => manager.queue(pingRequest(), () => undefined),
      drop: (reason) => this.drop(reason),
    });
    const mechanismFor = o.sasl;
    if (mechanismFor) {
      this.saslGate = new SaslGate({
        get socket() { return manager.socket; },
        serverHost: () => this.currentHost ?? manager.socket?.remoteAddress ?? 'localhost',
        authenticated: (mechanism, connectResponse) => {
          this.emitSecurity({ kind: 'saslAuthenticated', mechanism: mechanism.name, identity: mechanism.identity, server: this.serverAddress ?? '' });
          // Now the library may see its session: it becomes CONNECTED and writes what waited.
          this.deliverHeld(connectResponse);
        },
        failed: (line) => this.failAuthentication(line),
      }, mechanismFor);
    }
    const tunnel = o.dialer?.via ? o.dialer : undefined;
    // Through a tunnel the port cannot be asked directly whether it speaks TLS (and a closed tunnel says why itself).
    if (!o.tls && !tunnel) {
      this.silentClose = new SilentCloseCheck(() => this.reconnectPrevented, (server, failure) => this.emitSecurity({ kind: 'tlsFailure', server, failure }));
    }
    installLibraryFixes();
    if (o.tls) {
      installTlsTransport(manager as unknown as TransportManager, o.tls, {
        onFailure: (server, failure) => this.emitSecurity({ kind: 'tlsFailure', server, failure }),
        onSecured: (info) => {
          this.tlsInfoValue = info;
          this.emitSecurity({ kind: 'tlsSecured', info });
        },
        onTunnelFailure: (server, failure) => this.onTunnelFailure(server, failure),
      }, tunnel);
    } else if (tunnel) {
      installTunnelTransport(manager as unknown as TransportManager, tunnel, { onTunnelFailure: (server, failure) => this.onTunnelFailure(server, failure) });
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
    return this.saslGate?.identity;
  }

  /** Why authentication failed for good, once it has. */
  get authFailure(): string | undefined {
    return this.authFailureValue;
  }

  /** A tunnel that closed under a live connection is a drop like the channel's own, with the bastion's line. */
  private onTunnelFailure(server: string, failure: TunnelFailure): void {
    if (failure.kind === 'closed') {
      this.lastDropReason = failure.line;
      for (const listener of [...this.dropListeners]) listener(failure.line);
    }
    this.emitSecurity({ kind: 'tunnelFailure', server, failure });
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
    return this.router.onNotification(listener);
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
  send(opCode: number, body: Buffer, operation: string, path?: string, options: SendOptions = {}): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.queueOwn(opCode, body, (error, reply) => {
        if (error) reject(failureOf(error, operation, path));
        else resolve(reply ?? Buffer.alloc(0));
      }, options);
    });
  }

  private queueOwn(opCode: number, body: Buffer, callback: LibraryCallback, options: SendOptions = {}): void {
    this.manager.queue(ownRequest(opCode, body, options.failsAloneIfTooLarge), callback);
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
        else reject(failureOf(error, operation, path));
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
    const closed = manager.onSocketClosed.bind(manager);
    const connected = manager.onSocketConnected.bind(manager);
    this.passOn = manager.onSocketData.bind(manager);
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
      this.silentClose?.connected(manager.socket);
      connected();
      sessionSetUpFirst(manager);
      this.watchHandshake();
    };
    manager.onSocketClosed = (hadError: boolean) => {
      clearTimeout(this.handshakeTimer);
      // The library clears its connect timer only on connect or error: one left by a socket that closed before
      // connecting would keep the process alive after close(), then destroy whichever socket is current by then.
      if (manager.connectTimeoutHandler) clearTimeout(manager.connectTimeoutHandler);
      this.saslGate?.reset();
      this.silentClose?.closed(manager.socket);
      this.liveness.stop();
      this.frames.reset();
      closed(hadError);
    };
    manager.onSocketData = (chunk: Buffer) => this.onSocketData(chunk);
  }

  private onSocketData(chunk: Buffer): void {
    const manager = this.manager;
    const socket = manager.socket;
    this.liveness.heard();
    this.silentClose?.heard(socket);
    this.frames.push(chunk);
    for (;;) {
      let frame: Buffer | undefined;
      try {
        frame = this.frames.next();
      } catch (error) {
        // A reply too long for us, to a request of ours: that request fails, the connection stays in step.
        if (error instanceof FrameLengthError && !this.saslGate?.holds(socket) && this.router.refuseTooLarge(error)) {
          this.frames.skipRefusedFrame();
          continue;
        }
        return this.drop(`${(error as Error).message}`);
      }
      if (!frame) break;
      if (this.saslGate?.holds(socket)) {
        this.saslGate.onReply(frame);
        continue;
      }
      const connecting = manager.state === LibraryState.connecting;
      const problem = malformedFrame(frame, connecting);
      if (problem) return this.drop(problem);
      if (connecting && this.saslGate && frame.readInt32BE(8) > 0) {
        // A session was granted: authenticate before the library sees it.
        this.saslGate.begin(frame);
        continue;
      }
      const requireSasl = !connecting && frame.readInt32BE(16) === SESSION_CLOSED_REQUIRE_SASL;
      let ours: boolean;
      try {
        ours = this.router.route(frame);
      } catch (error) {
        return this.drop(`unreadable reply (${(error as Error).message})`);
      }
      if (!ours) {
        try {
          this.passOn(frame);
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
    this.liveness.watchConnected();
  }

  /** Passes the ConnectResponse SASL held back to the library, which then holds a session. */
  private deliverHeld(connectResponse: Buffer): void {
    try {
      this.passOn(connectResponse);
    } catch (error) {
      return this.drop(`unreadable handshake answer (${(error as Error).message})`);
    }
    this.liveness.watchConnected();
  }

  /** Authentication failed for good: say why, and let the library stop (it retries nothing after AUTH_FAILED). */
  private failAuthentication(line: string): void {
    this.authFailureValue = line;
    this.emitSecurity({ kind: 'authFailed', line });
    this.manager.setState(LibraryState.authenticationFailed);
    this.manager.socket?.destroy();
  }

  /** Drops the connection with a reason; the library reports DISCONNECTED and tries the next server. */
  private drop(reason: string): void {
    this.dropSaying(reason);
  }

  /** drop(), returning the line said (undefined when there was no connection to drop). */
  private dropSaying(reason: string): string | undefined {
    const socket = this.manager.socket;
    this.liveness.stop();
    this.frames.reset();
    if (!socket || socket.destroyed) return undefined;
    const line = `connection to ${this.serverAddress ?? 'the server'} dropped: ${reason}`;
    this.lastDropReason = line;
    for (const listener of [...this.dropListeners]) listener(line);
    socket.destroy();
    return line;
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
      if (manager.socket !== socket || manager.state !== LibraryState.connecting) return;
      const mechanism = this.saslGate?.mechanismOn(socket);
      if (mechanism === undefined) return void socket?.destroy();
      const server = this.serverAddress ?? 'the server';
      const line = this.dropSaying(`no answer to SASL ${mechanism} within ${this.handshakeTimeoutMs} ms`);
      if (line) this.emitSecurity({ kind: 'saslNoAnswer', server, line });
    }, this.handshakeTimeoutMs);
    this.handshakeTimer.unref();
  }
}
