// A saved connection as it stands in the `zooscope.connections` setting (the password is never part of it).
export interface SavedConnection {
  id: string;
  name: string;
  connectString: string;
  chroot?: string;
  sessionTimeoutMs?: number;
  readOnly?: boolean;
  digestUser?: string;
  /** The AdminServer's port on the connection's hosts: server tables read over HTTP instead of four-letter words. */
  adminPort?: number;
  /** TLS: files by path; the PKCS#12 or key passphrase lives in secret storage. */
  tls?: SavedTls;
  /** SASL before any request; the DIGEST-MD5 password lives in secret storage. */
  sasl?: SavedSasl;
  /** Reach every server through this SSH bastion; the key's passphrase or the password lives in secret storage. */
  ssh?: SavedSsh;
}

export interface SavedSsh {
  /** `[user@]host[:port]` or a Host alias of the ssh config. */
  bastion: string;
  /** Jump hosts before the bastion, in order (`ssh -J`). */
  jumps?: string[];
  /** agent (default): the SSH agent's keys; key: `identityFile` (passphrase in secret storage); password. */
  auth?: 'agent' | 'key' | 'password';
  identityFile?: string;
}

export interface SavedTls {
  /** PEM CA file; absent: the system's CAs. */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  pfxFile?: string;
  /** Check the server's name against its certificate (default true); off needs `caFile` or `pinnedSha256`. */
  checkServerName?: boolean;
  /** SHA-256 fingerprints of the servers' certificates: only these are accepted. */
  pinnedSha256?: string[];
}

export type SavedSasl =
  | { mechanism: 'DIGEST-MD5'; user: string }
  | { mechanism: 'GSSAPI'; principal?: string; serviceName?: string };

/** The secrets of a connection, kept only in SecretStorage. Undefined: keep the stored one; '': forget it. */
export interface ConnectionSecrets {
  password?: string;
  tlsPassphrase?: string;
  saslPassword?: string;
  /** The SSH key's passphrase or the bastion's password. */
  sshSecret?: string;
}

/** A file on this machine that a connection names, and what it is used as. */
export interface NamedFile { role: 'caFile' | 'certFile' | 'keyFile' | 'pfxFile' | 'identityFile'; path: string }

/**
 * The files on this machine `saved` would read and present: its TLS CA, client certificate and key, and its SSH key.
 * From a folder's settings they are used only once the user agreed (ConnectionStore): a folder must not make
 * ZooScope show the user's client certificate or SSH key to servers of its choosing, or trust a CA of its choosing.
 */
export function filesNamed(saved: Pick<SavedConnection, 'tls' | 'ssh'>): NamedFile[] {
  const files: NamedFile[] = [];
  for (const role of ['caFile', 'certFile', 'keyFile', 'pfxFile'] as const) {
    const path = saved.tls?.[role];
    if (typeof path === 'string' && path !== '') files.push({ role, path });
  }
  const key = saved.ssh?.identityFile;
  if (saved.ssh?.auth === 'key' && typeof key === 'string' && key !== '') files.push({ role: 'identityFile', path: key });
  return files;
}
