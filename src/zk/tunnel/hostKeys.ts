// Accepting a bastion's unknown host key by the user's choice: fetch the key the bastion presents (nothing else is
// sent: every authentication method is off), show its fingerprint, and only when the user accepts that
// fingerprint add the key to ZooScope's own known_hosts file, which tunnels check beside the user's. A changed key
// never gets here: ssh refuses it (StrictHostKeyChecking) and says its fingerprint.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { sshCommand, sshProgram } from './sshCommand';
import type { SshTunnelSettings } from './sshSettings';

const run = promisify(execFile);

export interface PresentedHostKey {
  /** e.g. `SHA256:…` as ssh-keygen -l prints it. */
  fingerprint: string;
  /** e.g. `ED25519`. */
  keyType: string;
  /** The known_hosts line(s) ssh wrote for it. */
  entries: string;
}

/** The host key the bastion of `settings` presents now, or a one-line error saying why it cannot be read. */
export async function fetchHostKey(settings: SshTunnelSettings): Promise<PresentedHostKey> {
  // Built (and the settings checked) before anything is made or run.
  const options = (file: string) => [
    '-o', 'StrictHostKeyChecking=accept-new', '-o', `UserKnownHostsFile=${file}`, '-o', 'GlobalKnownHostsFile=/dev/null',
    '-o', 'HashKnownHosts=no', '-o', 'BatchMode=yes', '-o', 'ControlMaster=no', '-o', 'ControlPath=none',
    '-o', 'PubkeyAuthentication=no', '-o', 'PasswordAuthentication=no', '-o', 'KbdInteractiveAuthentication=no',
    '-o', 'GSSAPIAuthentication=no', '-o', 'HostbasedAuthentication=no', '-o', 'IdentityAgent=none',
    '-o', `ConnectTimeout=${settings.connectTimeoutSeconds ?? 10}`,
  ];
  const keygen = sshProgram(settings, 'ssh-keygen');
  sshCommand(settings, { options: [], action: [], identity: false });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-hostkey-'));
  const file = path.join(dir, 'known_hosts');
  try {
    const command = sshCommand(settings, { options: options(file), action: ['-N'], identity: false });
    // Fails by design (no way to authenticate); the key is written once the bastion presented it.
    const failed = await run(command.program, command.args, { env: command.env, timeout: 30000 }).then(() => undefined, (error: { stderr?: string }) => error.stderr ?? '');
    const entries = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
    if (!entries) throw new Error(`SSH bastion ${settings.destination}: could not read its host key (${(failed ?? '').trim().split('\n').pop() || 'no answer'})`);
    const { stdout } = await run(keygen, ['-l', '-f', file], { env: command.env });
    const match = /^\d+ (SHA256:\S+) .*\((\S+)\)\s*$/m.exec(stdout);
    if (!match) throw new Error(`SSH bastion ${settings.destination}: could not read its host key's fingerprint`);
    return { fingerprint: match[1], keyType: match[2], entries };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Adds `key` to ZooScope's known_hosts file `file` — only if the bastion still presents the fingerprint the user
 * accepted (`acceptedFingerprint`), so a key swapped between showing and accepting is not trusted.
 */
export async function trustHostKey(settings: SshTunnelSettings, file: string, acceptedFingerprint: string): Promise<void> {
  const key = await fetchHostKey(settings);
  if (key.fingerprint !== acceptedFingerprint) {
    throw new Error(`SSH bastion ${settings.destination} now presents ${key.fingerprint}, not the accepted ${acceptedFingerprint}; nothing was trusted`);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${key.entries}\n`, { mode: 0o600 });
}
