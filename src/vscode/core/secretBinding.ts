// What a stored secret was given for: the servers, chroot, user, TLS identity and how the servers are verified (CA,
// server name check, pinned certificates, SSH route), as the connection was when the user typed it. Kept in
// SecretStorage beside the value (a settings file cannot forge it), so a secret is sent only where it was given, and
// the user is asked before it goes anywhere else: the same hosts checked less (name check off, another pin) are
// somewhere else too, since whoever answers on them may not be the servers. No `vscode` here: unit-tested.
import { isConnectStringProblem, parseConnectString } from '../../zk/connectString';
import { normalizeSha256Fingerprint, splitFingerprints } from '../../zk/security/certificatePin';
import { digestInClearServers } from '../../zk/security/digestInClear';

export { isLoopback } from '../../zk/security/digestInClear';
import type { ConnectionSecrets, SavedConnection } from './savedConnection';

export type SecretKind = keyof ConnectionSecrets;

export interface SecretBinding {
  /** `host:port`, lower case, sorted, each once: the order of servers in a connect string does not matter. */
  hosts: string[];
  chroot: string;
  /** The user the secret authenticates (digest or SASL); none for a TLS passphrase. */
  user?: string;
  /**
   * The TLS files (paths) the connection used and how it checks the server: `checkServerName` only when off,
   * `pinnedSha256` (normalized, sorted) only when pinned, so bindings stored before these were recorded still match
   * a connection that checks as they did. Absent for plain TCP.
   */
  tls?: { caFile?: string; certFile?: string; keyFile?: string; pfxFile?: string; checkServerName?: false; pinnedSha256?: string[] };
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
  if (saved.tls) binding.tls = tlsBinding(saved.tls);
  const route = sshRoute(saved);
  if (route) binding.via = route.toLowerCase();
  return binding;
}

const TLS_FILES = ['caFile', 'certFile', 'keyFile', 'pfxFile'] as const;

function tlsBinding(tls: NonNullable<SavedConnection['tls']>): NonNullable<SecretBinding['tls']> {
  const binding: NonNullable<SecretBinding['tls']> = {};
  for (const file of TLS_FILES) if (tls[file]) binding[file] = tls[file];
  if (tls.checkServerName === false) binding.checkServerName = false;
  // Hand-edited settings may hold one string; a pin that is no fingerprint is kept as written (the session refuses it).
  const given: unknown = tls.pinnedSha256;
  const pins = (typeof given === 'string' ? splitFingerprints(given) : Array.isArray(given) ? given.map(String) : [])
    .map((pin) => normalizeSha256Fingerprint(pin) ?? pin.trim());
  if (pins.length) binding.pinnedSha256 = [...new Set(pins)].sort();
  return binding;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) => (a ?? []).join(',') === (b ?? []).join(',');

/** Whether two TLS bindings name the same files and check the server the same way. */
function sameTls(a: SecretBinding['tls'], b: SecretBinding['tls']): boolean {
  if (!a || !b) return !a && !b;
  return TLS_FILES.every((f) => a[f] === b[f]) && (a.checkServerName ?? true) === (b.checkServerName ?? true)
    && sameList(a.pinnedSha256, b.pinnedSha256);
}

export function sameBinding(a: SecretBinding, b: SecretBinding): boolean {
  return sameTls(a.tls, b.tls) && a.hosts.join(',') === b.hosts.join(',') && a.chroot === b.chroot && a.user === b.user
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

/** The digest scheme sends `user:password` as it is: in clear text unless over TLS, readable on the way unless local. */
export function sendsDigestInClear(saved: SavedConnection): boolean {
  return !!saved.digestUser && digestInClearServers(saved.connectString, !!saved.tls) !== undefined;
}
