// Before a session's first tunnel: does the bastion present a host key the known_hosts files (the user's and
// ZooScope's) vouch for? One ssh handshake with every authentication method off, checked exactly as a tunnel checks
// it, so the user can be shown an unknown key's fingerprint and a changed key's refusal before anything is sent.
import { execFile } from 'node:child_process';
import { sshTunnelCommand } from './sshCommand';
import { classifySshFailure } from './sshFailure';
import { bastionName, SshTunnelSettings } from './sshSettings';

export type HostKeyVerdict =
  /** Verified (or the check could not tell: the session then says what is wrong itself). */
  | { kind: 'known' }
  | { kind: 'unknown'; line: string }
  | { kind: 'changed'; line: string; fingerprint?: string };

/** Options before the tunnel's own: ssh keeps the first value of each, so these win. */
const NO_AUTHENTICATION = [
  'BatchMode=yes', 'PubkeyAuthentication=no', 'PasswordAuthentication=no', 'KbdInteractiveAuthentication=no',
  'GSSAPIAuthentication=no', 'HostbasedAuthentication=no', 'IdentityAgent=none', 'NumberOfPasswordPrompts=0',
].flatMap((option) => ['-o', option]);

export function checkBastionHostKey(settings: SshTunnelSettings): Promise<HostKeyVerdict> {
  // The forward target is never reached: authentication fails first, by design.
  const command = sshTunnelCommand({ ...settings, secret: undefined }, '127.0.0.1', 1);
  return new Promise((resolve) => {
    execFile(command.program, [...NO_AUTHENTICATION, ...command.args], { env: { ...process.env, ...command.env }, timeout: 30000 }, (_error, _stdout, stderr) => {
      const lines = String(stderr).split(/\r?\n/).filter((l) => l.trim() !== '');
      const failure = classifySshFailure(lines, bastionName(settings), '127.0.0.1:1', { code: null, signal: null, wasUp: false });
      if (failure.kind === 'hostKeyUnknown') resolve({ kind: 'unknown', line: failure.line });
      else if (failure.kind === 'hostKeyChanged') resolve({ kind: 'changed', line: failure.line, fingerprint: failure.fingerprint });
      else resolve({ kind: 'known' });
    });
  });
}
