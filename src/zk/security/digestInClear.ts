// The digest scheme (addauth, a connection's digest user) sends `user:password` as it is: over plain TCP anyone on
// the network between can read it. One rule for every place a digest password leaves: a VS Code connection asks
// before sending it, the CLI's --digest and the shell's `addauth digest` warn on stderr.
import { isConnectStringProblem, parseConnectString } from '../connectString';

/** Loopback by name or address: what never leaves this machine. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
    || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The servers a digest password would reach in clear text (plain TCP, not this machine), as `host:port` joined by
 * commas; undefined when it would not (over TLS, or only to this machine). A connect string that does not parse
 * counts as elsewhere.
 */
export function digestInClearServers(connectString: string, tls: boolean): string | undefined {
  if (tls) return undefined;
  const parsed = parseConnectString(connectString);
  if (isConnectStringProblem(parsed)) return connectString;
  const remote = parsed.servers.filter((s) => !isLoopback(s.host));
  return remote.length ? remote.map((s) => `${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`).join(',') : undefined;
}

/** The CLI's and the shell's warning (the extension asks the same in the user's language). */
export const digestInClearWarning = (servers: string): string =>
  `warning: the digest password goes to ${servers} in clear text over plain TCP: anyone on the network between can read it `
  + '(--tls encrypts the connection; SASL DIGEST-MD5, --sasl-user, never sends the password itself)';
