// The environment variables secrets come from (the CLI reads them; see src/cli/args.ts, securityArgs.ts, sshArgs.ts).
// Declared here, once, so every process ZooScope starts (ssh, and any ProxyCommand ssh runs) can be given an
// environment without any of them: a child's environment is readable by the user's other processes.
export const SECRET_VARIABLES = {
  /** `user:password` digest credentials. */
  digest: 'ZOOSCOPE_DIGEST',
  /** The password of `--digest <user>`. */
  digestPassword: 'ZOOSCOPE_DIGEST_PASSWORD',
  /** The passphrase of a TLS client key or PKCS#12 file. */
  tlsPassphrase: 'ZOOSCOPE_TLS_PASSPHRASE',
  /** The SASL DIGEST-MD5 password. */
  saslPassword: 'ZOOSCOPE_SASL_PASSWORD',
  /** The SSH key's passphrase or the bastion's password. */
  sshSecret: 'ZOOSCOPE_SSH_SECRET',
} as const;

/** Every name above. */
export const SECRET_VARIABLE_NAMES: readonly string[] = Object.values(SECRET_VARIABLES);

/** `env` without any secret's variable (a copy). */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of SECRET_VARIABLE_NAMES) delete copy[name];
  return copy;
}
