// Four-letter words, asked over a plain socket, and parsers for their answers. Only read-only words are ever
// sent (never crst, srst or stmk).
import * as net from 'node:net';

export const SAFE_WORDS = ['srvr', 'stat', 'mntr', 'cons', 'dump', 'wchc', 'wchp', 'wchs', 'ruok', 'envi', 'conf', 'isro'] as const;
export type SafeWord = (typeof SAFE_WORDS)[number];

export class FourLetterWordRefused extends Error {
  constructor(readonly word: string, readonly server: string) {
    super(`${server} refuses '${word}' (not in 4lw.commands.whitelist)`);
  }
}

export function askFourLetterWord(host: string, port: number, word: SafeWord, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host, port });
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      socket.destroy();
      if (error) return reject(error);
      const text = Buffer.concat(chunks).toString('utf8');
      if (/is not executed because it is not in the whitelist/.test(text)) reject(new FourLetterWordRefused(word, `${host}:${port}`));
      else resolve(text);
    };
    socket.setTimeout(timeoutMs, () => finish(new Error(`${host}:${port} did not answer '${word}' within ${timeoutMs} ms`)));
    socket.on('connect', () => socket.write(word));
    socket.on('data', (c) => chunks.push(c));
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
