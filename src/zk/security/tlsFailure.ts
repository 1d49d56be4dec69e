// Turns what Node's TLS stack says into one line a user can act on. The codes are the ones seen against
// ZooKeeper 3.8's Netty server (see the notes in the issue): alerts carry the server's opinion of our certificate,
// verification codes carry ours of the server's.
import { PIN_MISMATCH_CODE } from './certificatePin';

export type TlsFailureKind =
  | 'unknownCa' | 'noClientCertificate' | 'clientCertificateRejected' | 'hostNameMismatch'
  | 'tlsToPlainPort' | 'plainToTlsPort' | 'handshakeTimeout' | 'handshakeFailed' | 'pinMismatch';

const firstLineOf = (text: string | undefined) => (text ?? '').split('\n')[0];

const UNKNOWN_CA_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE',
]);
/** Alerts a server sends about our certificate (42 bad_certificate, 46 certificate_unknown, 48 unknown_ca, 116 certificate_required). */
const CLIENT_CERT_ALERTS = /ALERT_(BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|UNKNOWN_CA|CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE)$/;

/** Failures no retry can heal: the certificates or the port are wrong, not the moment. */
export function isFinalTlsFailure(kind: TlsFailureKind): boolean {
  return kind !== 'handshakeFailed' && kind !== 'handshakeTimeout';
}

export interface TlsFailure {
  kind: TlsFailureKind;
  line: string;
}

/** Classifies a socket error seen on a TLS connection to `server` (host:port), or undefined if it is no TLS matter. */
export function classifyTlsError(
  error: { code?: string; message?: string },
  server: string,
  context: { hasClientCertificate: boolean; secured: boolean },
): TlsFailure | undefined {
  const code = error.code ?? '';
  if (UNKNOWN_CA_CODES.has(code)) {
    return { kind: 'unknownCa', line: `TLS with ${server} failed: its certificate is signed by an unknown CA (${code}); give the CA that signed it` };
  }
  if (code === PIN_MISMATCH_CODE) {
    return { kind: 'pinMismatch', line: `TLS with ${server} failed: ${firstLineOf(error.message)} (${code})` };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const host = server.slice(0, server.lastIndexOf(':'));
    return { kind: 'hostNameMismatch', line: `TLS with ${server} failed: its certificate is not valid for the name ${host} (${code}); connect by a name the certificate lists, or turn off the server name check if you trust this server` };
  }
  if (CLIENT_CERT_ALERTS.test(code)) {
    return context.hasClientCertificate
      ? { kind: 'clientCertificateRejected', line: `TLS with ${server} failed: the server rejected our client certificate (${code}); it must be signed by a CA the server trusts` }
      : { kind: 'noClientCertificate', line: `TLS with ${server} failed: the server requires a client certificate and none was given (${code})` };
  }
  if (!context.secured && (code === 'ECONNRESET' || /before secure TLS connection/.test(error.message ?? ''))) {
    // Whether the port is plain is checked separately (tlsToPlainPort); this is what we know without asking.
    return { kind: 'handshakeFailed', line: `TLS with ${server} failed: the server closed the connection during the handshake (${code || 'closed'}); is it a plain port, or a server with no TLS version or cipher in common?` };
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || /CERT/.test(code)) {
    return { kind: 'handshakeFailed', line: `TLS with ${server} failed: ${code}: ${(error.message ?? '').split('\n')[0]}` };
  }
  return undefined;
}

export function tlsToPlainPortLine(server: string): TlsFailure {
  return { kind: 'tlsToPlainPort', line: `TLS with ${server} failed: it is a plain (non-TLS) ZooKeeper port; connect without TLS or use the server's secure port` };
}

export function plainToTlsPortLine(server: string): TlsFailure {
  return { kind: 'plainToTlsPort', line: `${server} is a TLS port: the server closes plain connections; connect with TLS` };
}

export function handshakeTimeoutLine(server: string, ms: number): TlsFailure {
  return { kind: 'handshakeTimeout', line: `TLS with ${server} failed: no handshake within ${ms} ms` };
}
