// `connect <host>` opens a new session with the options of the shell's own one. Its credentials (digest
// password, SASL password or ticket, TLS client certificate) belong to the servers they were saved for: on another
// host the user is asked first, and a No (or no one to ask) connects without them. TLS itself stays on, with the CA.
import { formatConnectString, isConnectStringProblem, parseConnectString, sameServers } from '../connectString';
import type { SessionOptions } from '../session/session';

/** Asks a yes/no question; false when no one can answer (commands from a pipe or argv). */
export type AskYesNo = (question: string) => Promise<boolean>;

export function hasCredentials(options: SessionOptions): boolean {
  const tls = options.tls;
  return (options.digest?.length ?? 0) > 0 || options.sasl !== undefined || !!(tls?.certFile || tls?.keyFile || tls?.pfxFile);
}

export function withoutCredentials(options: SessionOptions): SessionOptions {
  const tls = options.tls;
  return {
    ...options,
    digest: [],
    sasl: undefined,
    tls: tls && { caFile: tls.caFile, checkServerName: tls.checkServerName, minVersion: tls.minVersion, handshakeTimeoutMs: tls.handshakeTimeoutMs },
  };
}

/** The servers of a connect string as plain text for a question (parsed: no hidden characters remain). */
export function serversText(connectString: string): string {
  const parsed = parseConnectString(connectString);
  return isConnectStringProblem(parsed) ? '' : formatConnectString({ servers: parsed.servers });
}

/**
 * The options for a session to `target`: the shell's own `options` on the servers they were made for
 * (`ownConnectString`); elsewhere, with credentials only if `ask(question(servers))` says yes.
 */
export async function optionsForConnect(
  target: string, ownConnectString: string, options: SessionOptions, ask: AskYesNo, question: (servers: string) => string,
): Promise<SessionOptions> {
  const moved = { ...options, connectString: target };
  if (!hasCredentials(options) || sameServers(target, ownConnectString)) return moved;
  // A connect string the session will refuse anyway: nothing to ask about.
  if (isConnectStringProblem(parseConnectString(target))) return withoutCredentials(moved);
  return await ask(question(serversText(target))) ? moved : withoutCredentials(moved);
}

/** The English question of the CLI (the extension asks in the user's language). */
export const credentialsQuestion = (servers: string): string =>
  `Send this shell's credentials (digest, SASL, client certificate) to ${servers}, which is not the shell's own server? [y/N] `;
