// The interactive loop of the shell, on any pair of terminal streams: the CLI runs it on its own tty
// (src/cli/commands/shell/interactive.ts), the VS Code extension on a pseudoterminal's input and output. zkCli's prompt
// (`[zk: host(CONNECTED) 3] `), arrow-key history kept per connect string in ~/.cache/zooscope/shell-history/, Tab
// completion of commands, flags and znode paths (children read from the server as you type), and Ctrl-C abandons
// the running command without leaving: the prompt comes back at once and the command's late answer prints nothing
// (its request still completes on the server); Ctrl-C on an empty prompt or Ctrl-D leaves. The history file never
// keeps an `addauth` line with its credentials; a yes/no question of a command (`connect`) is answered on the prompt.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { PassThrough } from 'node:stream';
import { completeLine } from './completion';
import type { ZkShell } from './executor';
import { tokenizeLine } from './tokenize';

const HISTORY_LIMIT = 500;

export function historyFile(connectString: string): string {
  const name = connectString.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
  return path.join(os.homedir(), '.cache', 'zooscope', 'shell-history', name);
}

/** `addauth scheme auth`: the auth is a secret in any scheme (digest's user:password, a custom scheme's token). */
export function holdsCredentials(line: string): boolean {
  const words = tokenizeLine(line);
  return words[0] === 'addauth' && words.length > 2;
}

function loadHistory(file: string): string[] {
  try {
    // readline wants the newest first.
    return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !holdsCredentials(l)).reverse().slice(0, HISTORY_LIMIT);
  } catch {
    return [];
  }
}

function saveHistory(file: string, history: readonly string[]): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, history.filter((l) => !holdsCredentials(l)).reverse().join('\n') + '\n', { mode: 0o600 });
  } catch {
    // History is a convenience: a read-only home must not stop the shell.
  }
}

export interface InteractiveTerminal {
  /** Keystrokes (raw terminal input: escape sequences for arrows, \x03 for Ctrl-C, \t for Tab). */
  input: NodeJS.ReadableStream;
  /** Where readline draws the prompt and the line being edited. */
  output: NodeJS.WritableStream;
  /** Our own lines (the welcome, `^C`), exactly as given. */
  write(text: string): void;
  /** Where the arrow-key history is kept; the connect string's file in ~/.cache when undefined. */
  historyFile?: string;
  /** Text put on the first prompt's line, the cursor before it (a node's path: type the command in front of it). */
  initialLine?: string;
  /** A line under the welcome (what the VS Code terminal says about the node it was opened on). */
  greeting?: string;
}

/**
 * Keystrokes on their way to readline, held back while a Tab completion waits for the server: readline inserts a
 * Tab that arrives during a pending completion as a literal tab and drops the completion (a quick Tab Tab, or keys
 * pasted or typed ahead, showed nothing). Keys after a Tab go on once its completion has answered.
 */
class KeyGate {
  readonly keys = new PassThrough();
  private completing: Promise<void> | undefined;
  private queue = Promise.resolve();
  private readonly onData = (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.queue = this.queue.then(() => this.feed(text));
  };
  private readonly onEnd = () => { void this.queue.then(() => this.keys.end()); };

  constructor(private readonly input: NodeJS.ReadableStream) {
    input.on('data', this.onData);
    input.on('end', this.onEnd);
    input.resume();
  }

  /** Wraps a completion: keys wait until it has answered. */
  completion<T>(work: Promise<T>): Promise<T> {
    const done = work.then(() => undefined, () => undefined);
    this.completing = done;
    void done.then(() => { if (this.completing === done) this.completing = undefined; });
    return work;
  }

  private async feed(text: string): Promise<void> {
    for (const piece of text.split(/(?<=\t)/)) {
      this.keys.write(piece);
      if (!piece.endsWith('\t')) continue;
      // readline reads the Tab (and starts its completer) once the stream hands it over.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.completing) await this.completing;
    }
  }

  dispose(): void {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.pause();
  }
}

/** Runs prompts until `quit`, Ctrl-D or Ctrl-C on an empty line; resolves with zkCli's exit code. */
export async function runInteractive(shell: ZkShell, terminal: InteractiveTerminal): Promise<number> {
  const file = terminal.historyFile ?? historyFile(shell.connectString);
  // readline puts a tty it reads into raw mode; it reads the gate, so the tty is put in raw mode here.
  const tty = terminal.input as NodeJS.ReadStream;
  const raw = tty.isTTY && typeof tty.setRawMode === 'function';
  if (raw) tty.setRawMode(true);
  const gate = new KeyGate(terminal.input);
  const rl = readline.createInterface({
    input: gate.keys,
    output: terminal.output,
    terminal: true,
    history: loadHistory(file),
    historySize: HISTORY_LIMIT,
    removeHistoryDuplicates: true,
    completer: (line: string, callback: (error: null, result: [string[], string]) => void) => {
      gate.completion(completeLine(line, shell.session)).then((result) => callback(null, result), () => callback(null, [[], line]));
    },
  });
  let cancelRunning: (() => void) | undefined;
  let closed = false;
  rl.on('SIGINT', () => {
    if (cancelRunning) return cancelRunning();
    if (rl.line.length > 0) {
      terminal.write('^C\n');
      rl.write(null, { ctrl: true, name: 'u' });
      rl.prompt();
    } else {
      rl.close();
    }
  });
  // Lines are queued, not asked for one question at a time: a line typed (or pasted) while a command still runs
  // would reach readline between two questions and be lost.
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  rl.on('line', (line: string) => { lines.push(line); wake?.(); });
  rl.on('close', () => { closed = true; wake?.(); });
  const nextLine = async (): Promise<string | undefined> => {
    while (lines.length === 0 && !closed) await new Promise<void>((resolve) => { wake = resolve; });
    wake = undefined;
    return lines.shift();
  };
  const readlineHistory = () => (rl as unknown as { history: string[] }).history ?? [];
  shell.readAnswer = async (question) => {
    rl.setPrompt(question);
    rl.prompt();
    const answer = await nextLine();
    // An answer is not a command: keep it out of the arrow-key history.
    const history = readlineHistory();
    if (answer !== undefined && history[0] === answer) history.shift();
    return answer;
  };
  terminal.write('Welcome to ZooKeeper! (zooscope shell; Tab completes, Ctrl-C cancels, Ctrl-D leaves)\n');
  if (terminal.greeting) terminal.write(terminal.greeting + '\n');
  let initial = terminal.initialLine;
  try {
    while (!closed && !shell.quitRequested) {
      rl.setPrompt(shell.prompt);
      if (lines.length === 0) {
        rl.prompt();
        if (initial) {
          rl.write(initial);
          rl.write(null, { ctrl: true, name: 'a' });
        }
      }
      initial = undefined;
      const line = await nextLine();
      if (line === undefined) break;
      const cancel = new AbortController();
      cancelRunning = () => cancel.abort();
      const outcome = await shell.executeLine(line, cancel.signal);
      cancelRunning = undefined;
      if (outcome === 'abandoned') terminal.write('^C (command abandoned)\n');
    }
  } finally {
    shell.readAnswer = undefined;
    saveHistory(file, readlineHistory());
    rl.close();
    gate.dispose();
    if (raw) tty.setRawMode(false);
  }
  return shell.exitCode;
}
