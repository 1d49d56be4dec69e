// The system account a password bastion checks passwords against (sshd can only check a real account's): made once
// (a system user with no home and no shell; `ssh -W` needs neither), given a new random password every run. Needs
// root, or sudo without a password; otherwise the test fails saying so. The password goes to chpasswd on stdin.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** The node tiers' account; the in-host tier, which runs beside them, has its own so neither resets the other's password. */
export const PASSWORD_USER = 'zooscope-ssh-test';
export const HOST_PASSWORD_USER = 'zooscope-ssh-host';

/** `program args` as root: itself when this process is root, else through `sudo -n` (never prompts). */
export function asRoot(program: string, args: string[]): [string, string[]] {
  if (process.getuid?.() === 0) return [program, args];
  try {
    execFileSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  } catch {
    throw new Error(`the SSH password tests need root or sudo without a password (sudo -n) to set a test account's password and run sshd as root`);
  }
  return ['sudo', ['-n', program, ...args]];
}

function run(program: string, args: string[], input?: string): string {
  const [command, argv] = asRoot(program, args);
  return execFileSync(command, argv, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

function exists(user: string): boolean {
  try {
    execFileSync('getent', ['passwd', user], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Makes sure `user` exists and sets a new random password for it; returns the password. */
export function resetPasswordUser(user = PASSWORD_USER): string {
  if (!exists(user)) run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', user]);
  const password = randomBytes(18).toString('base64url');
  run('chpasswd', [], `${user}:${password}\n`);
  return password;
}
