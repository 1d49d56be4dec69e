// The CLI's SSH bastion flags: `--ssh <[user@]host[:port]>` (an alias of ~/.ssh/config too), `--ssh-jump`,
// `--ssh-identity`, `--ssh-config`. The key's passphrase or the bastion's password only from the environment, as
// every secret of the CLI.
import type { SshTunnelSettings } from '../zk/tunnel/sshSettings';
import { parseSshDestination } from '../zk/tunnel/sshSettings';
import { SECRET_VARIABLES } from '../zk/secretVariables';
import { UsageError } from './args';

export const SSH_SECRET_ENV = SECRET_VARIABLES.sshSecret;

export const SSH_USAGE = `SSH bastion (the system's OpenSSH client; ~/.ssh/config, known_hosts and the agent apply):
  --ssh <[user@]host[:port]>     reach every server through this bastion (or a Host alias of ~/.ssh/config)
  --ssh-jump <[user@]host[:port]>  a jump host before the bastion; repeat or separate by commas for a chain
  --ssh-identity <file>          private key to offer (password login is then off); its passphrase in ${SSH_SECRET_ENV}
                                 (without --ssh-identity, ${SSH_SECRET_ENV} is the bastion's password)
  --ssh-config <file>            an ssh_config file instead of ~/.ssh/config
  An unknown or changed host key is refused: connect once with ssh in a terminal to check and accept it.`;

/** Flags that would put an SSH secret on the command line. */
export const SSH_SECRET_FLAGS = ['--ssh-password', '--ssh-passphrase'];

export class SshArgs {
  private destination: string | undefined;
  private readonly jumps: string[] = [];
  private identityFile: string | undefined;
  private configFile: string | undefined;

  /** As SecurityArgs.take: the index of the last word taken, or undefined when `args[i]` is not an SSH flag. */
  take(args: readonly string[], i: number): number | undefined {
    const arg = args[i];
    if (SSH_SECRET_FLAGS.includes(arg.split('=')[0])) {
      throw new UsageError(`${arg.split('=')[0]} is refused: a secret on the command line shows in ps and shell history; put it in ${SSH_SECRET_ENV}`);
    }
    const value = args[i + 1];
    const missing = value === undefined || value === '' || value.startsWith('-');
    switch (arg) {
      case '--ssh':
        if (missing || !parseSshDestination(value)) throw new UsageError('--ssh takes a bastion as [user@]host[:port]');
        this.destination = value;
        return i + 1;
      case '--ssh-jump':
        for (const jump of missing ? [''] : value.split(',')) {
          if (!parseSshDestination(jump)) throw new UsageError('--ssh-jump takes jump hosts as [user@]host[:port], separated by commas');
          this.jumps.push(jump);
        }
        return i + 1;
      case '--ssh-identity':
      case '--ssh-config':
        if (missing) throw new UsageError(`${arg} takes a file`);
        if (arg === '--ssh-identity') this.identityFile = value;
        else this.configFile = value;
        return i + 1;
      default:
        return undefined;
    }
  }

  /** The tunnel these flags ask for, secret from `env`; undefined without --ssh. */
  settings(env: NodeJS.ProcessEnv): SshTunnelSettings | undefined {
    if (this.destination === undefined) {
      if (this.jumps.length || this.identityFile || this.configFile) throw new UsageError('--ssh-jump, --ssh-identity and --ssh-config need --ssh <bastion>');
      return undefined;
    }
    const settings: SshTunnelSettings = { destination: this.destination };
    if (this.jumps.length) settings.jumps = [...this.jumps];
    if (this.identityFile) settings.identityFile = this.identityFile;
    if (this.configFile) settings.configFile = this.configFile;
    const secret = env[SSH_SECRET_ENV];
    if (secret !== undefined && secret !== '') settings.secret = secret;
    return settings;
  }
}
