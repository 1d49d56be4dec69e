// Holds back the server's answer to the session handshake while SASL authenticates the new connection: the library
// sees its session only after SASL succeeded, so its queued requests, auth packets and watch re-registration are
// written only then. Frames of the exchange belong to it (the server sends nothing else meanwhile).
import type { SaslMechanism } from '../security/saslMechanism';
import { SaslExchange, SaslRejected } from './saslExchange';
import { shortened, visibleText } from '../../shared/visibleText';
import type { LibrarySocket } from './libraryInternals';

/** The longest SASL failure said (characters): mechanisms may quote what the server sent. */
const MAX_SASL_LINE = 300;

/** What the gate needs from its channel. */
export interface SaslGateLink {
  /** The socket in use now; an exchange whose socket is gone is over. */
  readonly socket: LibrarySocket | undefined;
  /** The host name of the server being connected to (Kerberos needs the name). */
  serverHost(): string;
  /** SASL succeeded: the held ConnectResponse may go to the library now. */
  authenticated(mechanism: SaslMechanism, connectResponse: Buffer): void;
  /** Authentication failed for good, with one line saying why. */
  failed(line: string): void;
}

interface Exchange {
  exchange: SaslExchange;
  mechanism: SaslMechanism;
  socket: LibrarySocket | undefined;
  /** The ConnectResponse held back until the exchange succeeds. */
  held: Buffer;
  /** Replies are handled one after the other, each after the previous step (which may be asynchronous). */
  queue: Promise<void>;
}

export class SaslGate {
  /** The exchange of the connection being set up. */
  private current: Exchange | undefined;
  private identityValue: { mechanism: string; identity: string } | undefined;

  /** `mechanismFor`: a fresh mechanism for each connection, for the server's host name. */
  constructor(private readonly link: SaslGateLink, private readonly mechanismFor: (serverHost: string) => SaslMechanism) {}

  /** Who SASL authenticated this connection as (cleared when a connection closes). */
  get identity(): { mechanism: string; identity: string } | undefined {
    return this.identityValue;
  }

  /** Whether frames from `socket` belong to an exchange in progress. */
  holds(socket: LibrarySocket | undefined): boolean {
    return !!this.current && this.current.socket === socket;
  }

  /** The mechanism of the exchange in progress on `socket`, if any (to say which step went unanswered). */
  mechanismOn(socket: LibrarySocket | undefined): string | undefined {
    return this.holds(socket) ? this.current?.mechanism.name : undefined;
  }

  /** A session was granted: holds its ConnectResponse and starts authenticating. */
  begin(connectResponse: Buffer): void {
    const link = this.link;
    const socket = link.socket;
    let mechanism: SaslMechanism;
    try {
      mechanism = this.mechanismFor(link.serverHost());
    } catch (error) {
      return link.failed((error as Error).message);
    }
    const exchange = new SaslExchange(mechanism, (frame) => { if (link.socket === socket) socket?.write(frame); });
    const state: Exchange = { exchange, mechanism, socket, held: Buffer.from(connectResponse), queue: Promise.resolve() };
    this.current = state;
    state.queue = exchange.start().catch((error: unknown) => this.fail(state, error));
  }

  onReply(frame: Buffer): void {
    const state = this.current;
    if (!state) return;
    const copy = Buffer.from(frame);
    state.queue = state.queue.then(async () => {
      if (this.current !== state) return;
      try {
        if (await state.exchange.onReply(copy)) this.succeed(state);
      } catch (error) {
        this.fail(state, error);
      }
    });
  }

  /** The connection closed: its exchange and identity go with it. */
  reset(): void {
    this.current = undefined;
    this.identityValue = undefined;
  }

  private succeed(state: Exchange): void {
    if (this.current !== state || this.link.socket !== state.socket) return;
    this.current = undefined;
    const mechanism = state.mechanism;
    this.identityValue = { mechanism: mechanism.name, identity: mechanism.identity };
    this.link.authenticated(mechanism, state.held);
  }

  private fail(state: Exchange, error: unknown): void {
    if (this.current !== state) return;
    this.current = undefined;
    if (this.link.socket !== state.socket) return;
    const rejected = error instanceof SaslRejected;
    // A mechanism's message may quote the server (a DIGEST-MD5 challenge, a Kerberos error): one short visible line.
    const said = shortened(visibleText((error as Error).message.split('\n')[0]), MAX_SASL_LINE);
    this.link.failed(rejected ? `SASL ${said}` : `SASL failed: ${said}`);
  }
}
