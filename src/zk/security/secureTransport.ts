// Opens node-zookeeper-client's sockets with TLS. The library creates its socket in one place
// (ConnectionManager.connect, with a module-private `net`), so this replaces that method with the same steps
// around tls.connect. The library's own connect timer then covers TCP and the handshake, because its "connected"
// step runs on 'secureConnect' (a TLSSocket's 'connect' fires before the handshake). Every reconnect and failover
// goes through here, so each gets a new, fully verified handshake.
import { isIP } from 'node:net';
import * as tls from 'node:tls';
import { pinMismatch } from './certificatePin';
import { classifyTlsError, handshakeTimeoutLine, TlsFailure, tlsToPlainPortLine } from './tlsFailure';
import type { PreparedTls } from './tlsSettings';
import { isPlainZooKeeper } from '../probes/portProbes';
import { CONNECTING, TransportManager } from '../transportManager';
import type { Dialer } from '../tunnel/dialer';
import type { TunnelFailure } from '../tunnel/sshFailure';
import { watchTunnelFailure } from '../tunnel/tunnelTransport';

/** The TLS facts of the connection in use, for status lines. */
export interface TlsConnectionInfo {
  server: string;
  protocol: string;
  cipher: string;
  serverNameChecked: boolean;
  /**
   * The server certificate's subject, e.g. `CN=zk1.example.com`, as RFC 4514 writes it (formatSubject). Written by
   * whoever made the certificate: untrusted text, with any Unicode in it (surfaces make hidden characters visible).
   */
  peerSubject?: string;
}

export interface TransportEvents {
  /** A handshake on `server` failed; said in one line. */
  onFailure(server: string, failure: TlsFailure): void;
  onSecured(info: TlsConnectionInfo): void;
  /** The SSH tunnel under the TLS connection failed or closed (only with a dialer that tunnels). */
  onTunnelFailure?(server: string, failure: TunnelFailure): void;
}

/** `dialer`: what opens the connection TLS goes over, when not a direct one (an SSH tunnel). */
export function installTlsTransport(manager: TransportManager, prepared: PreparedTls, events: TransportEvents, dialer?: Dialer): void {
  manager.connect = function connectWithTls(this: void) {
    manager.setState(CONNECTING);
    manager.findNextServer((server) => openTlsSocket(manager, prepared, events, server.host, Number(server.port), dialer));
  };
}

/**
 * A TLS connection to `host:port`, over what `dialer` opens when it tunnels: the certificate and name checks are
 * the member's (`host`), whatever carries the bytes.
 */
export function connectTls(prepared: PreparedTls, host: string, port: number, dialer?: Dialer): tls.TLSSocket {
  const options = tlsSocketOptions(prepared, host, port);
  return tls.connect(dialer?.via ? { ...options, socket: dialer.dial(host, port) } : options);
}

/**
 * The options of every TLS connection to `host:port` made for a session: the ZooKeeper connection itself, and the
 * four-letter words and AdminServer commands asked beside it, so each is verified the same way.
 */
export function tlsSocketOptions(prepared: PreparedTls, host: string, port: number): tls.ConnectionOptions {
  return {
    ...prepared.connectOptions,
    host,
    port,
    // SNI is for host names only (RFC 6066); ZooKeeper ignores it, but a proxy in front may route by it.
    servername: isIP(host) ? undefined : host,
    // Called once the chain verifies; a pin holds whatever the name check says.
    checkServerIdentity: (hostname, cert) => pinMismatch(prepared.pinnedSha256, cert)
      ?? (prepared.checkServerName ? tls.checkServerIdentity(hostname, cert) : undefined),
  };
}

/**
 * A certificate subject as Node gives it (`{ CN: 'x', OU: ['a', 'b'] }`) in RFC 4514 form: each value escaped, so a
 * value cannot pass for another attribute (`OU=evil\,O=Trusted Corp`, not `OU=evil,O=Trusted Corp`) and controls
 * (line breaks, escapes) are written as `\XX`. Repeated attributes are listed one by one.
 */
export function formatSubject(subject: Record<string, string | string[]>): string {
  return Object.entries(subject)
    .flatMap(([key, values]) => (Array.isArray(values) ? values : [values]).map((value) => `${key}=${escapeDnValue(String(value))}`))
    .join(',');
}

function escapeDnValue(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f"+,;<>\\]/g, (c) => (c.charCodeAt(0) < 0x20 || c === '\u007f'
      ? `\\${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : `\\${c}`))
    .replace(/^[ #]/, (c) => `\\${c}`)
    .replace(/ $/, '\\ ');
}

/**
 * The TLS handshake's limit on one connection: the one configured, but at most a third of the connect timeout (as
 * the session's handshake answer timeout), at least a second.
 */
export function handshakeLimitMs(configuredMs: number, connectTimeoutMs: number): number {
  return Math.min(configuredMs, Math.max(1000, Math.floor(connectTimeoutMs / 3)));
}

function openTlsSocket(manager: TransportManager, prepared: PreparedTls, events: TransportEvents, host: string, port: number, dialer?: Dialer): void {
  const server = `${host}:${port}`;
  const tunnel = dialer?.via ? dialer.dial(host, port) : undefined;
  let tunnelFailed = false;
  if (tunnel) {
    watchTunnelFailure(tunnel, server, { onTunnelFailure: (s, failure) => { tunnelFailed = true; events.onTunnelFailure?.(s, failure); } });
  }
  const options = tlsSocketOptions(prepared, host, port);
  const socket = tls.connect(tunnel ? { ...options, socket: tunnel } : options);
  // Over a tunnel Node knows no peer address; status lines name the member the tunnel reaches.
  if (tunnel) Object.defineProperties(socket, { remoteAddress: { value: host }, remotePort: { value: port } });
  // A tunnel that ends must end the TLS connection on it too, whatever the TLS layer makes of it.
  tunnel?.on('close', () => socket.destroy());
  manager.socket = socket;
  const connectTimer = setTimeout(() => manager.onSocketConnectTimeout(), manager.connectTimeout);
  manager.connectTimeoutHandler = connectTimer;
  socket.setNoDelay();
  let secured = false;
  // Within the library's connect timeout (this server's share of the session timeout), with time to try again: a
  // longer limit would never fire, the connect timer would close the socket first without a word.
  const handshakeMs = handshakeLimitMs(prepared.handshakeTimeoutMs, manager.connectTimeout);
  const handshakeTimer = setTimeout(() => {
    if (secured) return;
    events.onFailure(server, handshakeTimeoutLine(server, handshakeMs));
    socket.destroy();
  }, handshakeMs);
  handshakeTimer.unref();
  socket.on('secureConnect', () => {
    secured = true;
    clearTimeout(handshakeTimer);
    const cipher = socket.getCipher();
    const subject = socket.getPeerCertificate()?.subject as Record<string, string | string[]> | undefined;
    events.onSecured({
      server, protocol: socket.getProtocol() ?? 'unknown', cipher: cipher?.name ?? 'unknown',
      serverNameChecked: prepared.checkServerName,
      peerSubject: subject ? formatSubject(subject) : undefined,
    });
    manager.onSocketConnected();
  });
  socket.on('data', (chunk: Buffer) => manager.onSocketData(chunk));
  socket.on('drain', () => manager.onSocketDrain());
  socket.on('close', (hadError: boolean) => {
    clearTimeout(handshakeTimer);
    // The library clears its connect timer only on connect or error: one left behind by a socket closed during the
    // handshake keeps the process alive after close(), and later destroys whichever socket is current by then.
    clearTimeout(connectTimer);
    manager.onSocketClosed(hadError);
  });
  socket.on('error', (error: Error & { code?: string }) => {
    manager.onSocketError(error);
    if (tunnelFailed) return;
    const failure = classifyTlsError(error, server, { hasClientCertificate: prepared.hasClientCertificate, secured });
    if (!failure) return;
    if (failure.kind !== 'handshakeFailed' || secured) return events.onFailure(server, failure);
    // Closed during the handshake: a plain ZooKeeper port does exactly that; ask it in clear text to be sure.
    void isPlainZooKeeper(host, port, undefined, dialer).then((plain) => events.onFailure(server, plain ? tlsToPlainPortLine(server) : failure));
  });
}
