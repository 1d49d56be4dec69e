// The one place `zooscope lock`, `locks` and `shell` read how to reach a secured cluster: TLS files, the server
// name check, SASL and digest users. Secrets (passwords, passphrases) come only from the environment: argv shows
// in ps and shell history, so a flag that looks like one is refused, with the variable to use instead.
import type { SessionOptions } from '../zk/session/session';
import type { SaslSettings } from '../zk/security/sasl';
import type { TlsSettings } from '../zk/security/tlsSettings';
import { SECRET_VARIABLES } from '../zk/secretVariables';
import { normalizeSha256Fingerprint, splitFingerprints } from '../zk/security/certificatePin';
import { digestInClearServers, digestInClearWarning } from '../zk/security/digestInClear';
import { digestCredentials, UsageError } from './args';
import { SSH_USAGE, SshArgs } from './sshArgs';

export const TLS_PASSPHRASE_ENV = SECRET_VARIABLES.tlsPassphrase;
export const SASL_PASSWORD_ENV = SECRET_VARIABLES.saslPassword;

export const SECURITY_USAGE = `security (any --tls-* option implies --tls; secrets only from the environment):
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
${SSH_USAGE}`;

/** Flags that would put a secret on the command line, and where the secret goes instead. */
const SECRET_FLAGS: Record<string, string> = {
  '--tls-passphrase': TLS_PASSPHRASE_ENV,
  '--tls-password': TLS_PASSPHRASE_ENV,
  '--sasl-password': SASL_PASSWORD_ENV,
  '--password': SASL_PASSWORD_ENV,
  '--digest-password': SECRET_VARIABLES.digestPassword,
};

const FILE_FLAGS = { '--tls-ca': 'caFile', '--tls-cert': 'certFile', '--tls-key': 'keyFile', '--tls-pfx': 'pfxFile' } as const;
type FileFlag = keyof typeof FILE_FLAGS;

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** Collects the security flags as a command's own loop meets them, then builds the session options. */
export class SecurityArgs {
  private tls = false;
  private readonly files: Partial<Record<(typeof FILE_FLAGS)[FileFlag], string>> = {};
  private checkServerName = true;
  private readonly pins: string[] = [];
  private saslUser: string | undefined;
  private kerberos = false;
  private digestUser: string | undefined;
  private digestFlag = '--digest';
  private readonly ssh = new SshArgs();

  /**
   * A word the command's own options did not take: a security flag (with its value), else a positional word pushed
   * onto `positional`; any other option is a usage error (with `usage` after it, when given). Returns the index of
   * the last word taken.
   */
  takeRest(args: readonly string[], i: number, positional: string[], usage?: string): number {
    const last = this.take(args, i);
    if (last !== undefined) return last;
    if (args[i].startsWith('--')) throw new UsageError(`unknown option ${args[i]}${usage ? `\n${usage}` : ''}`);
    positional.push(args[i]);
    return i;
  }

  /**
   * If `args[i]` is a security flag, takes it (and its value) and returns the index of the last word taken;
   * otherwise returns undefined and takes nothing.
   */
  take(args: readonly string[], i: number): number | undefined {
    const arg = args[i];
    const sshLast = this.ssh.take(args, i);
    if (sshLast !== undefined) return sshLast;
    const secretEnv = SECRET_FLAGS[arg.split('=')[0]];
    if (secretEnv) throw new UsageError(`${arg.split('=')[0]} is refused: a secret on the command line shows in ps and shell history; put it in ${secretEnv}`);
    if (arg in FILE_FLAGS) {
      const value = args[i + 1];
      if (value === undefined || value === '' || value.startsWith('--')) throw new UsageError(`${arg} takes a file`);
      this.files[FILE_FLAGS[arg as FileFlag]] = value;
      this.tls = true;
      return i + 1;
    }
    switch (arg) {
      case '--tls': this.tls = true; return i;
      case '--tls-no-server-name-check': this.tls = true; this.checkServerName = false; return i;
      case '--tls-pin-sha256': {
        const value = args[i + 1];
        if (value === undefined || value === '' || value.startsWith('--')) throw new UsageError('--tls-pin-sha256 takes a SHA-256 fingerprint');
        for (const pin of splitFingerprints(value)) {
          const normalized = normalizeSha256Fingerprint(pin);
          if (!normalized) throw new UsageError(`--tls-pin-sha256: ${JSON.stringify(pin.slice(0, 120))} is not a SHA-256 fingerprint (64 hexadecimal digits, colons optional)`);
          this.pins.push(normalized);
        }
        this.tls = true;
        return i + 1;
      }
      case '--kerberos': this.kerberos = true; return i;
      case '--sasl-user': {
        const user = args[i + 1];
        if (user === undefined || user === '' || user.startsWith('--')) throw new UsageError(`--sasl-user takes a user name (the password comes from ${SASL_PASSWORD_ENV})`);
        if (user.includes(':')) throw new UsageError(`--sasl-user takes a user name only: a password on the command line shows in ps and shell history; put it in ${SASL_PASSWORD_ENV}`);
        this.saslUser = user;
        return i + 1;
      }
      case '--digest': case '--auth':
        this.digestUser = args[i + 1] ?? '';
        this.digestFlag = arg;
        return i + 1;
      default:
        return undefined;
    }
  }

  /** The session options these flags ask for; secrets from `env`. Errors name users and variables, never secrets. */
  sessionOptions(env: NodeJS.ProcessEnv): Pick<SessionOptions, 'tls' | 'sasl' | 'digest' | 'ssh'> {
    const options: Pick<SessionOptions, 'tls' | 'sasl' | 'digest' | 'ssh'> = { digest: digestCredentials(this.digestUser, env, this.digestFlag) };
    const ssh = this.ssh.settings(env);
    if (ssh) options.ssh = ssh;
    if (this.tls) options.tls = this.tlsSettings(env);
    const sasl = this.saslSettings(env);
    if (sasl) options.sasl = sasl;
    return options;
  }

  private tlsSettings(env: NodeJS.ProcessEnv): TlsSettings {
    const { caFile, certFile, keyFile, pfxFile } = this.files;
    if (pfxFile && (certFile || keyFile)) throw new UsageError('give --tls-pfx or --tls-cert with --tls-key, not both');
    if (!!certFile !== !!keyFile) throw new UsageError(certFile ? '--tls-cert needs --tls-key' : '--tls-key needs --tls-cert');
    if (!this.checkServerName && !caFile && !this.pins.length) {
      throw new UsageError('--tls-no-server-name-check needs --tls-ca or --tls-pin-sha256: with the system\'s CAs it would accept any public certificate of any host');
    }
    const settings: TlsSettings = { checkServerName: this.checkServerName };
    if (caFile) settings.caFile = caFile;
    if (this.pins.length) settings.pinnedSha256 = [...this.pins];
    if (certFile && keyFile) Object.assign(settings, { certFile, keyFile });
    if (pfxFile) settings.pfxFile = pfxFile;
    const passphrase = nonEmpty(env[TLS_PASSPHRASE_ENV]);
    if (passphrase !== undefined) settings.passphrase = passphrase;
    return settings;
  }

  private saslSettings(env: NodeJS.ProcessEnv): SaslSettings | undefined {
    if (this.kerberos && this.saslUser !== undefined) throw new UsageError('give --sasl-user (DIGEST-MD5) or --kerberos (GSSAPI), not both');
    if (this.kerberos) return { mechanism: 'GSSAPI' };
    if (this.saslUser === undefined) return undefined;
    const password = nonEmpty(env[SASL_PASSWORD_ENV]);
    if (password === undefined) throw new UsageError(`--sasl-user ${this.saslUser} needs the password in ${SASL_PASSWORD_ENV}`);
    return { mechanism: 'DIGEST-MD5', username: this.saslUser, password };
  }
}

/**
 * The warning for a session whose digest password (--digest, ZOOSCOPE_DIGEST) would go in clear text over plain TCP
 * to another machine, as a VS Code connection asks before sending it; undefined when it would not.
 */
export function digestInClearNotice(options: Pick<SessionOptions, 'connectString' | 'digest' | 'tls'>): string | undefined {
  if (!options.digest?.length) return undefined;
  const servers = digestInClearServers(options.connectString, !!options.tls);
  return servers === undefined ? undefined : digestInClearWarning(servers);
}
