// The one place that opens "a connection to host:port" for a session: the ZooKeeper connection itself, the
// probes, the four-letter words and the AdminServer. Direct by default; through the bastion when the session has
// an SSH tunnel. TLS, when used, goes on top of what this returns (so it verifies the member, not the bastion).
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { allowSecret, askpassEnv } from './askpass';
import { SshCommand, SshSettingsError, sshTunnelCommand } from './sshCommand';
import { SshTunnelError, TunnelFailure } from './sshFailure';
import { SecretTrial } from './secretTrial';
import { bastionName, secretKindOf, sshSettingsProblem, SshTunnelSettings } from './sshSettings';
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
  private readonly trial = new SecretTrial();

  /** Throws SshTunnelError when the settings cannot go to ssh (a caller that skipped the check learns it here). */
  constructor(readonly settings: SshTunnelSettings) {
    const problem = sshSettingsProblem(settings);
    if (problem !== undefined) throw new SshTunnelError({ kind: 'settings', line: problem });
  }

  get via(): string {
    return bastionName(this.settings);
  }

  dial(host: string, port: number): SshTunnelSocket {
    const { secret } = this.settings;
    let command: SshCommand;
    try {
      command = sshTunnelCommand(this.settings, host, port, secret !== undefined ? askpassEnv() : undefined);
    } catch (error) {
      if (!(error instanceof SshSettingsError)) throw error;
      // A member no ssh may be given (a hostile /zookeeper/config's), or no ssh at all: the socket fails with the line.
      return this.refusedSocket(host, port, { kind: error.notInstalled ? 'notInstalled' : 'settings', line: error.message });
    }
    const socket = secret === undefined
      ? new SshTunnelSocket(command, this.via, host, port)
      : this.tunnelTryingSecret(command, host, port, secret);
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    return socket;
  }

  /** A tunnel whose ssh may have the secret: it starts in its turn of the trial, and tells the trial what became of it. */
  private tunnelTryingSecret(command: SshCommand, host: string, port: number, secret: string): SshTunnelSocket {
    const turn = this.trial.turn();
    const socket = new SshTunnelSocket(command, this.via, host, port, {
      after: turn.then((t) => t.refused),
      // ssh cannot ask before this: its question arrives in a later turn of the loop.
      onSpawn: (pid) => socket.once('close', allowSecret(pid, { secret, kind: secretKindOf(this.settings), keyFile: this.settings.identityFile })),
    });
    void turn.then((t) => {
      if (t.refused) return;
      // Ended while it waited (a probe's time ran out): it never starts, and the next tunnel takes the turn.
      if (socket.destroyed) return t.report('unknown');
      socket.once('connect', () => t.report('accepted'));
      socket.once('error', (error: Error) => {
        if (error instanceof SshTunnelError && error.failure.kind === 'authFailed') t.report(error.failure);
      });
      socket.once('close', () => t.report('unknown'));
    });
    return socket;
  }

  /** A tunnel that never starts ssh and ends with `failure`, as a socket that could not connect does. */
  private refusedSocket(host: string, port: number, failure: TunnelFailure): SshTunnelSocket {
    const never: SshCommand = { program: '', args: [], env: {} };
    return new SshTunnelSocket(never, this.via, host, port, { after: Promise.resolve(failure) });
  }

  /** The tunnels open now (tests end one to see the session recover). */
  get openTunnels(): SshTunnelSocket[] {
    return [...this.open];
  }
}

export function dialerFor(ssh: SshTunnelSettings | undefined): Dialer {
  return ssh ? new SshDialer(ssh) : directDialer;
}
