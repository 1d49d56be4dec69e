// Reading a member's files over SSH (zooscope log's SSH form, VS Code's server history): `ssh member 'ls' …` and
// `'cat' …`, nothing else, each word single-quoted for the remote shell. Through a bastion, the hop to it is an ssh
// built as a tunnel's (sshCommand: the settings' key file, agent choice and accepted host keys apply to the bastion
// itself, which `-J` would drop) given as the member's ProxyCommand; a bastion taking a password or a passphrase is
// reached by ZooScope's own dialer instead, through a bridge (proxyBridge.ts). The member itself: key or agent
// authentication only (BatchMode: its ssh is never given a secret, so the bastion's password cannot reach it).
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { proxyCommandLine, shellWords } from '../shellWords';
import type { Dialer } from './dialer';
import { openProxyBridge } from './proxyBridge';
import { asOptions, sshCommand, SshSettingsError, trustOptions } from './sshCommand';
import { isSafeSshHost, parseSshDestination, type SshTunnelSettings } from './sshSettings';


/** How to reach a member: its own ssh settings, and the bastion's (the hop before it) when there is one. */
export interface MemberRoute {
  member: SshTunnelSettings;
  via?: SshTunnelSettings;
  /** The bastion's dialer, when the hop to it takes a secret (the member's ssh reaches it through a bridge). */
  dialer?: Dialer;
}

/**
 * How to reach `member` itself: through the bastion (and its jumps), as the bastion's user; or directly when there
 * is no bastion. The member's name comes from a connect string: held to ssh's host words. No secret in either: a
 * bastion's secret stays with its dialer (MemberRoute.dialer).
 */
export function memberSshSettings(bastion: SshTunnelSettings | undefined, name: string): MemberRoute {
  if (!isSafeSshHost(name)) throw new SshSettingsError(`${JSON.stringify(name.slice(0, 120))} is not a host name ssh may be given`);
  const host = name.includes(':') ? `[${name}]` : name;
  if (!bastion) return { member: { destination: host } };
  const user = parseSshDestination(bastion.destination)?.user;
  const member: SshTunnelSettings = { ...bastion, destination: user ? `${user}@${host}` : host, jumps: undefined, secret: undefined, secretKind: undefined };
  return { member, via: { ...bastion, secret: undefined, secretKind: undefined } };
}

/** What every ssh of a remote read sets: no prompt, a known host key only, nothing shared or forwarded. */
function readOptions(settings: SshTunnelSettings): Record<string, string> {
  return {
    BatchMode: 'yes', StrictHostKeyChecking: 'yes', ConnectTimeout: String(settings.connectTimeoutSeconds ?? 10), LogLevel: 'ERROR',
    ControlMaster: 'no', ControlPath: 'none', RequestTTY: 'no', ForwardAgent: 'no', ForwardX11: 'no', PermitLocalCommand: 'no',
    ...trustOptions(settings),
  };
}

/**
 * The ProxyCommand reaching the member through `via`: the bastion's ssh forwarding to the member's address and port
 * as the member's ssh resolved them (`%h`, `%p`). ssh runs it with a shell, after expanding `%` tokens: every word is
 * single-quoted, and a `%` of ours doubled.
 */
export function proxyCommandFor(via: SshTunnelSettings): string {
  const target = 'ZOOSCOPE-MEMBER';
  const command = sshCommand(via, { options: asOptions(readOptions(via)), action: ['-W', target], identity: true });
  return proxyCommandLine([command.program, ...command.args], target, `'[%h]:%p'`);
}

export class RemoteCommandError extends Error {}

export interface RemoteRun {
  stdout: Readable;
  /** Resolves when ssh exits 0; rejects with its last stderr line otherwise. */
  done: Promise<void>;
  kill(): void;
}

/** Runs `words` on the member (through its bastion); its output streamed. */
export function runRemote(route: MemberRoute, words: readonly string[]): RemoteRun {
  const bridge = route.via && route.dialer ? openProxyBridge(route.dialer) : undefined;
  const options = {
    // A log file is preallocated (64 MiB of zeros past its last entry): compressed, the zeros cost nothing to send.
    Compression: 'yes', ...readOptions(route.member),
    ...(route.via ? { ProxyCommand: bridge?.proxyCommand ?? proxyCommandFor(route.via) } : {}),
  };
  let command;
  try {
    command = sshCommand(route.member, { options: asOptions(options), action: ['-T'], identity: true });
  } catch (error) {
    bridge?.close();
    throw error;
  }
  const child = spawn(command.program, [...command.args, shellWords(words)], { env: command.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => { stderr = (stderr + text).slice(-4000); });
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (error) => {
      bridge?.close();
      reject(new RemoteCommandError(`cannot run ssh: ${error.message}`));
    });
    child.once('close', (code) => {
      bridge?.close();
      if (code === 0) resolve();
      // The bastion's own line (wrong password, host key) rather than the member's ssh saying its proxy closed.
      else reject(new RemoteCommandError(bridge?.failure?.message ?? stderr.trim().split('\n').filter(Boolean).at(-1) ?? `ssh exited with ${code}`));
    });
  });
  return { stdout: child.stdout, done, kill: () => { child.kill(); bridge?.close(); } };
}
