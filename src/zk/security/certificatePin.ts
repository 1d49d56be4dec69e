// A pinned server certificate: the SHA-256 fingerprint of the leaf, as `openssl x509 -fingerprint -sha256` prints it.
// It is checked on top of the CA's verdict, so a pin never accepts a certificate the CA would refuse; what it adds is
// that, with the server name check off, only the pinned certificates are accepted, not any the CA ever signed.
import type { PeerCertificate } from 'node:tls';

/** The code of the error a pin mismatch fails the handshake with (a certificate error, like Node's own). */
export const PIN_MISMATCH_CODE = 'CERT_PIN_MISMATCH';

/**
 * `AB:CD:…` in Node's form (upper case, colon-separated) from 64 hex digits with or without colons, with or without
 * openssl's `sha256 Fingerprint=` in front; undefined when the text is not one.
 */
export function normalizeSha256Fingerprint(text: string): string | undefined {
  const hex = text.trim().replace(/^sha-?256\s+fingerprint\s*=\s*/i, '').replace(/:/g, '');
  return /^[0-9a-fA-F]{64}$/.test(hex) ? hex.toUpperCase().replace(/(..)(?!$)/g, '$1:') : undefined;
}

/** Fingerprints given in one text (commas, semicolons or line breaks between them), each as written. */
export function splitFingerprints(text: string): string[] {
  return text.split(/[,;\n]+/).map((part) => part.trim()).filter(Boolean);
}

/** Why `cert` is not one of `pins` (normalized), as an Error Node fails the handshake with; undefined when it is. */
export function pinMismatch(pins: readonly string[], cert: PeerCertificate): Error | undefined {
  if (!pins.length || pins.includes(cert.fingerprint256)) return undefined;
  const error = new Error(`its certificate's SHA-256 fingerprint is ${cert.fingerprint256 || 'unknown'}, not the pinned ${pins.join(' or ')}`) as Error & { code: string };
  error.code = PIN_MISMATCH_CODE;
  return error;
}
