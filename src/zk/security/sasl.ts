// SASL mechanisms a session can authenticate with, behind one small interface the channel drives: it sends
// `initial()`, then feeds each server token to `step()` until the server says it is done.
import { DigestMd5Client } from './digestMd5';
import { createGssapiMechanism } from './kerberos';
import type { SaslMechanism } from './saslMechanism';

export type { SaslMechanism } from './saslMechanism';

export type SaslSettings =
  | { mechanism: 'DIGEST-MD5'; username: string; password: string }
  /**
   * Kerberos through the optional native module `kerberos`. `principal` is informational (the ticket cache or
   * KRB5_CLIENT_KTNAME decides who we are); `serviceName`/`serviceHost` name ZooKeeper's principal
   * (default zookeeper/<the server's host>).
   */
  | { mechanism: 'GSSAPI'; principal?: string; serviceName?: string; serviceHost?: string };

/** A fresh mechanism per connection: ZooKeeper binds the SASL identity to the connection, not the session. */
export function createSaslMechanism(settings: SaslSettings, serverHost: string): SaslMechanism {
  if (settings.mechanism === 'GSSAPI') return createGssapiMechanism(settings, serverHost);
  return new DigestMd5Mechanism(settings.username, settings.password);
}

class DigestMd5Mechanism implements SaslMechanism {
  readonly name = 'DIGEST-MD5';
  private readonly client: DigestMd5Client;
  private answered = false;

  constructor(readonly identity: string, password: string) {
    this.client = new DigestMd5Client(identity, password);
  }

  initial(): Promise<Buffer> {
    return Promise.resolve(Buffer.alloc(0));
  }

  step(serverToken: Buffer): Promise<Buffer | undefined> {
    try {
      const text = serverToken.toString('utf8');
      if (!this.answered) {
        this.answered = true;
        return Promise.resolve(Buffer.from(this.client.respond(text), 'utf8'));
      }
      this.client.verify(text);
      return Promise.resolve(undefined);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
