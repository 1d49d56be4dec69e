// The one way the CLI writes anything, so no command can forget what every line needs:
// - Text from ZooKeeper (names, data, server answers) is untrusted: human-readable lines pass through visibleText
//   (invisible, bidi and control characters written out as `[U+202E]`); JSON has the same characters as `\uXXXX`
//   escapes (still valid JSON with the same values: JSON.stringify leaves U+202E, U+200B and C1 controls raw).
// - A reader that goes away must not crash the CLI (`zooscope lock … | head -1`): EPIPE and other write errors are
//   taken here, later lines are dropped, and `onClosed` listeners (the lock command releases its lock) hear it once.
//   A closed pipe shows only when the next line is written; when stdout is a socket (spawned with a pipe by Node,
//   process managers) the reader's end is also checked every OUTPUT_CHECK_MS while a listener waits, so an idle
//   holder notices too.
import * as fs from 'node:fs';
import { hasHiddenCharacters, visibleText } from '../shared/visibleText';

/** How often an idle socket stdout is checked for a reader that went away. */
const OUTPUT_CHECK_MS = 200;

export interface Output {
  /** Human-readable text on stdout, one or more lines (a trailing newline is added when missing). */
  text(text: string): void;
  /** A JSON document on stdout (pretty-printed), hidden characters escaped. */
  json(value: unknown): void;
  /** Human-readable text on stderr. */
  error(text: string): void;
  /**
   * Text exactly as given (no newline added), for a producer that made hidden characters visible itself and needs
   * characters of its own that visibleText would mark (zkCli's usage lines have tabs): `zooscope shell`.
   */
  exact(text: string, stream?: 'stdout' | 'stderr'): void;
  /** Whether stdout's reader has gone away. */
  readonly closed: boolean;
  /** Called once when stdout's reader goes away (at once if it already has). */
  onClosed(listener: () => void): void;
  /** Stops watching stdout; buffered lines are still written. */
  dispose(): void;
}

export interface OutputStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** stdout's file descriptor, to notice a socket reader's close without writing; none for other streams. */
  stdoutFd?: number;
}

/** `\uXXXX` escapes (UTF-16 units, as JSON writes them) of one character. */
function jsonEscape(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** JSON text with every character visibleText would mark written as a `\uXXXX` escape (only inside strings can they occur). */
export function escapeHiddenInJson(json: string): string {
  if (!hasHiddenCharacters(json)) return json;
  // Line by line: a large document with one hostile name costs one scan, not a test per character.
  return json.split('\n').map((line) => {
    if (!hasHiddenCharacters(line)) return line;
    let out = '';
    for (const char of line) out += visibleText(char) !== char ? jsonEscape(char) : char;
    return out;
  }).join('\n');
}

/**
 * Lines of our own making, each made visible on its own: a line break inside a value (a path from an export file)
 * is written out as [U+000A] instead of starting a line of its own. Give the result to `text`.
 */
export function valueLines(lines: readonly string[]): string {
  return lines.map(visibleText).join('\n');
}

/** Each line through visibleText; the newlines between lines are ours and stay. */
export function visibleLines(text: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n').map(visibleText).join('\n') + '\n';
}

function isSocket(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isSocket();
  } catch {
    return false;
  }
}

export function createOutput(streams: OutputStreams = { stdout: process.stdout, stderr: process.stderr, stdoutFd: 1 }): Output {
  let closed = false;
  let stderrClosed = false;
  let checker: NodeJS.Timeout | undefined;
  const listeners: (() => void)[] = [];

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(checker);
    for (const listener of listeners.splice(0)) listener();
  };
  // Any write error on stdout (EPIPE, ECONNRESET, EBADF…) means nobody reads what follows.
  streams.stdout.on('error', close);
  streams.stderr.on('error', () => { stderrClosed = true; });

  const write = (text: string) => {
    if (!closed) streams.stdout.write(text);
  };

  // An empty write to a socket whose peer has closed fails with EPIPE (to a pipe it always succeeds: no use there).
  const watchSocket = () => {
    if (checker || closed || streams.stdoutFd === undefined || !isSocket(streams.stdoutFd)) return;
    const fd = streams.stdoutFd;
    checker = setInterval(() => {
      try {
        fs.writeSync(fd, Buffer.alloc(0));
      } catch {
        close();
      }
    }, OUTPUT_CHECK_MS);
    checker.unref();
  };

  return {
    text: (text) => write(visibleLines(text)),
    json: (value) => write(escapeHiddenInJson(JSON.stringify(value, null, 2)) + '\n'),
    error: (text) => {
      if (!stderrClosed) streams.stderr.write(visibleLines(text));
    },
    exact: (text, stream = 'stdout') => {
      if (stream === 'stdout') write(text);
      else if (!stderrClosed) streams.stderr.write(text);
    },
    get closed() { return closed; },
    onClosed(listener) {
      if (closed) return listener();
      listeners.push(listener);
      watchSocket();
    },
    dispose() {
      clearInterval(checker);
      listeners.length = 0;
    },
  };
}
