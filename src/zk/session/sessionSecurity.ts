// What a session shows about its security: the TLS facts of its connection and whom SASL authenticated.
import type { RawChannel } from '../protocol/rawChannel';
import type { TlsConnectionInfo } from '../security/secureTransport';

export interface SessionSecurity {
  /** Present when the session connects with TLS and is connected. */
  tls?: TlsConnectionInfo;
  /** Present once SASL authenticated the connection in use; `identity` is the ACL id (`sasl:<identity>`). */
  sasl?: { mechanism: string; identity: string };
}

export function securityOfChannel(channel: RawChannel, connected: boolean): SessionSecurity {
  if (!connected) return {};
  return { tls: channel.tlsInfo, sasl: channel.saslIdentity };
}
