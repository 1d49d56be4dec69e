// The options every command that connects shares, declared once: TLS files, the server name check, SASL, digest
// users and the SSH bastion. Secrets (passwords, passphrases) come only from the environment: argv shows in ps and
// shell history, so a flag that looks like one is refused, with the variable to use instead.
import type { SessionOptions } from '../zk/session/session';
import type { SaslSettings } from '../zk/security/sasl';
import type { TlsSettings } from '../zk/security/tlsSettings';
import type { SshTunnelSettings } from '../zk/tunnel/sshSettings';
import { parseSshDestination } from '../zk/tunnel/sshSettings';
import { SECRET_VARIABLES } from '../zk/secretVariables';
import { normalizeSha256Fingerprint, splitFingerprints } from '../zk/security/certificatePin';
import { digestCredentials, UsageError } from './args';
import type { OptionTable, OptionValues, RefusedFlags } from './commandLine';

export const TLS_PASSPHRASE_ENV = SECRET_VARIABLES.tlsPassphrase;
export const SASL_PASSWORD_ENV = SECRET_VARIABLES.saslPassword;
export const SSH_SECRET_ENV = SECRET_VARIABLES.sshSecret;

export const CONNECTION_OPTIONS = {
  'tls': {},
  'tls-ca': { takes: 'a file' },
  'tls-cert': { takes: 'a file' },
  'tls-key': { takes: 'a file' },
  'tls-pfx': { takes: 'a file' },
  'tls-no-server-name-check': {},
  'tls-pin-sha256': { takes: 'a SHA-256 fingerprint', multiple: true },
  'sasl-user': { takes: `a user name (the password comes from ${SASL_PASSWORD_ENV})` },
  'kerberos': {},
  'digest': { takes: `a user name (the password comes from ${SECRET_VARIABLES.digestPassword})` },
  'auth': { takes: `a user name (the password comes from ${SECRET_VARIABLES.digestPassword})`, aliasOf: 'digest' },
  'ssh': { takes: 'a bastion as [user@]host[:port]' },
  'ssh-jump': { takes: 'jump hosts as [user@]host[:port], separated by commas', multiple: true },
  'ssh-identity': { takes: 'a file' },
  'ssh-config': { takes: 'a file' },
} as const satisfies OptionTable;

export type ConnectionValues = OptionValues<typeof CONNECTION_OPTIONS>;
/** What the connection options ask of a session. */
export type ConnectionSettings = Pick<SessionOptions, 'tls' | 'sasl' | 'digest' | 'ssh'> & { digest: string[] };

export const CONNECTION_USAGE = `security options (any --tls-* option implies --tls; secrets only from the environment):
  --tls                          connect with TLS (the system's CAs unless --tls-ca)
  --tls-ca <file>                PEM file of the CA(s) that signed the servers' certificates
  --tls-cert <file> --tls-key <file>   client certificate and key (PEM)
  --tls-pfx <file>               client certificate and key as PKCS#12; passphrase in ${TLS_PASSPHRASE_ENV}
  --tls-no-server-name-check     accept a server certificate that does not name the host connected to
                                 (needs --tls-ca or --tls-pin-sha256)
  --tls-pin-sha256 <fingerprint> accept only this server certificate (SHA-256, as openssl x509 -fingerprint
                                 -sha256 prints it, colons optional); repeat or separate by commas for more
  --sasl-user <name>             SASL DIGEST-MD5; password in ${SASL_PASSWORD_ENV}
  --kerberos                     SASL GSSAPI (Kerberos ticket cache; needs the optional "kerberos" module)
  --digest <user>                digest credentials; password in ${SECRET_VARIABLES.digestPassword}
                                 (or ${SECRET_VARIABLES.digest}=<user>:<password> without --digest)
SSH bastion (the system's OpenSSH client; ~/.ssh/config, known_hosts and the agent apply):
  --ssh <[user@]host[:port]>     reach every server through this bastion (or a Host alias of ~/.ssh/config)
  --ssh-jump <[user@]host[:port]>  a jump host before the bastion; repeat or separate by commas for a chain
  --ssh-identity <file>          private key to offer (password login is then off); its passphrase in ${SSH_SECRET_ENV}
                                 (without --ssh-identity, ${SSH_SECRET_ENV} is the bastion's password)
  --ssh-config <file>            an ssh_config file instead of ~/.ssh/config
  An unknown or changed host key is refused: connect once with ssh in a terminal to check and accept it.`;

const refusal = (env: string) => `is refused: a secret on the command line shows in ps and shell history; put it in ${env}`;

/** Flags that would put a secret on the command line: refused by every command, naming the variable instead. */
export const SECRET_FLAGS: RefusedFlags = Object.fromEntries(([
  ['--tls-passphrase', TLS_PASSPHRASE_ENV], ['--tls-password', TLS_PASSPHRASE_ENV],
  ['--sasl-password', SASL_PASSWORD_ENV], ['--password', SASL_PASSWORD_ENV],
  ['--digest-password', SECRET_VARIABLES.digestPassword],
  ['--ssh-password', SSH_SECRET_ENV], ['--ssh-passphrase', SSH_SECRET_ENV],
] as const).map(([flag, env]) => [flag, `${flag} ${refusal(env)}`]));

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/**
 * The session options the connection options ask for, secrets from `env`. Errors name users and variables, never
 * secrets. `spelledDigest`: the digest flag as given (`--auth`), for its messages.
 */
export function connectionSettings(values: ConnectionValues, env: NodeJS.ProcessEnv, spelledDigest = '--digest'): ConnectionSettings {
  const settings: ConnectionSettings = { digest: digestCredentials(values.digest, env, spelledDigest) };
  const ssh = sshSettings(values, env);
  if (ssh) settings.ssh = ssh;
  const tls = tlsSettings(values, env);
  if (tls) settings.tls = tls;
  const sasl = saslSettings(values, env);
  if (sasl) settings.sasl = sasl;
  return settings;
}

function pinsOf(values: readonly string[]): string[] {
  return values.flatMap(splitFingerprints).map((pin) => {
    const normalized = normalizeSha256Fingerprint(pin);
    if (!normalized) throw new UsageError(`--tls-pin-sha256: ${JSON.stringify(pin.slice(0, 120))} is not a SHA-256 fingerprint (64 hexadecimal digits, colons optional)`);
    return normalized;
  });
}

function tlsSettings(values: ConnectionValues, env: NodeJS.ProcessEnv): TlsSettings | undefined {
  const { 'tls-ca': caFile, 'tls-cert': certFile, 'tls-key': keyFile, 'tls-pfx': pfxFile } = values;
  const pins = pinsOf(values['tls-pin-sha256'] ?? []);
  const checkServerName = !values['tls-no-server-name-check'];
  if (!values.tls && checkServerName && !caFile && !certFile && !keyFile && !pfxFile && !pins.length) return undefined;
  if (pfxFile && (certFile || keyFile)) throw new UsageError('give --tls-pfx or --tls-cert with --tls-key, not both');
  if (!!certFile !== !!keyFile) throw new UsageError(certFile ? '--tls-cert needs --tls-key' : '--tls-key needs --tls-cert');
  if (!checkServerName && !caFile && !pins.length) {
    throw new UsageError('--tls-no-server-name-check needs --tls-ca or --tls-pin-sha256: with the system\'s CAs it would accept any public certificate of any host');
  }
  const settings: TlsSettings = { checkServerName };
  if (caFile) settings.caFile = caFile;
  if (pins.length) settings.pinnedSha256 = pins;
  if (certFile && keyFile) Object.assign(settings, { certFile, keyFile });
  if (pfxFile) settings.pfxFile = pfxFile;
  const passphrase = nonEmpty(env[TLS_PASSPHRASE_ENV]);
  if (passphrase !== undefined) settings.passphrase = passphrase;
  return settings;
}

function saslSettings(values: ConnectionValues, env: NodeJS.ProcessEnv): SaslSettings | undefined {
  const user = values['sasl-user'];
  if (user?.includes(':')) throw new UsageError(`--sasl-user takes a user name only: a password on the command line shows in ps and shell history; put it in ${SASL_PASSWORD_ENV}`);
  if (values.kerberos && user !== undefined) throw new UsageError('give --sasl-user (DIGEST-MD5) or --kerberos (GSSAPI), not both');
  if (values.kerberos) return { mechanism: 'GSSAPI' };
  if (user === undefined) return undefined;
  const password = nonEmpty(env[SASL_PASSWORD_ENV]);
  if (password === undefined) throw new UsageError(`--sasl-user ${user} needs the password in ${SASL_PASSWORD_ENV}`);
  return { mechanism: 'DIGEST-MD5', username: user, password };
}

/** The bastion options alone, for a command that reaches members over SSH without a session (zooscope log). */
export const SSH_OPTIONS = {
  'ssh': CONNECTION_OPTIONS.ssh, 'ssh-jump': CONNECTION_OPTIONS['ssh-jump'], 'ssh-identity': CONNECTION_OPTIONS['ssh-identity'], 'ssh-config': CONNECTION_OPTIONS['ssh-config'],
} as const satisfies OptionTable;

export function sshSettings(values: Pick<ConnectionValues, keyof typeof SSH_OPTIONS>, env: NodeJS.ProcessEnv): SshTunnelSettings | undefined {
  const destination = values.ssh;
  if (destination !== undefined && !parseSshDestination(destination)) throw new UsageError('--ssh takes a bastion as [user@]host[:port]');
  const jumps = (values['ssh-jump'] ?? []).flatMap((value) => value.split(','));
  for (const jump of jumps) {
    if (!parseSshDestination(jump)) throw new UsageError('--ssh-jump takes jump hosts as [user@]host[:port], separated by commas');
  }
  const { 'ssh-identity': identityFile, 'ssh-config': configFile } = values;
  if (destination === undefined) {
    if (jumps.length || identityFile || configFile) throw new UsageError('--ssh-jump, --ssh-identity and --ssh-config need --ssh <bastion>');
    return undefined;
  }
  const settings: SshTunnelSettings = { destination };
  if (jumps.length) settings.jumps = jumps;
  if (identityFile) settings.identityFile = identityFile;
  if (configFile) settings.configFile = configFile;
  const secret = nonEmpty(env[SSH_SECRET_ENV]);
  if (secret !== undefined) settings.secret = secret;
  return settings;
}
