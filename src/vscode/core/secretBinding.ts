// What a stored secret was given for: the servers, chroot, user and TLS identity of the connection as it was when the
// user typed it. Kept in SecretStorage beside the value (a settings file cannot forge it), so a secret is sent only
// where it was given, and the user is asked before it goes anywhere else. No `vscode` here: unit-tested.
import { isConnectStringProblem, parseConnectString } from '../../zk/connectString';
import type { ConnectionSecrets, SavedConnection } from './savedConnection';

export type SecretKind = keyof ConnectionSecrets;

export interface SecretBinding {
  /** `host:port`, lower case, sorted, each once: the order of servers in a connect string does not matter. */
  hosts: string[];
  chroot: string;
  /** The user the secret authenticates (digest or SASL); none for a TLS passphrase. */
  user?: string;
  /** The TLS files (paths) the connection used; absent for plain TCP. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string; pfxFile?: string };
  /**
   * The SSH route: jump hosts and bastion (`a,b → bastion`). Behind another bastion the same private address is
   * another machine, so a secret given for one route is not sent over another. For the SSH secret itself, `hosts`
   * holds the bastion and this the jump hosts.
   */
  via?: string;
  /** The SSH key file an SSH passphrase opens. */
  identityFile?: string;
}

export interface StoredSecret {
  value: string;
  /** Absent for secrets stored by older versions, which recorded no binding. */
  binding?: SecretBinding;
}

const MARK = 'zooscopeBoundSecret';

function canonicalHosts(connectString: string): { hosts: string[]; chroot?: string } {
  const parsed = parseConnectString(connectString);
  if (isConnectStringProblem(parsed)) return { hosts: [connectString.trim().toLowerCase()] };
  const hosts = parsed.servers.map((s) => `${s.host.includes(':') ? `[${s.host.toLowerCase()}]` : s.host.toLowerCase()}:${s.port}`);
  return { hosts: [...new Set(hosts)].sort(), chroot: parsed.chroot };
}

/** The jump hosts and bastion of `saved`, as one text; undefined when direct. */
export function sshRoute(saved: SavedConnection): string | undefined {
  if (!saved.ssh) return undefined;
  return [...(saved.ssh.jumps ?? []), saved.ssh.bastion].join(' → ');
}

export function bindingFor(saved: SavedConnection, kind: SecretKind): SecretBinding {
  if (kind === 'sshSecret') {
    const ssh = saved.ssh;
    const binding: SecretBinding = { hosts: [ssh?.bastion.toLowerCase() ?? ''], chroot: '' };
    if (ssh?.jumps?.length) binding.via = ssh.jumps.join(' → ').toLowerCase();
    if (ssh?.auth === 'key' && ssh.identityFile) binding.identityFile = ssh.identityFile;
    return binding;
  }
  const { hosts, chroot } = canonicalHosts(saved.connectString);
  const user = kind === 'password' ? saved.digestUser
    : kind === 'saslPassword' && saved.sasl?.mechanism === 'DIGEST-MD5' ? saved.sasl.user : undefined;
  const binding: SecretBinding = { hosts, chroot: `${chroot ?? ''}${saved.chroot ?? ''}` };
  if (user !== undefined) binding.user = user;
  if (saved.tls) {
    const { caFile, certFile, keyFile, pfxFile } = saved.tls;
    binding.tls = Object.fromEntries(Object.entries({ caFile, certFile, keyFile, pfxFile }).filter(([, v]) => v)) as SecretBinding['tls'];
  }
  const route = sshRoute(saved);
  if (route) binding.via = route.toLowerCase();
  return binding;
}

const TLS_FILES = ['caFile', 'certFile', 'keyFile', 'pfxFile'] as const;

export function sameBinding(a: SecretBinding, b: SecretBinding): boolean {
  const sameTls = !a.tls || !b.tls ? !a.tls && !b.tls : TLS_FILES.every((f) => a.tls?.[f] === b.tls?.[f]);
  return sameTls && a.hosts.join(',') === b.hosts.join(',') && a.chroot === b.chroot && a.user === b.user
    && a.via === b.via && a.identityFile === b.identityFile;
}

/** The servers of a binding as the user reads them in a dialog. */
export function describeHosts(binding: SecretBinding): string {
  const hosts = binding.hosts.join(', ') + binding.chroot;
  return binding.via ? `${binding.via} → ${hosts}` : hosts;
}

export function encodeSecret(value: string, binding: SecretBinding): string {
  return JSON.stringify({ [MARK]: 1, value, binding });
}

/** A stored value: a bound one as written by encodeSecret, anything else a secret of an older version (unbound). */
export function decodeSecret(raw: string): StoredSecret {
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown> | null;
    if (parsed && parsed[MARK] === 1 && typeof parsed.value === 'string' && isBinding(parsed.binding)) {
      return { value: parsed.value, binding: parsed.binding };
    }
  } catch { /* an old, plain secret */ }
  return { value: raw };
}

function isBinding(v: unknown): v is SecretBinding {
  const b = v as SecretBinding | undefined;
  return !!b && Array.isArray(b.hosts) && b.hosts.every((h) => typeof h === 'string') && typeof b.chroot === 'string';
}

/** Loopback by name or address: what never leaves this machine. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
    || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The digest scheme sends `user:password` as it is: in clear text unless over TLS, readable on the way unless local. */
export function sendsDigestInClear(saved: SavedConnection): boolean {
  if (!saved.digestUser || saved.tls) return false;
  const parsed = parseConnectString(saved.connectString);
  if (isConnectStringProblem(parsed)) return true;
  return parsed.servers.some((s) => !isLoopback(s.host));
}
