// Every ssh ZooScope runs is built here: the tunnel's `ssh -W member:port … bastion` (its stdin/stdout being the
// connection), and the host key checks' handshakes. Here, and so for every caller, the settings are checked
// (sshSettings.ts), the program is an absolute path, and ssh's environment holds no secret. What the user's ssh config
// says is honoured, except what a tunnel cannot allow: prompts (nobody can answer them on a pipe; a secret goes
// through SSH_ASKPASS), accepting host keys silently, remote commands, forwarding the agent.
import { SECRET_VARIABLES, withoutSecrets } from '../secretVariables';
import { resolveProgram } from './sshProgram';
import { isSafeSshHost, parseSshDestination, secretKindOf, SshDestination, sshSettingsProblem, SshTunnelSettings } from './sshSettings';

export interface SshCommand {
  /** An absolute path. */
  program: string;
  args: string[];
  /** ssh's whole environment: the caller's, without any secret's variable, with what askpass needs. */
  env: NodeJS.ProcessEnv;
}

/** The variable the CLI takes an SSH secret from (one of those kept from ssh). */
export const SECRET_ENV = SECRET_VARIABLES.sshSecret;

/** Settings, a target or a program that must not reach ssh: said in one line. */
export class SshSettingsError extends Error {
  constructor(message: string, readonly notInstalled = false) {
    super(message);
    this.name = 'SshSettingsError';
  }
}

const OPENSSH_KNOWN_HOSTS = ['~/.ssh/known_hosts', '~/.ssh/known_hosts2'];

/** A file list for -o: ssh splits it at spaces unless a name is quoted. */
function fileList(files: string[]): string {
  return files.map((f) => (/\s/.test(f) ? `"${f}"` : f)).join(' ');
}

/** `host:port` for -W (an IPv6 address in brackets). */
export function forwardTarget(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The checked bastion of `settings`: throws SshSettingsError with the one line saying what is wrong. */
function checkedDestination(settings: SshTunnelSettings): SshDestination {
  const problem = sshSettingsProblem(settings);
  const destination = parseSshDestination(settings.destination);
  if (problem !== undefined || !destination) throw new SshSettingsError(problem ?? `SSH bastion ${JSON.stringify(settings.destination)} is not [user@]host[:port]`);
  return destination;
}

/** The program's absolute path; SshSettingsError (notInstalled) when there is none. */
export function sshProgram(settings: Pick<SshTunnelSettings, 'sshPath'>, name = settings.sshPath ?? 'ssh'): string {
  try {
    return resolveProgram(name);
  } catch (error) {
    throw new SshSettingsError(`cannot start ${name}: ${(error as Error).message}; OpenSSH's client is not installed or not on PATH`, true);
  }
}

export interface SshInvocation {
  /** `-o` options, before the settings' own (ssh keeps the first value of each). */
  options: string[];
  /** What goes between the settings' words and the destination (`-W host:port`, `-N`). */
  action: string[];
  /** Whether `-i identityFile` is given. */
  identity: boolean;
  /** Added to ssh's environment (askpass). */
  env?: Record<string, string>;
}

/**
 * An ssh command for `settings`: `[-F config] options… [-i key] [-J jumps] [-l user] [-p port] action… -- host`.
 * Refuses (SshSettingsError) what sshSettingsProblem refuses, whoever asks.
 */
export function sshCommand(settings: SshTunnelSettings, invocation: SshInvocation): SshCommand {
  const destination = checkedDestination(settings);
  const args: string[] = [];
  if (settings.configFile) args.push('-F', settings.configFile);
  args.push(...invocation.options);
  if (invocation.identity && settings.identityFile) args.push('-i', settings.identityFile);
  if (settings.jumps?.length) args.push('-J', settings.jumps.join(','));
  if (destination.user !== undefined) args.push('-l', destination.user);
  if (destination.port !== undefined) args.push('-p', String(destination.port));
  args.push(...invocation.action, '--', destination.host);
  return { program: sshProgram(settings), args, env: { ...withoutSecrets(process.env), ...invocation.env } };
}

/** `-o key=value` words. */
export const asOptions = (options: Record<string, string>): string[] => Object.entries(options).flatMap(([key, value]) => ['-o', `${key}=${value}`]);

/** The known_hosts files ssh checks and the agent it asks, where the settings say (else ssh's own defaults apply). */
export function trustOptions(settings: SshTunnelSettings): Record<string, string> {
  const options: Record<string, string> = {};
  if (settings.acceptedHostKeysFile || settings.knownHostsFiles) {
    const files = [...(settings.knownHostsFiles ?? OPENSSH_KNOWN_HOSTS), ...(settings.acceptedHostKeysFile ? [settings.acceptedHostKeysFile] : [])];
    options.UserKnownHostsFile = fileList(files);
  }
  if (settings.agentSocket !== undefined) options.IdentityAgent = settings.agentSocket;
  return options;
}

/**
 * The command for a tunnel to `host:port` as the bastion sees it. `askpassEnv`: what lets ssh ask for the secret
 * (needed only when the settings have one; the secret itself is not in it).
 */
export function sshTunnelCommand(settings: SshTunnelSettings, host: string, port: number, askpassEnv?: Record<string, string>): SshCommand {
  // The member may come from a server's /zookeeper/config: it is held to the same words as the bastion.
  if (!isSafeSshHost(host) || !Number.isInteger(port) || port < 1 || port > 65535) throw new SshSettingsError(`${JSON.stringify(host.slice(0, 120))}:${port} is not a host name and port ssh may forward to`);
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
  let env: Record<string, string> | undefined;
  if (settings.secret !== undefined) {
    if (!askpassEnv) throw new Error('an SSH secret needs the askpass helper');
    Object.assign(options, { BatchMode: 'no', NumberOfPasswordPrompts: '1' });
    env = askpassEnv;
  } else {
    options.BatchMode = 'yes';
  }
  if (settings.identityFile !== undefined || (settings.secret !== undefined && secretKindOf(settings) === 'passphrase')) {
    // Key authentication: a bastion that refuses the key must not get to ask for a password (the passphrase would
    // be typed, or answered, into it).
    Object.assign(options, { PasswordAuthentication: 'no', KbdInteractiveAuthentication: 'no', PreferredAuthentications: 'publickey' });
  }
  Object.assign(options, trustOptions(settings));
  return sshCommand(settings, { options: asOptions(options), action: ['-W', forwardTarget(host, port)], identity: true, env });
}
