// The one place that opens "a connection to host:port" for a session: the ZooKeeper connection itself, the
// probes, the four-letter words and the AdminServer. Direct by default; through the bastion when the session has
// an SSH tunnel. TLS, when used, goes on top of what this returns (so it verifies the member, not the bastion).
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { allowSecret, askpassEnv } from './askpass';
import { sshTunnelCommand } from './sshCommand';
import { bastionName, SshTunnelSettings } from './sshSettings';
import { SshTunnelSocket } from './tunnelSocket';

/** A connection that emits 'connect' once bytes can flow, then 'data', 'end', 'error', 'close' as a socket does. */
export type DialedSocket = Duplex & { setNoDelay(noDelay?: boolean): unknown; setTimeout(ms: number, callback?: () => void): unknown };

export interface Dialer {
  dial(host: string, port: number): DialedSocket;
  /** The bastion's name, for lines saying a failure is its doing; undefined when direct. */
  readonly via?: string;
}

export const directDialer: Dialer = {
  dial: (host, port) => net.connect({ host, port }),
};

export class SshDialer implements Dialer {
  private readonly open = new Set<SshTunnelSocket>();

  constructor(readonly settings: SshTunnelSettings) {}

  get via(): string {
    return bastionName(this.settings);
  }

  dial(host: string, port: number): SshTunnelSocket {
    const { secret } = this.settings;
    const socket = new SshTunnelSocket(sshTunnelCommand(this.settings, host, port, secret !== undefined ? askpassEnv() : undefined), this.via, host, port);
    // ssh is running already, but cannot ask before this line: its question arrives in a later turn of the loop.
    if (secret !== undefined && socket.pid !== undefined) socket.once('close', allowSecret(socket.pid, secret));
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    return socket;
  }

  /** The tunnels open now (tests end one to see the session recover). */
  get openTunnels(): SshTunnelSocket[] {
    return [...this.open];
  }
}

export function dialerFor(ssh: SshTunnelSettings | undefined): Dialer {
  return ssh ? new SshDialer(ssh) : directDialer;
}
