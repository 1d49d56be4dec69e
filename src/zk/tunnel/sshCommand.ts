// The ssh command line of one tunnel: `ssh -W member:port … bastion`, its stdin/stdout being the connection. What
// the user's ssh config says is honoured, except what a tunnel cannot allow: prompts (nobody can answer them on a
// pipe; a secret goes through SSH_ASKPASS), accepting host keys silently, remote commands, forwarding the agent.
import { parseSshDestination, SshTunnelSettings } from './sshSettings';

export interface SshCommand {
  program: string;
  args: string[];
  /** Added to the environment of ssh (the secret's variable among them). */
  env: Record<string, string>;
}

/** The variable the CLI takes a secret from: never passed on to ssh (its environment is readable by the user's processes). */
export const SECRET_ENV = 'ZOOSCOPE_SSH_SECRET';

const OPENSSH_KNOWN_HOSTS = ['~/.ssh/known_hosts', '~/.ssh/known_hosts2'];

/** A file list for -o: ssh splits it at spaces unless a name is quoted. */
function fileList(files: string[]): string {
  return files.map((f) => (/\s/.test(f) ? `"${f}"` : f)).join(' ');
}

/** `host:port` for -W (an IPv6 address in brackets). */
export function forwardTarget(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The command for a tunnel to `host:port` as the bastion sees it. `askpassEnv`: what lets ssh ask for the secret
 * (needed only when the settings have one; the secret itself is not in it).
 */
export function sshTunnelCommand(settings: SshTunnelSettings, host: string, port: number, askpassEnv?: Record<string, string>): SshCommand {
  const destination = parseSshDestination(settings.destination);
  if (!destination) throw new Error(`SSH bastion ${JSON.stringify(settings.destination)} is not [user@]host[:port]`);
  if (/[\s\u0000-\u001f\u007f]/.test(host) || host.startsWith('-') || host === '') throw new Error(`${JSON.stringify(host)} is not a host name`);
  const options: Record<string, string> = {
    // A changed key is refused, an unknown one too: the user accepts it in ZooScope (fingerprint shown) first.
    StrictHostKeyChecking: 'yes',
    ExitOnForwardFailure: 'yes',
    ConnectTimeout: String(settings.connectTimeoutSeconds ?? 10),
    // 'Authenticated to …' on stderr is when the tunnel counts as connected.
    LogLevel: 'VERBOSE',
    // A shared connection of the user's (ControlMaster) would skip the host key check and never say 'Authenticated
    // to', so the tunnel would never count as connected: each tunnel makes its own.
    ControlMaster: 'no',
    ControlPath: 'none',
    RemoteCommand: 'none',
    RequestTTY: 'no',
    ForwardAgent: 'no',
    ForwardX11: 'no',
    PermitLocalCommand: 'no',
  };
  const env: Record<string, string> = {};
  if (settings.secret !== undefined) {
    if (!askpassEnv) throw new Error('an SSH secret needs the askpass helper');
    Object.assign(options, { BatchMode: 'no', NumberOfPasswordPrompts: '1' });
    Object.assign(env, askpassEnv);
  } else {
    options.BatchMode = 'yes';
  }
  if (settings.acceptedHostKeysFile || settings.knownHostsFiles) {
    const files = [...(settings.knownHostsFiles ?? OPENSSH_KNOWN_HOSTS), ...(settings.acceptedHostKeysFile ? [settings.acceptedHostKeysFile] : [])];
    options.UserKnownHostsFile = fileList(files);
  }
  if (settings.agentSocket !== undefined) options.IdentityAgent = settings.agentSocket;
  const args: string[] = [];
  if (settings.configFile) args.push('-F', settings.configFile);
  for (const [key, value] of Object.entries(options)) args.push('-o', `${key}=${value}`);
  if (settings.identityFile) args.push('-i', settings.identityFile);
  if (settings.jumps?.length) args.push('-J', settings.jumps.join(','));
  if (destination.user !== undefined) args.push('-l', destination.user);
  if (destination.port !== undefined) args.push('-p', String(destination.port));
  args.push('-W', forwardTarget(host, port), '--', destination.host);
  return { program: settings.sshPath ?? 'ssh', args, env };
}
