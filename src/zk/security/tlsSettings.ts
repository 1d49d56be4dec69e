// What a session needs for TLS, as the user gives it (file paths, a passphrase), turned into Node's TLS options
// once, up front: a missing file or a wrong PKCS#12 passphrase is a configuration error said in one line before
// any socket opens, not a handshake failure on every retry.
import * as fs from 'node:fs';
import * as tls from 'node:tls';
import { firstLine } from '../errors';
import { normalizeSha256Fingerprint, splitFingerprints } from './certificatePin';

export interface TlsSettings {
  /** PEM file with the CA(s) that signed the servers' certificates; absent: the system's CAs. */
  caFile?: string;
  /** Client certificate (PEM), with `keyFile`. */
  certFile?: string;
  /** The client certificate's private key (PEM, unencrypted or encrypted with `passphrase`). */
  keyFile?: string;
  /** Client certificate and key as PKCS#12 (.p12/.pfx), instead of certFile/keyFile. */
  pfxFile?: string;
  /** For the PKCS#12 file or an encrypted key. Never logged. */
  passphrase?: string;
  /**
   * Check that the server's certificate is valid for the host name connected to (default true). Turning it off needs
   * `caFile` or `pinnedSha256`: with the system's CAs alone, any public certificate of any host would do.
   */
  checkServerName?: boolean;
  /** SHA-256 fingerprints of the servers' own certificates: when given, the server's must be one of them. */
  pinnedSha256?: string[];
  /** Lowest TLS version accepted (default TLSv1.2). */
  minVersion?: 'TLSv1.2' | 'TLSv1.3';
  /** How long the TLS handshake may take once TCP is connected (default 10 s). */
  handshakeTimeoutMs?: number;
}

/** TLS options ready for tls.connect, plus what the session reports about them. */
export interface PreparedTls {
  connectOptions: tls.ConnectionOptions;
  checkServerName: boolean;
  /** Normalized (`AB:CD:…`); empty when nothing is pinned. */
  pinnedSha256: string[];
  hasClientCertificate: boolean;
  handshakeTimeoutMs: number;
}

/** A TLS or SASL setting that cannot work; the message is one line without secrets. */
export class SecurityConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecurityConfigError';
  }
}

export const NAME_CHECK_OFF_NEEDS_TRUST = 'TLS: the server name check can be turned off only with a CA file or a pinned server certificate fingerprint: with the system\'s CAs, any public certificate of any host would be accepted';

function readFile(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new SecurityConfigError(`TLS: cannot read the ${what} ${file} (${code})`);
  }
}

export function prepareTls(settings: TlsSettings): PreparedTls {
  if (settings.pfxFile && (settings.certFile || settings.keyFile)) {
    throw new SecurityConfigError('TLS: give either a PKCS#12 file or a PEM certificate and key, not both');
  }
  if (!!settings.certFile !== !!settings.keyFile) {
    throw new SecurityConfigError(`TLS: a client certificate needs its key and a key needs its certificate (only the ${settings.certFile ? 'certificate' : 'key'} was given)`);
  }
  // Hand-edited settings may hold one string instead of a list.
  const given: unknown = settings.pinnedSha256;
  const pins = typeof given === 'string' ? splitFingerprints(given) : Array.isArray(given) ? given.map(String) : [];
  const pinnedSha256 = pins.map((pin) => {
    const normalized = normalizeSha256Fingerprint(pin);
    if (!normalized) throw new SecurityConfigError(`TLS: ${JSON.stringify(pin.slice(0, 120))} is not a SHA-256 fingerprint (64 hexadecimal digits, colons optional)`);
    return normalized;
  });
  if (settings.checkServerName === false && !settings.caFile && !pinnedSha256.length) {
    throw new SecurityConfigError(NAME_CHECK_OFF_NEEDS_TRUST);
  }
  const options: tls.ConnectionOptions = { minVersion: settings.minVersion ?? 'TLSv1.2', rejectUnauthorized: true };
  if (settings.caFile) options.ca = readFile(settings.caFile, 'CA file');
  if (settings.certFile && settings.keyFile) {
    options.cert = readFile(settings.certFile, 'client certificate');
    options.key = readFile(settings.keyFile, 'client key');
  }
  if (settings.pfxFile) options.pfx = readFile(settings.pfxFile, 'PKCS#12 file');
  if (settings.passphrase !== undefined) options.passphrase = settings.passphrase;
  try {
    // Builds the context once to check the files now (wrong passphrase, a key that does not match).
    tls.createSecureContext(options);
  } catch (error) {
    throw new SecurityConfigError(`TLS: cannot use the ${settings.pfxFile ? 'PKCS#12 file (wrong passphrase, or not PKCS#12?)' : 'certificate, key or CA files'}: ${firstLine(error)}`);
  }
  return {
    connectOptions: options,
    checkServerName: settings.checkServerName ?? true,
    pinnedSha256,
    hasClientCertificate: !!(settings.pfxFile || settings.certFile),
    handshakeTimeoutMs: settings.handshakeTimeoutMs ?? 10000,
  };
}

