// A bastion for the SSH tunnel tests: Debian's sshd (scripts/zk/ensure-ssh.sh installs it) run by the test as the
// current user on loopback, with a host key, client keys and authorized_keys made by ssh-keygen in a folder of the
// test's own. Nothing of the user's ~/.ssh is read: tunnels get an empty ssh config and the test's known_hosts.
// A password bastion (`passwordUser`) runs sshd as root, which alone can check a password (sshPasswordUser.ts).
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SshTunnelSettings } from '../../../src/zk/tunnel/sshSettings';
import { freePort } from '../ports';
import { asRoot } from './sshPasswordUser';
import { endsWithTestProcess, exitOf } from '../processes';
import { within } from '../waiting';

const SSHD = '/usr/sbin/sshd';

/** The passphrase of the client key that has one (the test's own, never a real secret). */
export const KEY_PASSPHRASE = 'zooscope test passphrase';

function keygen(file: string, passphrase = ''): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', path.basename(file), '-f', file]);
}

/** A key's SHA256 fingerprint as ssh prints it. */
export function fingerprintOf(publicKeyFile: string): string {
  const match = /^\d+ (SHA256:\S+)/.exec(execFileSync('ssh-keygen', ['-l', '-f', publicKeyFile], { encoding: 'utf8' }));
  if (!match) throw new Error(`no fingerprint for ${publicKeyFile}`);
  return match[1];
}

export interface BastionOptions {
  /** Accept only this system user, by password (and the test's keys): sshd then runs as root to read /etc/shadow. */
  passwordUser?: string;
}

export class SshBastion {
  private stderr = '';
  private written = 0;

  constructor(
    readonly dir: string,
    readonly port: number,
    private proc: ChildProcess,
    private readonly options: BastionOptions = {},
  ) {
    this.hear(proc);
  }

  private hear(proc: ChildProcess): void {
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (text: string) => {
      this.written += text.length;
      this.stderr = (this.stderr + text).slice(-20000);
    });
  }

  get destination(): string { return `${this.options.passwordUser ?? os.userInfo().username}@127.0.0.1:${this.port}`; }
  get hostPublicKey(): string { return path.join(this.dir, 'host_ed25519.pub'); }
  /** A known_hosts file naming this bastion's host key. */
  get knownHosts(): string { return path.join(this.dir, 'known_hosts'); }
  /** A key the bastion accepts, without passphrase. */
  get clientKey(): string { return path.join(this.dir, 'client'); }
  /** A key the bastion accepts, with KEY_PASSPHRASE. */
  get protectedKey(): string { return path.join(this.dir, 'client_protected'); }
  /** A key the bastion does not know. */
  get strangerKey(): string { return path.join(this.dir, 'stranger'); }
  get log(): string { return this.stderr; }
  /** Where the log is now, for logSince (the log keeps only its end, so offsets into it shift). */
  get logMark(): number { return this.written; }
  /** What sshd logged after `mark` (as much of it as the log still holds). */
  logSince(mark: number): string { return this.written === mark ? '' : this.stderr.slice(-(this.written - mark)); }
  /** The listening sshd (SIGSTOP it to make new connections hang while the open ones go on). */
  get pid(): number { return this.proc.pid!; }

  /** Tunnel settings for this bastion: no agent, the test's known_hosts, an empty ssh config. */
  settings(extra: Partial<SshTunnelSettings> = {}): SshTunnelSettings {
    return {
      destination: this.destination, identityFile: this.clientKey, agentSocket: 'none',
      configFile: path.join(this.dir, 'ssh_config'), knownHostsFiles: [this.knownHosts], ...extra,
    };
  }

  /** Ends every connection the bastion has (its per-connection processes), as a bastion restarting or failing would. */
  dropConnections(): number {
    const pid = this.proc.pid!;
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    // A connection may end on its own between the listing and the signal (a probe's, run R5): it is not counted.
    let ended = 0;
    for (const child of children) {
      try {
        process.kill(child, 'SIGTERM');
        ended++;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    }
    return ended;
  }

  /** Replaces the host key (a reinstalled bastion, or someone in the middle) and restarts sshd on the same port. */
  async changeHostKey(): Promise<void> {
    await this.stopProcess();
    for (const f of ['host_ed25519', 'host_ed25519.pub']) fs.rmSync(path.join(this.dir, f));
    keygen(path.join(this.dir, 'host_ed25519'));
    this.proc = await launch(this.dir, this.port, this.options);
    this.hear(this.proc);
  }

  private async stopProcess(): Promise<void> {
    this.proc.kill('SIGTERM');
    await exitOf(this.proc);
  }

  async stop(): Promise<void> {
    await this.stopProcess();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

async function launch(dir: string, port: number, options: BastionOptions): Promise<ChildProcess> {
  const args = ['-D', '-e', '-f', path.join(dir, 'sshd_config'), '-p', String(port)];
  const [program, argv] = options.passwordUser ? asRoot(SSHD, args) : [SSHD, args];
  const proc = spawn(program, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  endsWithTestProcess(proc);
  let text = '';
  proc.stderr?.setEncoding('utf8');
  await within(new Promise<void>((resolve, reject) => {
    const onData = (chunk: string) => {
      text += chunk;
      if (/Server listening on 127\.0\.0\.1 port/.test(text)) { proc.stderr?.off('data', onData); resolve(); }
    };
    proc.stderr?.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`sshd exited with ${code}: ${text}`)));
  }), 20000, 'sshd listening', () => text);
  return proc;
}

/** Starts a bastion on a free loopback port. */
export async function startSshBastion(options: BastionOptions = {}): Promise<SshBastion> {
  if (!fs.existsSync(SSHD)) throw new Error(`${SSHD} not found: run scripts/zk/ensure-ssh.sh`);
  // sshd run by root needs its privilege separation folder (the package makes it only when its service starts).
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  else if (options.passwordUser) execFileSync(...asRoot('mkdir', ['-p', '/run/sshd']));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-sshd-'));
  keygen(path.join(dir, 'host_ed25519'));
  keygen(path.join(dir, 'client'));
  keygen(path.join(dir, 'client_protected'), KEY_PASSPHRASE);
  keygen(path.join(dir, 'stranger'));
  fs.writeFileSync(path.join(dir, 'authorized_keys'),
    ['client.pub', 'client_protected.pub'].map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join(''));
  fs.writeFileSync(path.join(dir, 'ssh_config'), '');
  fs.writeFileSync(path.join(dir, 'sshd_config'), [
    'ListenAddress 127.0.0.1',
    `HostKey ${path.join(dir, 'host_ed25519')}`,
    `PidFile ${path.join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
    // Without PAM, sshd checks a password against /etc/shadow itself (and keyboard-interactive has nothing to ask).
    'UsePAM no', 'StrictModes no', `PasswordAuthentication ${options.passwordUser ? 'yes' : 'no'}`, 'KbdInteractiveAuthentication no',
    ...(options.passwordUser ? [`AllowUsers ${options.passwordUser}`, 'PermitRootLogin no', 'PermitEmptyPasswords no'] : ['PermitRootLogin prohibit-password']),
    'AllowTcpForwarding yes', 'MaxStartups 100', 'LogLevel VERBOSE',
  ].join('\n') + '\n');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    try {
      const proc = await launch(dir, port, options);
      fs.writeFileSync(path.join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${fs.readFileSync(path.join(dir, 'host_ed25519.pub'), 'utf8')}`);
      return new SshBastion(dir, port, proc, options);
    } catch (error) {
      // The free port was taken before sshd bound it: try another.
      if (attempt >= 2) throw error;
    }
  }
}

/** An ssh-agent of the test's own holding `keys` (without passphrase); its socket, and a stop. */
export async function startAgent(dir: string, keys: string[]): Promise<{ socket: string; stop(): Promise<void> }> {
  const socket = path.join(dir, `agent-${process.pid}.sock`);
  const proc = spawn('ssh-agent', ['-D', '-a', socket], { stdio: ['ignore', 'pipe', 'pipe'] });
  endsWithTestProcess(proc);
  let text = '';
  proc.stdout?.setEncoding('utf8');
  await within(new Promise<void>((resolve, reject) => {
    proc.stdout?.on('data', (chunk: string) => { text += chunk; if (/SSH_AUTH_SOCK/.test(text)) resolve(); });
    proc.once('exit', (code) => reject(new Error(`ssh-agent exited with ${code}`)));
  }), 10000, 'ssh-agent ready', () => text);
  for (const key of keys) execFileSync('ssh-add', ['-q', key], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
  return { socket, stop: async () => { proc.kill('SIGTERM'); await exitOf(proc); } };
}
