// Opens node-zookeeper-client's plain sockets through a Dialer (the SSH bastion), as secureTransport does for TLS:
// the library's connect() is replaced with the same steps around dial(). Every reconnect and failover makes a new
// tunnel, so a tunnel that drops is a connection loss like any other.
import { CONNECTING, TransportManager } from '../transportManager';
import type { Dialer } from './dialer';
import { SshTunnelError, TunnelFailure } from './sshFailure';
import { SshTunnelSocket } from './tunnelSocket';

export interface TunnelEvents {
  /** A tunnel to `server` failed or closed; said in one line naming the bastion. */
  onTunnelFailure(server: string, failure: TunnelFailure): void;
}

export function installTunnelTransport(manager: TransportManager, dialer: Dialer, events: TunnelEvents): void {
  manager.connect = function connectThroughTunnel(this: void) {
    manager.setState(CONNECTING);
    manager.findNextServer((server) => openTunnelSocket(manager, dialer, events, server.host, Number(server.port)));
  };
}

/** Reports a tunnel's own failure (not the member's) once, when it has one. */
export function watchTunnelFailure(socket: NodeJS.EventEmitter, server: string, events: TunnelEvents): void {
  socket.on('error', (error: Error) => {
    if (error instanceof SshTunnelError) events.onTunnelFailure(server, error.failure);
  });
}

function openTunnelSocket(manager: TransportManager, dialer: Dialer, events: TunnelEvents, host: string, port: number): void {
  const socket = dialer.dial(host, port);
  // Plain ZooKeeper (TLS goes through secureTransport): its frames let the tunnel send a byte ahead for the ACK.
  if (socket instanceof SshTunnelSocket) socket.carryZooKeeperFrames();
  manager.socket = socket;
  const connectTimer = setTimeout(() => manager.onSocketConnectTimeout(), manager.connectTimeout);
  manager.connectTimeoutHandler = connectTimer;
  socket.on('connect', () => manager.onSocketConnected());
  socket.on('data', (chunk: Buffer) => manager.onSocketData(chunk));
  socket.on('drain', () => manager.onSocketDrain());
  socket.on('close', () => {
    // As the TLS transport: a timer left by a tunnel that closed before connecting would outlive close().
    clearTimeout(connectTimer);
    manager.onSocketClosed(socket.errored !== null);
  });
  socket.on('error', (error: Error) => manager.onSocketError(error));
  watchTunnelFailure(socket, `${host}:${port}`, events);
}
