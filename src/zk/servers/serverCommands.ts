// Asking a ZooKeeper server about itself: four-letter words on the client port (over TLS when the session's port
// is a secure one) and AdminServer commands over HTTP or HTTPS. Only commands that read are ever sent. The
// allow-lists are checked at run time, so no caller (and no cast) can
// send crst, srst, stmk or their AdminServer twins, which reset or change server state.
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { MAX_ANSWER_BYTES, readWordAnswer, streamWordAnswer } from './fourLetterWords';
import { connectTls, tlsSocketOptions } from '../security/secureTransport';
import type { Dialer } from '../tunnel/dialer';
import { SshTunnelError } from '../tunnel/sshFailure';
import type { PreparedTls } from '../security/tlsSettings';
import { firstLine } from '../errors';
import { ExactJson, isJsonObject, parseExactJson } from './exactJson';

export const READ_ONLY_WORDS: ReadonlySet<string> = new Set(['srvr', 'stat', 'mntr', 'cons', 'dump', 'wchc', 'wchp', 'wchs', 'ruok', 'envi', 'conf', 'isro']);
export const READ_ONLY_ADMIN_COMMANDS: ReadonlySet<string> = new Set([
  'connections', 'watches', 'watches_by_path', 'watch_summary', 'dump', 'monitor', 'server_stats', 'ruok',
  'configuration', 'environment', 'is_read_only', 'voting_view', 'leader', 'stat',
]);

export class UnsafeCommandError extends Error {
  constructor(readonly command: string) {
    super(`refusing to send '${command}': not a read-only server command`);
    this.name = 'UnsafeCommandError';
  }
}

/** How a member answers a word its `4lw.commands.whitelist` leaves out. */
const REFUSED = /is not executed because it is not in the whitelist/;

export class WordRefusedError extends Error {
  constructor(readonly word: string, readonly server: string) {
    super(`${server} refuses '${word}' (not in 4lw.commands.whitelist)`);
    this.name = 'WordRefusedError';
  }
}

export class AdminUnavailableError extends Error {
  /** `transportFailed`: the connection itself failed (not a deadline, a status or a bad answer). */
  constructor(readonly server: string, readonly detail: string, readonly transportFailed = false) {
    super(`AdminServer ${server}: ${detail}`);
    this.name = 'AdminUnavailableError';
  }
}

export interface AskOptions {
  /** The whole answer must have arrived within this long (default 3 s). */
  timeoutMs?: number;
  /** Most bytes read for one answer (default MAX_ANSWER_BYTES); more ends the call with an error. */
  maxBytes?: number;
  signal?: AbortSignal;
  /**
   * The session's TLS settings, when it uses TLS: four-letter words then go over TLS (the client port is the
   * secure one), and the AdminServer is asked over HTTPS only, with the same CA and client certificate.
   */
  tls?: PreparedTls;
  /** The session's SSH bastion, when it has one: every word and AdminServer command goes through it. */
  dialer?: Dialer;
}

/** An AdminServer answer and whether it came over HTTPS. */
export interface AdminAnswer {
  json: { [key: string]: ExactJson };
  https: boolean;
}

function abortedError(): Error {
  const error = new Error('cancelled');
  error.name = 'AbortError';
  return error;
}

/**
 * Sends one read-only four-letter word and returns the whole answer; a refused word rejects with WordRefusedError.
 * The answer must arrive whole within `timeoutMs` and `maxBytes` (see readWordAnswer).
 */
export async function askWord(host: string, port: number, word: string, options: AskOptions = {}): Promise<string> {
  if (!READ_ONLY_WORDS.has(word)) throw new UnsafeCommandError(word);
  const answer = await readWordAnswer(host, port, word, { timeoutMs: options.timeoutMs ?? 3000, maxBytes: options.maxBytes, signal: options.signal, tls: options.tls, dialer: options.dialer });
  const text = answer.toString('utf8');
  if (REFUSED.test(text)) throw new WordRefusedError(word, `${host}:${port}`);
  return text;
}

/** Longest line askWordLines takes (a znode path is at most jute.maxbuffer, 1 MiB by default, plus a tab). */
const MAX_LINE_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Sends one read-only four-letter word and hands its answer to `onLine` line by line as it arrives, holding no more
 * than one line: for answers too large to keep whole (`wchp` of a server with a million watches). Each line is a
 * string of its own (never a slice of a larger one, which would keep that alive). A refused word rejects with
 * WordRefusedError; the deadline covers the whole answer.
 */
export async function askWordLines(host: string, port: number, word: string, options: Omit<AskOptions, 'maxBytes'>, onLine: (line: string) => void): Promise<void> {
  if (!READ_ONLY_WORDS.has(word)) throw new UnsafeCommandError(word);
  let partial: Buffer | undefined;
  let first = true;
  const take = (line: string) => {
    if (first) {
      first = false;
      if (REFUSED.test(line)) throw new WordRefusedError(word, `${host}:${port}`);
    }
    onLine(line);
  };
  const feed = (chunk: Buffer) => {
    let start = 0;
    // UTF-8 never has the byte 0x0a inside a character: lines are cut on bytes and decoded whole.
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      take(partial ? Buffer.concat([partial, chunk.subarray(start, end)]).toString('utf8') : chunk.toString('utf8', start, end));
      partial = undefined;
      start = end + 1;
    }
    if (start < chunk.length) partial = partial ? Buffer.concat([partial, chunk.subarray(start)]) : Buffer.from(chunk.subarray(start));
    if (partial && partial.length > MAX_LINE_BYTES) throw new Error(`${host}:${port} answered '${word}' with a line longer than ${MAX_LINE_BYTES} bytes; stopped reading`);
  };
  await streamWordAnswer(host, port, word, { timeoutMs: options.timeoutMs ?? 3000, signal: options.signal, tls: options.tls, dialer: options.dialer }, feed);
  if (partial) take(partial.toString('utf8'));
}

/**
 * Runs one read-only AdminServer command. A TLS session asks over HTTPS only: a plain-HTTP retry would let someone
 * in the middle reset the TLS connection and answer with forged tables (issue 24). Without TLS, HTTP first and HTTPS
 * when HTTP fails at the connection (an HTTPS-only AdminServer); that retry only adds encryption, so it cannot
 * downgrade anything. Deadlines, refusals and bad answers are not retried.
 */
export async function askAdminEither(host: string, adminPort: number, command: string, options: AskOptions = {}): Promise<AdminAnswer> {
  const first = !!options.tls;
  try {
    return { json: await askAdmin(host, adminPort, command, { ...options, https: first }), https: first };
  } catch (error) {
    if (options.tls || !(error instanceof AdminUnavailableError) || !error.transportFailed || options.signal?.aborted) throw error;
    try {
      return { json: await askAdmin(host, adminPort, command, { ...options, https: !first }), https: !first };
    } catch (second) {
      // Say both: the first scheme's failure is usually the telling one.
      throw second instanceof AdminUnavailableError ? new AdminUnavailableError(`${host}:${adminPort}`, `${error.detail}; over ${first ? 'HTTP' : 'HTTPS'}: ${second.detail}`, second.transportFailed) : second;
    }
  }
}

/**
 * Runs one read-only AdminServer command (`GET /commands/<name>`) and returns its JSON, 64-bit ids exact. With
 * `https`, verified with the session's TLS settings (or the system's CAs when the session has none).
 */
export function askAdmin(host: string, adminPort: number, command: string, options: AskOptions & { https?: boolean } = {}): Promise<{ [key: string]: ExactJson }> {
  if (!READ_ONLY_ADMIN_COMMANDS.has(command)) return Promise.reject(new UnsafeCommandError(command));
  const server = `${host}:${adminPort}`;
  const timeoutMs = options.timeoutMs ?? 3000;
  const maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(abortedError());
    let done = false;
    const finish = (error: Error | undefined, value?: { [key: string]: ExactJson }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      request.destroy();
      if (error) reject(error);
      else resolve(value as { [key: string]: ExactJson });
    };
    const onAbort = () => finish(abortedError());
    const target = { path: `/commands/${command}`, agent: false, headers: { accept: 'application/json' } } as const;
    const onResponse = (response: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const tooLarge = () => finish(new AdminUnavailableError(server, `answer to '${command}' larger than ${maxBytes} bytes; stopped reading`));
      if (Number(response.headers['content-length']) > maxBytes) return tooLarge();
      response.on('data', (c: Buffer) => {
        received += c.length;
        if (received > maxBytes) return tooLarge();
        chunks.push(c);
      });
      response.on('error', (e) => finish(e));
      response.on('end', () => {
        if (response.statusCode !== 200) return finish(new AdminUnavailableError(server, `HTTP ${response.statusCode ?? '?'}`));
        try {
          const json = parseExactJson(Buffer.concat(chunks).toString('utf8'));
          if (!isJsonObject(json)) return finish(new AdminUnavailableError(server, 'answer is not a JSON object'));
          if (typeof json.error === 'string' && json.error) return finish(new AdminUnavailableError(server, json.error));
          finish(undefined, json);
        } catch (error) {
          finish(new AdminUnavailableError(server, `not AdminServer JSON (${(error as Error).message})`));
        }
      });
    };
    const tunnel = options.dialer?.via ? options.dialer : undefined;
    const request = tunnel
      ? (options.https ? https : http).get({ host, port: adminPort, ...target, agent: undefined, createConnection: tunnelConnection(tunnel, host, adminPort, options) }, onResponse)
      : options.https
        ? https.get({ ...(options.tls ? tlsSocketOptions(options.tls, host, adminPort) : { host, port: adminPort }), ...target }, onResponse)
        : http.get({ host, port: adminPort, ...target }, onResponse);
    const timer = setTimeout(() => finish(new AdminUnavailableError(server, `no answer within ${timeoutMs} ms`)), timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (e: NodeJS.ErrnoException) => {
      // Refused or unreachable is the same over either scheme; anything else at the connection may be the wrong one.
      const transportFailed = !(e instanceof SshTunnelError) && e.code !== 'ECONNREFUSED' && e.code !== 'EHOSTUNREACH' && e.code !== 'ENOTFOUND';
      const detail = options.https ? (isCertificateError(e) ? `HTTPS certificate error: ${firstLine(e)}` : `HTTPS: ${firstLine(e)}`)
        : e.code?.startsWith('HPE_') ? `the answer over HTTP is not HTTP (${e.code}; an HTTPS-only AdminServer?)` : (e.code ?? e.message);
      finish(new AdminUnavailableError(server, detail, transportFailed));
    });
  });
}

/**
 * The AdminServer's connection through the bastion; over HTTPS, TLS on top of the tunnel verifies the member (with
 * the session's settings, or the system's CAs when it has none).
 */
function tunnelConnection(dialer: Dialer, host: string, port: number, options: AskOptions & { https?: boolean }): NonNullable<http.RequestOptions['createConnection']> {
  const open = (): Duplex => {
    if (!options.https) return dialer.dial(host, port);
    return options.tls ? connectTls(options.tls, host, port, dialer)
      : tls.connect({ host, port, servername: isIP(host) ? undefined : host, socket: dialer.dial(host, port) });
  };
  return open as unknown as NonNullable<http.RequestOptions['createConnection']>;
}

/** Node's codes for a peer certificate that does not verify (chain, dates, name). */
function isCertificateError(e: NodeJS.ErrnoException): boolean {
  const code = e.code ?? '';
  return /CERT|SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY|DECRYPT)|ERR_TLS_CERT_ALTNAME_INVALID/.test(code);
}

/** `mntr` as key → value (`zk_` prefix dropped, so the keys match the AdminServer's `monitor`). */
export function parseMntr(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) result[line.slice(0, tab).replace(/^zk_/, '')] = line.slice(tab + 1).trim();
  }
  return result;
}

/** `wchc`: a session line (`0x…`) followed by tab-indented watched paths. */
export function parseWchc(text: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const session = /^(0x[0-9a-f]+)\s*$/i.exec(line);
    if (session) {
      current = [];
      result.set(session[1].toLowerCase(), current);
    } else if (current && /^\t\//.test(line)) {
      current.push(line.slice(1).trimEnd());
    }
  }
  return result;
}

export interface DumpTables {
  /** Sessions the server's session tracker knows (leader or standalone only), with their expiry time when told. */
  trackedSessions?: Map<string, number | undefined>;
  ephemeralsBySession: Map<string, string[]>;
}

/** `dump` (four-letter word): session sets with expiry times, then ephemeral nodes per session. */
export function parseDumpText(text: string): DumpTables {
  const ephemeralsBySession = new Map<string, string[]>();
  let tracked: Map<string, number | undefined> | undefined;
  let section: 'sessions' | 'ephemerals' | 'other' = 'other';
  let expiry: number | undefined;
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (/^Session Sets/.test(line)) { section = 'sessions'; tracked = new Map(); continue; }
    if (/^Sessions with Ephemerals/.test(line)) { section = 'ephemerals'; continue; }
    if (/^(ephemeral nodes dump|Connections dump|Connections Sets)/.test(line)) { section = 'other'; continue; }
    if (section === 'sessions') {
      const at = /expire at (.+):\s*$/.exec(line);
      if (at) { const t = Date.parse(at[1]); expiry = Number.isNaN(t) ? undefined : t; continue; }
      const sid = /^\t(0x[0-9a-f]+)\s*$/i.exec(line);
      if (sid) tracked?.set(sid[1].toLowerCase(), expiry);
    } else if (section === 'ephemerals') {
      const owner = /^(0x[0-9a-f]+):\s*$/i.exec(line);
      if (owner) { current = []; ephemeralsBySession.set(owner[1].toLowerCase(), current); continue; }
      if (current && /^\t\//.test(line)) current.push(line.slice(1).trimEnd());
    }
  }
  return { trackedSessions: tracked, ephemeralsBySession };
}
