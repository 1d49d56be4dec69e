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
  /**
   * A jump host on the way has a key no known_hosts vouches for. It is not offered for trust here: the jump's own ssh
   * reads only the user's known_hosts, and the key shown would be the bastion's, not the jump's.
   */
  | { kind: 'unknownJump'; line: string; jump: string }
  | { kind: 'changed'; line: string; fingerprint?: string };

/** Options before the tunnel's own: ssh keeps the first value of each, so these win. */
const NO_AUTHENTICATION = [
  'BatchMode=yes', 'PubkeyAuthentication=no', 'PasswordAuthentication=no', 'KbdInteractiveAuthentication=no',
  'GSSAPIAuthentication=no', 'HostbasedAuthentication=no', 'IdentityAgent=none', 'NumberOfPasswordPrompts=0',
].flatMap((option) => ['-o', option]);

export async function checkBastionHostKey(settings: SshTunnelSettings): Promise<HostKeyVerdict> {
  // The forward target is never reached: authentication fails first, by design.
  const command = sshTunnelCommand({ ...settings, secret: undefined }, '127.0.0.1', 1);
  return new Promise((resolve) => {
    execFile(command.program, [...NO_AUTHENTICATION, ...command.args], { env: command.env, timeout: 30000 }, (_error, _stdout, stderr) => {
      const lines = String(stderr).split(/\r?\n/).filter((l) => l.trim() !== '');
      const failure = classifySshFailure(lines, bastionName(settings), '127.0.0.1:1', { code: null, signal: null, wasUp: false });
      if (failure.kind === 'hostKeyUnknown') {
        void bastionKeyHost(settings).then((own) => {
          const jump = failure.keyHost !== undefined && own !== undefined && failure.keyHost !== own ? failure.keyHost : undefined;
          resolve(jump === undefined ? { kind: 'unknown', line: failure.line } : { kind: 'unknownJump', line: failure.line, jump });
        });
      } else if (failure.kind === 'hostKeyChanged') resolve({ kind: 'changed', line: failure.line, fingerprint: failure.fingerprint });
      else resolve({ kind: 'known' });
    });
  });
}

/**
 * The name the bastion's key has in known_hosts, as ssh itself resolves the destination (`ssh -G`: its config's
 * HostName, Port and HostKeyAlias apply): `host`, or `[host]:port` off port 22. Undefined when ssh cannot tell.
 */
export async function bastionKeyHost(settings: SshTunnelSettings): Promise<string | undefined> {
  const command = sshTunnelCommand({ ...settings, secret: undefined }, '127.0.0.1', 1);
  return new Promise((resolve) => {
    execFile(command.program, ['-G', ...command.args], { env: command.env, timeout: 10000 }, (error, stdout) => {
      if (error) return resolve(undefined);
      const value = (key: string) => new RegExp(`^${key} (\\S+)$`, 'm').exec(String(stdout))?.[1];
      const host = value('hostkeyalias') ?? value('hostname');
      const port = value('port') ?? '22';
      resolve(host === undefined ? undefined : port === '22' ? host : `[${host}]:${port}`);
    });
  });
}
