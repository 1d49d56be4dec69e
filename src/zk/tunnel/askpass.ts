// The SSH_ASKPASS route of a passphrase or password. ssh runs the helper with its prompt; the helper asks this
// process over a socket in a folder only the user can open, naming the ssh that runs it (its parent). The secret is
// given only to an ssh this process started with that secret, and only for the prompt of its kind: a password to a
// password prompt, a key's passphrase to the passphrase prompt of that key file. Never to a jump host's or
// ProxyCommand's ssh (children of the tunnel's ssh, so their pid is not one of ours), never as the answer to a host
// key question or a bastion's other questions. It is never in a file, an argv or ssh's environment.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { privateNodeScript } from './nodeScript';
import type { SshSecretKind } from './sshSettings';

/** The variable naming the socket the helper asks (not a secret). */
const SOCKET_ENV = 'ZOOSCOPE_ASKPASS_SOCKET';
/** A question is one short line; anything longer is not from the helper. */
const MAX_QUESTION = 8192;

/** A secret and what it may answer. */
export interface AllowedSecret {
  secret: string;
  kind: SshSecretKind;
  /** The key file a passphrase belongs to, as the settings name it; undefined: the key ssh's config names. */
  keyFile?: string;
}

/** OpenSSH's passphrase prompt (`sshconnect2.c`: the file name cut at 100 characters). */
const PASSPHRASE_PROMPT = /^Enter passphrase for key '(.*)': ?$/s;

/** The names ssh may print for `file`: as given, and with `~/` expanded as ssh does; each cut as ssh cuts it. */
function keyFileNames(file: string): string[] {
  const expanded = file === '~' || file.startsWith('~/') ? path.join(os.homedir(), file.slice(1)) : file;
  return [file, expanded].map((name) => name.slice(0, 100));
}

/**
 * Whether `prompt` asks for the secret `allowed` is: a password (ssh's `user@host's password:` or a keyboard-interactive
 * `Password:`), or the passphrase of its key file. Never a yes/no question, and never one kind for the other: a
 * bastion that refuses the key and asks "Password:" does not get the passphrase.
 */
export function answersPrompt(allowed: Pick<AllowedSecret, 'kind' | 'keyFile'>, prompt: string): boolean {
  const passphraseFor = PASSPHRASE_PROMPT.exec(prompt)?.[1];
  if (allowed.kind === 'password') return passphraseFor === undefined && /password: ?$/i.test(prompt);
  if (passphraseFor === undefined) return false;
  return allowed.keyFile === undefined || keyFileNames(allowed.keyFile).includes(passphraseFor);
}

// Run by the program running this process (node, or VS Code's with ELECTRON_RUN_AS_NODE): `process.ppid` is the ssh.
const CLIENT = `const net = require('net');
let reply = '';
const socket = net.connect(process.env.${SOCKET_ENV});
socket.setEncoding('utf8');
socket.on('connect', () => socket.end(JSON.stringify({ pid: process.ppid, prompt: process.argv[2] || '' }) + '\\n'));
socket.on('data', (text) => { reply += text; });
socket.on('error', () => process.exit(1));
socket.on('close', () => { if (reply === '') process.exit(1); process.stdout.write(reply); });
`;

interface Route {
  dir: string;
  server: net.Server;
  env: Record<string, string>;
}

const secrets = new Map<number, AllowedSecret>();
let route: Route | undefined;

function answer(connection: net.Socket): void {
  let question = '';
  connection.setEncoding('utf8');
  connection.on('error', () => undefined);
  connection.on('data', (text: string) => {
    question += text;
    if (question.length > MAX_QUESTION) connection.destroy();
  });
  connection.on('end', () => {
    let asked: { pid?: unknown; prompt?: unknown } = {};
    try { asked = JSON.parse(question) as typeof asked; } catch { /* not the helper: no answer */ }
    const allowed = typeof asked.pid === 'number' ? secrets.get(asked.pid) : undefined;
    connection.end(allowed !== undefined && typeof asked.prompt === 'string' && answersPrompt(allowed, asked.prompt) ? `${allowed.secret}\n` : '');
  });
}

function start(): Route {
  // Its stdout is the answer.
  const { dir, launcher: helper } = privateNodeScript('zooscope-askpass-', 'askpass', CLIENT);
  const socketPath = path.join(dir, 's');
  const server = net.createServer(answer);
  // A socket file binds at once, before any ssh could run the helper.
  server.listen(socketPath);
  server.unref();
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return { dir, server, env: { SSH_ASKPASS: helper, SSH_ASKPASS_REQUIRE: 'force', [SOCKET_ENV]: socketPath } };
}

/** What ssh's environment needs to ask for a secret (no secret in it). */
export function askpassEnv(): Record<string, string> {
  if (!route || !fs.existsSync(route.dir)) {
    route?.server.close();
    route = start();
  }
  return route.env;
}

/** Lets the ssh with `pid` (one this process started) have the secret for its prompt; the returned function takes it back. */
export function allowSecret(pid: number, allowed: AllowedSecret): () => void {
  secrets.set(pid, allowed);
  return () => {
    if (secrets.get(pid) === allowed) secrets.delete(pid);
  };
}
