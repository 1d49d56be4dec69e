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

export interface SshDestination {
  user?: string;
  host: string;
  port?: number;
}

/**
 * A word ssh would read as an option, or with characters no host name has (controls, invisible and direction marks
 * that would make the name shown differ from the one used): refused before it reaches argv.
 */
function unsafeWord(value: string): boolean {
  return value === '' || value.startsWith('-') || /[\s\p{Cc}\p{Cf},]/u.test(value);
}

/** Parses `[user@]host[:port]`; undefined when it cannot be one (the reason is not needed: the caller says which). */
export function parseSshDestination(text: string): SshDestination | undefined {
  const match = /^(?:([^@]+)@)?(\[[0-9A-Fa-f:.]+\]|[^:@[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  const [, user, rawHost, rawPort] = match;
  const host = rawHost.startsWith('[') ? rawHost.slice(1, -1) : rawHost;
  const port = rawPort === undefined ? undefined : Number(rawPort);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  if (unsafeWord(host) || (user !== undefined && unsafeWord(user))) return undefined;
  return { user, host, port };
}

/** Why `settings` cannot work, in one line; undefined when they can. */
export function sshSettingsProblem(settings: SshTunnelSettings): string | undefined {
  if (!parseSshDestination(settings.destination)) return `SSH bastion ${JSON.stringify(settings.destination.slice(0, 120))} is not [user@]host[:port]`;
  for (const jump of settings.jumps ?? []) {
    if (!parseSshDestination(jump)) return `SSH jump host ${JSON.stringify(jump.slice(0, 120))} is not [user@]host[:port]`;
  }
  for (const [name, file] of [['identity file', settings.identityFile], ['config file', settings.configFile]] as const) {
    if (file !== undefined && (file === '' || /[\u0000-\u001f]/.test(file))) return `SSH ${name} ${JSON.stringify(file)} is not a file name`;
  }
  return undefined;
}

/** How the bastion is named in lines for the user. */
export function bastionName(settings: SshTunnelSettings): string {
  return settings.destination;
}
