// Reading a member's files over SSH (zooscope log's SSH form): `ssh [-J …bastion] member 'ls' …` and `'cat' …`,
// nothing else, each word single-quoted for the remote shell. Built on sshCommand, so the settings are checked as
// for a tunnel; unlike a tunnel it runs a command, and only key or agent authentication (BatchMode: no secret is
// answered, so one hop's password cannot reach another host).
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { asOptions, sshCommand, SshSettingsError, trustOptions } from './sshCommand';
import { isSafeSshHost, parseSshDestination, type SshTunnelSettings } from './sshSettings';

/** The words as one command line for a POSIX shell: each in single quotes, a quote inside as '\''. */
export function shellWords(words: readonly string[]): string {
  return words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
}

/**
 * How to reach `member` itself: through the bastion (and its jumps) as the last jump, as the bastion's user; or
 * directly when there is no bastion. The member's name comes from a connect string: held to ssh's host words.
 */
export function memberSshSettings(bastion: SshTunnelSettings | undefined, member: string): SshTunnelSettings {
  if (!isSafeSshHost(member)) throw new SshSettingsError(`${JSON.stringify(member.slice(0, 120))} is not a host name ssh may be given`);
  const host = member.includes(':') ? `[${member}]` : member;
  if (!bastion) return { destination: host };
  const user = parseSshDestination(bastion.destination)?.user;
  return {
    ...bastion, secret: undefined, destination: user ? `${user}@${host}` : host,
    jumps: [...(bastion.jumps ?? []), bastion.destination],
  };
}

export class RemoteCommandError extends Error {}

export interface RemoteRun {
  stdout: Readable;
  /** Resolves when ssh exits 0; rejects with its last stderr line otherwise. */
  done: Promise<void>;
  kill(): void;
}

/** Runs `words` on the settings' host; its output streamed. */
export function runRemote(settings: SshTunnelSettings, words: readonly string[]): RemoteRun {
  const options = {
    // A log file is preallocated (64 MiB of zeros past its last entry): compressed, the zeros cost nothing to send.
    Compression: 'yes', BatchMode: 'yes', StrictHostKeyChecking: 'yes', ConnectTimeout: String(settings.connectTimeoutSeconds ?? 10), LogLevel: 'ERROR',
    ControlMaster: 'no', ControlPath: 'none', RequestTTY: 'no', ForwardAgent: 'no', ForwardX11: 'no', PermitLocalCommand: 'no',
    ...trustOptions(settings),
  };
  const command = sshCommand(settings, { options: asOptions(options), action: ['-T'], identity: true });
  const child = spawn(command.program, [...command.args, shellWords(words)], { env: command.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => { stderr = (stderr + text).slice(-4000); });
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(new RemoteCommandError(`cannot run ssh: ${error.message}`)));
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new RemoteCommandError(stderr.trim().split('\n').filter(Boolean).at(-1) ?? `ssh exited with ${code}`));
    });
  });
  return { stdout: child.stdout, done, kill: () => child.kill() };
}
