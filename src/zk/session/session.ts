// One ZooKeeper session: connects with a deadline and a diagnosis, reports its state, runs every request with a
// timeout, and keeps persistent watches alive across reconnects. Expiry is final: the owner opens a new session.
import { EventEmitter } from 'node:events';
import * as zookeeper from 'node-zookeeper-client';
import { connectStringProblemText, formatConnectString, isConnectStringProblem, parseConnectString, ParsedConnectString } from '../connectString';
import { ErrorCode, ZkError } from '../errors';
import { isDefinitiveFailure, probeServer, ProbeResult } from '../probes/serverProbe';
import * as ops from '../protocol/operations';
import { RawChannel, SecurityEvent, WatchNotification } from '../protocol/rawChannel';
import { createSaslMechanism, SaslSettings } from '../security/sasl';
import { isFinalTlsFailure } from '../security/tlsFailure';
import { prepareTls, PreparedTls, SecurityConfigError, TlsSettings } from '../security/tlsSettings';
import { sessionIdHex, ZnodeStat } from '../stat';
import { Dialer, dialerFor } from '../tunnel/dialer';
import { isFinalTunnelFailure } from '../tunnel/sshFailure';
import { SshTunnelSettings, sshSettingsProblem } from '../tunnel/sshSettings';
import { withTimeout } from '../timeouts';
import { SessionSecurity, securityOfChannel } from './sessionSecurity';
import { WatchRegistry } from './watchRegistry';

export type SessionState = 'connecting' | 'connected' | 'suspended' | 'lost' | 'expired' | 'authFailed' | 'closed';

export interface SessionOptions {
  connectString: string;
  /** Appended to the connect string's own chroot, if any. */
  chroot?: string;
  sessionTimeoutMs?: number;
  /** Every request fails with `clientTimeout` after this long without an answer. */
  requestTimeoutMs?: number;
  /** digest credentials as `user:password`, added before anything else is sent. */
  digest?: string[];
  /** The largest reply frame accepted (default 64 MiB); a longer one drops the connection. */
  maxFrameBytes?: number;
  /** Connect with TLS (every reconnect makes a new handshake). */
  tls?: TlsSettings;
  /** Authenticate every connection with SASL before any other request is sent. */
  sasl?: SaslSettings;
  /** Reach every server (and ask the probes, four-letter words, AdminServer) through this SSH bastion. */
  ssh?: SshTunnelSettings;
}

export class ConnectFailure extends Error {
  constructor(
    readonly reason: 'timedOut' | 'unreachable' | 'expired' | 'authFailed' | 'cancelled' | 'invalid' | 'security',
    readonly probes: ProbeResult[],
    detail?: string,
  ) {
    super(`cannot connect: ${reason}${detail ? ` (${detail})` : ''}${probes.map((p) => `; ${p.server} ${p.outcome}`).join('')}`);
    this.name = 'ConnectFailure';
  }

  /** TLS or SASL settings that cannot work (reason `invalid`); `settingsProblem` says why in one line. */
  static ofSettings(problem: string): ConnectFailure {
    return Object.assign(new ConnectFailure('invalid', [], problem), { settingsProblem: problem });
  }

  /** Set when the session's TLS or SASL settings, not its connect string, are what cannot work. */
  readonly settingsProblem?: string;
}

/** Waits `ms`, or less when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** An error as node-zookeeper-client gives it to callbacks (its typings lack Exception.create). */
function libraryError(code: number): Error {
  return (zookeeper.Exception as unknown as { create(code: number): Error }).create(code);
}

/** What a session reports, each with what its listeners receive. */
export interface SessionEvents {
  /** Every change of state. */
  state: [SessionState];
  /** Connected again after a suspension: the server dropped this session's watches with the old connection. */
  reconnected: [];
  /** The channel dropped a connection itself (silence, a broken frame), with one line saying why. */
  dropped: [string];
  /** A TLS or SASL failure, as one line without secrets. */
  securityProblem: [string];
  /** SASL authenticated a connection. */
  authenticated: [Extract<SecurityEvent, { kind: 'saslAuthenticated' }>];
}

interface Diagnosis {
  /** The latest answers of the probes. */
  probes: ProbeResult[];
  /** Aborted when open() has its answer, or is cancelled. */
  stop: AbortController;
}

export class ZkSession extends EventEmitter<SessionEvents> {
  readonly client: zookeeper.Client;
  readonly channel: RawChannel;
  readonly watches: WatchRegistry;
  readonly parsed: ParsedConnectString;
  readonly sessionTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /**
   * The session's TLS settings, prepared, when it uses TLS: what asks the servers beside the session (four-letter
   * words, the AdminServer) uses them, so those connections are verified like the session's own.
   */
  readonly serverTls: PreparedTls | undefined;
  /** What opens connections to the servers: direct, or through the session's SSH bastion (serverTls goes on top). */
  readonly dialer: Dialer;
  private stateValue: SessionState = 'connecting';
  private everConnected = false;
  private lostTimer?: NodeJS.Timeout;
  /** The latest TLS failure per server (host:port), cleared when a handshake with it succeeds. */
  private readonly securityProblems = new Map<string, string>();
  /** The latest TLS failure, or SASL step the server left unanswered. */
  private lastTlsFailure: string | undefined;

  constructor(readonly options: SessionOptions) {
    super();
    const parsed = parseConnectString(options.connectString);
    if (isConnectStringProblem(parsed)) throw new ConnectFailure('invalid', [], connectStringProblemText(parsed));
    const chroot = joinChroots(parsed.chroot, options.chroot);
    this.parsed = { ...parsed, chroot };
    this.sessionTimeoutMs = options.sessionTimeoutMs ?? 30000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15000;
    this.client = zookeeper.createClient(formatConnectString(this.parsed), {
      sessionTimeout: this.sessionTimeoutMs,
      spinDelay: 200,
      retries: 0,
    });
    // A third of each server's share of the session timeout: time to try again before the session is at risk.
    const handshakeTimeoutMs = Math.max(1500, this.sessionTimeoutMs / (3 * this.parsed.servers.length));
    let tls: PreparedTls | undefined;
    let sasl: ((host: string) => ReturnType<typeof createSaslMechanism>) | undefined;
    try {
      tls = options.tls ? prepareTls(options.tls) : undefined;
      const saslSettings = options.sasl;
      if (saslSettings) {
        // Built once now so a missing Kerberos module or bad settings fail here, not on every connection.
        createSaslMechanism(saslSettings, this.parsed.servers[0].host);
        sasl = (host) => createSaslMechanism(saslSettings, host);
      }
    } catch (error) {
      throw ConnectFailure.ofSettings(error instanceof SecurityConfigError ? error.message : (error as Error).message);
    }
    const sshProblem = options.ssh && sshSettingsProblem(options.ssh);
    if (sshProblem) throw ConnectFailure.ofSettings(sshProblem);
    this.serverTls = tls;
    this.dialer = dialerFor(options.ssh);
    this.channel = new RawChannel(this.client, { handshakeTimeoutMs, maxFrameBytes: options.maxFrameBytes, tls, sasl, dialer: this.dialer });
    this.channel.onSecurity((event) => this.onSecurityEvent(event));
    // The channel drops a silent or broken connection itself; the library then reports DISCONNECTED (suspended).
    this.channel.onDrop((reason) => this.emit('dropped', reason));
    this.watches = new WatchRegistry(this);
    for (const credential of options.digest ?? []) this.client.addAuthInfo('digest', Buffer.from(credential));
    this.client.on('state', (s: { code: number }) => this.onLibraryState(s.code));
  }

  get state(): SessionState {
    return this.stateValue;
  }

  get isLive(): boolean {
    return this.stateValue === 'connected' || this.stateValue === 'suspended' || this.stateValue === 'lost';
  }

  /** Exact 64-bit session id in hex, once connected. */
  get sessionId(): string | undefined {
    return this.everConnected ? sessionIdHex(this.client.getSessionId()) : undefined;
  }

  get serverAddress(): string | undefined {
    return this.stateValue === 'connected' ? this.channel.serverAddress : undefined;
  }

  /**
   * Why the connection was last dropped by this side (a server silent for two thirds of the session timeout, a
   * frame that cannot be one), as one line; a 'dropped' event carries the same line when it happens.
   */
  get lastDrop(): string | undefined {
    return this.channel.lastDrop;
  }

  /**
   * Whether the connection in use is TLS (protocol, cipher, the server certificate's subject) and SASL-authenticated
   * (mechanism, identity), for status lines; undefined parts are not in use.
   */
  get security(): SessionSecurity {
    return securityOfChannel(this.channel, this.stateValue === 'connected');
  }

  /** Why TLS or SASL last failed, as one line without secrets ('securityProblem' events carry each as it happens). */
  get lastSecurityProblem(): string | undefined {
    return this.channel.authFailure ?? this.lastTlsFailure;
  }

  private onSecurityEvent(event: SecurityEvent): void {
    if (event.kind === 'tlsSecured') this.securityProblems.delete(event.info.server);
    else if (event.kind === 'tlsFailure') {
      this.lastTlsFailure = event.failure.line;
      // Only failures that retrying cannot heal count towards giving up (a server still starting may reset).
      if (isFinalTlsFailure(event.failure.kind)) this.securityProblems.set(event.server, event.failure.line);
      this.emit('securityProblem', event.failure.line);
    } else if (event.kind === 'saslNoAnswer') {
      // Not final (a busy server may answer the next connection), but what open() says if it times out.
      this.lastTlsFailure = event.line;
      this.emit('securityProblem', event.line);
    } else if (event.kind === 'authFailed') this.emit('securityProblem', event.line);
    else if (event.kind === 'saslAuthenticated') this.emit('authenticated', event);
    else if (event.kind === 'tunnelFailure') {
      // The bastion's problem, said as such (status lines read lastSecurityProblem); a closed tunnel is only a drop.
      if (event.failure.kind === 'closed') return;
      this.lastTlsFailure = event.failure.line;
      if (isFinalTunnelFailure(event.failure.kind)) this.securityProblems.set(event.server, event.failure.line);
      this.emit('securityProblem', event.failure.line);
    }
  }

  /** The session timeout the server granted (it may differ from the one asked for). */
  get negotiatedTimeoutMs(): number {
    return this.client.getSessionTimeout();
  }

  /**
   * Connects within the session timeout or fails with the reason per server. Fails early when every server
   * refuses, cannot be resolved or is not ZooKeeper.
   */
  async open(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || this.stateValue === 'closed') {
      this.close();
      throw new ConnectFailure('cancelled', []);
    }
    const diagnosis: Diagnosis = { probes: [], stop: new AbortController() };
    let onState: (state: SessionState) => void = () => undefined;
    const connected = new Promise<void>((resolve, reject) => {
      onState = (state) => {
        if (state === 'connected') resolve();
        else if (state === 'expired') reject(new ConnectFailure('expired', []));
        else if (state === 'authFailed') reject(new ConnectFailure('authFailed', [], this.channel.authFailure));
        else if (state === 'closed') reject(new ConnectFailure('cancelled', diagnosis.probes, 'closed'));
      };
      this.on('state', onState);
    });
    // Cancelling answers at once; it does not wait for a probe or a pause of the diagnosis to end.
    const onAbort = () => diagnosis.stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const cancelled = new Promise<never>((_, reject) => {
      diagnosis.stop.signal.addEventListener('abort', () => reject(new ConnectFailure('cancelled', diagnosis.probes)), { once: true });
    });
    const diagnosed = this.diagnoseWhileWaiting(connected, diagnosis);
    // A TLS failure on every server will not heal by retrying (a certificate, a CA, a port of the wrong kind).
    let onProblem: () => void = () => undefined;
    const insecure = new Promise<never>((_, reject) => {
      onProblem = () => {
        if (this.securityProblems.size >= this.parsed.servers.length) {
          reject(new ConnectFailure('security', diagnosis.probes, [...this.securityProblems.values()].pop()));
        }
      };
      this.on('securityProblem', onProblem);
    });
    this.client.connect();
    try {
      await Promise.race([connected, diagnosed, cancelled, insecure]);
    } catch (error) {
      this.close();
      throw error;
    } finally {
      this.off('securityProblem', onProblem);
      this.off('state', onState);
      signal?.removeEventListener('abort', onAbort);
      diagnosis.stop.abort();
    }
  }

  private async diagnoseWhileWaiting(connected: Promise<void>, diagnosis: Diagnosis): Promise<never> {
    const stop = diagnosis.stop.signal;
    let done = false;
    void connected.then(() => { done = true; }, () => { done = true; });
    const over = () => done || stop.aborted;
    const deadline = Date.now() + this.sessionTimeoutMs;
    await sleep(300, stop);
    while (!over()) {
      const probes = await this.probeAll(Math.min(2000, Math.max(500, deadline - Date.now())), stop);
      if (over()) break;
      diagnosis.probes = probes;
      // Probes speak plain `srvr`, which a TLS port never answers: over TLS only refusals are definitive (TLS
      // failures come as 'securityProblem').
      const definitive = this.options.tls
        ? probes.every((p) => p.outcome === 'refused' || p.outcome === 'unresolved')
        : probes.every((p) => isDefinitiveFailure(p.outcome));
      // Through a bastion, its line says whether it, or the member behind it, is what cannot be reached.
      if (definitive) throw new ConnectFailure('unreachable', probes, this.dialer.via ? this.lastSecurityProblem ?? probes.find((p) => p.detail)?.detail : undefined);
      if (Date.now() >= deadline) throw new ConnectFailure('timedOut', probes, this.lastSecurityProblem);
      await sleep(Math.min(500, Math.max(0, deadline - Date.now())), stop);
      if (over()) break;
      if (Date.now() >= deadline) throw new ConnectFailure('timedOut', probes, this.lastSecurityProblem);
    }
    return new Promise<never>(() => undefined);
  }

  /** Asks every server in the connect string why it cannot be used. */
  probeAll(timeoutMs = 2000, signal?: AbortSignal): Promise<ProbeResult[]> {
    return Promise.all(this.parsed.servers.map((s) => probeServer(s.host, s.port, timeoutMs, signal, this.dialer)));
  }

  close(): void {
    if (this.stateValue === 'closed') return;
    clearTimeout(this.lostTimer);
    this.watches.clear();
    this.channel.preventReconnect();
    const wasConnected = this.stateValue === 'connected';
    // Requests still waiting for a connection would never be sent: fail them now rather than by timeout.
    if (!wasConnected) this.channel.failQueued(libraryError(zookeeper.Exception.CONNECTION_LOSS));
    // Before open() there is no socket: the library's close() would try to write its closeSession to none.
    if (this.channel.hasSocket) this.client.close();
    // A closeSession that cannot be sent must not keep a socket (and the process) alive.
    if (!wasConnected) this.channel.destroySocket();
    else setTimeout(() => this.channel.destroySocket(), 1000).unref();
    this.setState('closed');
  }

  // ---- reads ----

  getChildren(path: string): Promise<ops.ChildrenReply> {
    return this.request(ops.getChildren2(this.channel, path), 'getChildren', path);
  }

  exists(path: string): Promise<ZnodeStat | undefined> {
    return this.request(ops.exists(this.channel, path), 'exists', path);
  }

  getData(path: string): Promise<ops.DataReply> {
    return this.request(ops.getData(this.channel, path), 'getData', path);
  }

  /** This session's ephemeral nodes at or under `prefix` (3.6+). */
  getEphemerals(prefix: string): Promise<string[]> {
    return this.request(ops.getEphemerals(this.channel, prefix), 'getEphemerals', prefix);
  }

  getAllChildrenNumber(path: string): Promise<number> {
    return this.request(ops.getAllChildrenNumber(this.channel, path), 'getAllChildrenNumber', path);
  }

  whoAmI(): Promise<ops.ClientIdentity[]> {
    return this.request(ops.whoAmI(this.channel), 'whoAmI');
  }

  sync(path: string): Promise<void> {
    return this.request(ops.sync(this.channel, path), 'sync', path);
  }

  /** Runs any request with this session's timeout and a ZkError naming the operation on failure. */
  request<T>(promise: Promise<T>, operation: string, path?: string): Promise<T> {
    return withTimeout(promise, this.requestTimeoutMs, operation, path).catch((error: unknown) => {
      const zkError = ZkError.from(error, operation, path);
      // Once expired the library answers everything with connectionLoss; say what really happened.
      if (this.stateValue === 'expired' && zkError.code === 'connectionLoss') {
        throw ZkError.fromCode(ErrorCode.sessionExpired, operation, path);
      }
      throw zkError;
    });
  }

  /** Wraps one of node-zookeeper-client's callback APIs (writes go through it) with the same timeout. */
  libraryCall<T>(operation: string, path: string | undefined, call: (callback: (error: unknown, result?: T) => void) => void): Promise<T> {
    return this.request(new Promise<T>((resolve, reject) => {
      call((error, result) => (error ? reject(ZkError.from(error, operation, path)) : resolve(result as T)));
    }), operation, path);
  }

  onNotification(listener: (n: WatchNotification) => void): () => void {
    return this.channel.onNotification(listener);
  }

  private onLibraryState(code: number): void {
    if (this.stateValue === 'closed') return;
    switch (code) {
      case zookeeper.State.SYNC_CONNECTED.code:
      case zookeeper.State.CONNECTED_READ_ONLY.code: {
        const reconnect = this.everConnected;
        this.everConnected = true;
        clearTimeout(this.lostTimer);
        this.setState('connected');
        if (reconnect) this.emit('reconnected');
        break;
      }
      case zookeeper.State.DISCONNECTED.code:
        // The library reports DISCONNECTED after EXPIRED and AUTH_FAILED too, as it closes the socket: final
        // states stay.
        if (!this.everConnected || this.stateValue === 'expired' || this.stateValue === 'authFailed') return;
        this.setState('suspended');
        clearTimeout(this.lostTimer);
        // No contact for a whole session timeout: the session is almost surely gone; say so instead of
        // retrying silently. The library keeps trying; the owner decides whether to go on.
        this.lostTimer = setTimeout(() => { if (this.stateValue === 'suspended') this.setState('lost'); }, this.negotiatedTimeoutMs || this.sessionTimeoutMs);
        break;
      case zookeeper.State.EXPIRED.code:
        clearTimeout(this.lostTimer);
        this.setState('expired');
        this.channel.preventReconnect();
        // Requests queued while disconnected are never sent now; the library would leave them pending forever.
        this.channel.failQueued(libraryError(zookeeper.Exception.SESSION_EXPIRED));
        break;
      case zookeeper.State.AUTH_FAILED.code:
        this.setState('authFailed');
        // The library stops connecting after AUTH_FAILED: what waits to be written never will be.
        this.channel.failQueued(libraryError(zookeeper.Exception.AUTH_FAILED));
        break;
    }
  }

  private setState(state: SessionState): void {
    if (state === this.stateValue) return;
    this.stateValue = state;
    this.emit('state', state);
  }
}

function joinChroots(a: string | undefined, b: string | undefined): string | undefined {
  const parts = [a, b].filter((p): p is string => !!p && p !== '/');
  return parts.length ? parts.join('') : undefined;
}
