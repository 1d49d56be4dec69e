// Four-letter words: the socket that asks one and reads its whole answer (plain, or TLS on a secure client port),
// and the parser of `cons`. Which words may be sent is decided in servers/serverCommands.ts (read-only ones only).
import { connectTls } from '../security/secureTransport';
import type { PreparedTls } from '../security/tlsSettings';
import { directDialer, Dialer } from '../tunnel/dialer';

/**
 * Most bytes read for one answer (four-letter word or AdminServer command). `dump`, `wchp` or `cons` of a server
 * with 100k watched nodes or ephemerals is a few MB; a peer that sends more is broken or hostile, and reading on
 * would only grow memory.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface WordReadOptions {
  /** The whole answer must have arrived (the server closes) within this long, however it trickles in. */
  timeoutMs: number;
  maxBytes?: number;
  signal?: AbortSignal;
  /** The session's TLS settings: the client port is a secure one, so the word is asked over TLS, verified alike. */
  tls?: PreparedTls;
  /** The session's SSH bastion, when it has one (TLS, if any, goes on top of the tunnel). */
  dialer?: Dialer;
}

function cancelled(): Error {
  const error = new Error('cancelled');
  error.name = 'AbortError';
  return error;
}

/**
 * Sends `word` and reads until the server closes. Bounded both ways: a total deadline (not an idle one, which a
 * peer sending a byte now and then would never reach) and a size limit; either ends with one clear error.
 */
export function readWordAnswer(host: string, port: number, word: string, options: WordReadOptions): Promise<Buffer> {
  const server = `${host}:${port}`;
  const maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
  const chunks: Buffer[] = [];
  let received = 0;
  return streamWordAnswer(host, port, word, options, (chunk) => {
    received += chunk.length;
    if (received > maxBytes) throw new Error(`${server} answered '${word}' with more than ${maxBytes} bytes; stopped reading`);
    chunks.push(chunk);
  }).then(() => Buffer.concat(chunks, received));
}

/**
 * Sends `word` and hands each chunk of the answer to `onChunk` as it arrives, keeping none: for answers too large to
 * hold (a big server's watch listing). Resolves when the server closes; the same total deadline as readWordAnswer,
 * no size limit (the consumer bounds what it keeps). An error thrown by `onChunk` ends the reading with that error.
 */
export function streamWordAnswer(host: string, port: number, word: string, options: Omit<WordReadOptions, 'maxBytes'>, onChunk: (chunk: Buffer) => void): Promise<void> {
  const server = `${host}:${port}`;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(cancelled());
    let received = 0;
    let done = false;
    const socket = options.tls ? connectTls(options.tls, host, port, options.dialer) : (options.dialer ?? directDialer).dial(host, port);
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => finish(cancelled());
    const timer = setTimeout(() => finish(new Error(received
      ? `${server} did not finish answering '${word}' within ${options.timeoutMs} ms (${received} bytes so far)`
      : `${server} did not answer '${word}' within ${options.timeoutMs} ms`)), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // A TLS socket's 'connect' comes before its handshake: the word goes out once the connection is verified.
    socket.on(options.tls ? 'secureConnect' : 'connect', () => socket.write(word));
    socket.on('data', (chunk: Buffer) => {
      if (done) return;
      received += chunk.length;
      try {
        onChunk(chunk);
      } catch (error) {
        finish(error as Error);
      }
    });
    socket.on('end', () => finish());
    socket.on('error', (e) => finish(e));
  });
}

export interface ConnectionInfo {
  /** Client address as the server sees it, e.g. `127.0.0.1:35158`. */
  client: string;
  /** Session id as 0x-hex, exactly as the server prints it. */
  sessionId?: string;
  fields: Record<string, string>;
}

/** Parses `cons`: one line per connection, `/127.0.0.1:35158[1](queued=0,...,sid=0x10000...,...)`. */
export function parseCons(text: string): ConnectionInfo[] {
  const result: ConnectionInfo[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\/?([^[\s]+)\[\d+\]\((.*)\)\s*$/.exec(line);
    if (!m) continue;
    const fields: Record<string, string> = {};
    for (const pair of m[2].split(',')) {
      const eq = pair.indexOf('=');
      if (eq > 0) fields[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    result.push({ client: m[1], sessionId: fields.sid?.toLowerCase(), fields });
  }
  return result;
}
