// Which client address owns a session, as the servers tell through `cons` (asked of every member: connections are
// per server). Answers are cached briefly so tooltips do not hammer the servers.
import type { ServerAddress } from '../connectString';
import { parseCons } from './fourLetterWords';
import type { PreparedTls } from '../security/tlsSettings';
import type { Dialer } from '../tunnel/dialer';
import { askWord } from './serverCommands';

export class SessionDirectory {
  private cache: { at: number; bySession: Map<string, string> } | undefined;
  private pending: Promise<Map<string, string>> | undefined;

  /** `tls`: the session's, when its servers' client ports are secure ones (the words then go over TLS). */
  /** `dialer`: the session's, when it reaches its servers through an SSH bastion. */
  constructor(private readonly servers: ServerAddress[], private readonly tls?: PreparedTls, private readonly maxAgeMs = 5000, private readonly dialer?: Dialer) {}

  /** The client address (host:port) of a session given as 0x-hex, or undefined if no server tells. */
  async clientAddress(sessionIdHex: string): Promise<string | undefined> {
    return (await this.table()).get(sessionIdHex.toLowerCase());
  }

  private async table(): Promise<Map<string, string>> {
    if (this.cache && Date.now() - this.cache.at < this.maxAgeMs) return this.cache.bySession;
    this.pending ??= this.load().finally(() => { this.pending = undefined; });
    return this.pending;
  }

  private async load(): Promise<Map<string, string>> {
    const bySession = new Map<string, string>();
    const answers = await Promise.allSettled(this.servers.map((s) => askWord(s.host, s.port, 'cons', { timeoutMs: 2000, tls: this.tls, dialer: this.dialer })));
    for (const answer of answers) {
      if (answer.status !== 'fulfilled') continue;
      for (const c of parseCons(answer.value)) if (c.sessionId) bySession.set(c.sessionId, c.client);
    }
    this.cache = { at: Date.now(), bySession };
    return bySession;
  }
}
