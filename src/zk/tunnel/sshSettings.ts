// How a session reaches its ensemble through an SSH bastion. The system's OpenSSH client does the SSH part, so the
// user's ~/.ssh/config (aliases, User, Port, IdentityFile, ProxyJump), known_hosts (hashed too) and agent apply as
// they do in a terminal; these settings only add what ZooScope must decide itself.
export interface SshTunnelSettings {
  /** The bastion: `[user@]host[:port]` (IPv6 in brackets) or a Host alias of the ssh config. */
  destination: string;
  /** Jump hosts before the bastion, in order, each as `-J` takes it. */
  jumps?: string[];
  /** A private key file to offer (besides the agent's keys unless `agentSocket` is 'none'). */
  identityFile?: string;
  /** The agent's socket; 'none' for no agent; default: SSH_AUTH_SOCK as ssh reads it. */
  agentSocket?: string;
  /** The key's passphrase or the bastion's password: given to ssh only through SSH_ASKPASS, never argv. */
  secret?: string;
  /**
   * What `secret` is, so it answers only its own prompt: a key's passphrase (password and keyboard-interactive
   * authentication are then off) or the bastion's password. Default: a passphrase with `identityFile`, else a password.
   */
  secretKind?: SshSecretKind;
  /** Host keys the user accepted in ZooScope, checked after the user's own known_hosts files. */
  acceptedHostKeysFile?: string;
  /** The user's known_hosts files (default: what the ssh config says, or OpenSSH's two beside `acceptedHostKeysFile`). */
  knownHostsFiles?: string[];
  /** An ssh_config file instead of ~/.ssh/config. */
  configFile?: string;
  /** The ssh program (default: `ssh` on PATH). */
  sshPath?: string;
  /** How long ssh may take to reach the bastion (default 10 s). */
  connectTimeoutSeconds?: number;
}

export type SshSecretKind = 'password' | 'passphrase';

/** What the secret of `settings` is (see `secretKind`). */
export function secretKindOf(settings: SshTunnelSettings): SshSecretKind {
  return settings.secretKind ?? (settings.identityFile !== undefined ? 'passphrase' : 'password');
}

export interface SshDestination {
  user?: string;
  host: string;
  port?: number;
}

/**
 * What a host or user name given to ssh may hold: letters, digits and `._-` (`+` in a user), not starting with `-`
 * (ssh would read an option), and nothing else. Every word here may reach `sh -c`: some OpenSSH versions paste `-J`
 * hosts into a ProxyCommand, and a user's config may paste `%h`/`%r` into one; so no quotes, `$`, backticks, `;`,
 * `|`, `&`, spaces, commas, controls or invisible characters, whatever their source (the form, the CLI, a folder's
 * settings, a server's `/zookeeper/config`).
 */
const SSH_HOST = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const SSH_USER = /^[A-Za-z0-9_][A-Za-z0-9._+-]*$/;
const IPV6_LITERAL = /^[0-9A-Fa-f:.]+$/;

/** Whether `host` is a name or address ssh may be given (an IPv6 address without brackets). */
export function isSafeSshHost(host: string): boolean {
  return host.length <= 255 && (SSH_HOST.test(host) || (host.includes(':') && IPV6_LITERAL.test(host)));
}

/** Parses `[user@]host[:port]`; undefined when it cannot be one (the reason is not needed: the caller says which). */
export function parseSshDestination(text: string): SshDestination | undefined {
  const match = /^(?:([^@]+)@)?(\[[0-9A-Fa-f:.]+\]|[^:@[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  const [, user, rawHost, rawPort] = match;
  const host = rawHost.startsWith('[') ? rawHost.slice(1, -1) : rawHost;
  const port = rawPort === undefined ? undefined : Number(rawPort);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  if (!isSafeSshHost(host) || (user !== undefined && !SSH_USER.test(user))) return undefined;
  return { user, host, port };
}

/** A file name given to ssh (as an argument or inside a quoted `-o` value): no controls, no quote that would end it. */
function fileProblem(file: string): boolean {
  return file === '' || /[\u0000-\u001f\u007f"]/.test(file);
}

/**
 * Why `settings` cannot work, in one line; undefined when they can. Every ssh ZooScope runs is built by
 * sshCommand.ts, which refuses settings this finds a problem in: no caller can skip it.
 */
export function sshSettingsProblem(settings: SshTunnelSettings): string | undefined {
  const shown = (text: string) => JSON.stringify(text.slice(0, 120));
  if (!parseSshDestination(settings.destination)) return `SSH bastion ${shown(settings.destination)} is not [user@]host[:port] (letters, digits, ".", "-", "_")`;
  for (const jump of settings.jumps ?? []) {
    if (!parseSshDestination(jump)) return `SSH jump host ${shown(jump)} is not [user@]host[:port] (letters, digits, ".", "-", "_")`;
  }
  const files: [string, string | undefined][] = [
    ['identity file', settings.identityFile], ['config file', settings.configFile], ['program', settings.sshPath],
    ['agent socket', settings.agentSocket], ['known hosts file', settings.acceptedHostKeysFile],
    ...(settings.knownHostsFiles ?? []).map((f): [string, string] => ['known hosts file', f]),
  ];
  for (const [name, file] of files) {
    if (file !== undefined && fileProblem(file)) return `SSH ${name} ${shown(file)} is not a file name`;
  }
  return undefined;
}

/** How the bastion is named in lines for the user. */
export function bastionName(settings: SshTunnelSettings): string {
  return settings.destination;
}
