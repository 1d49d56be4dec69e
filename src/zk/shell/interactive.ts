// The interactive loop of the shell, on any pair of terminal streams: the CLI runs it on its own tty
// (src/cli/shellInteractive.ts), the VS Code extension on a pseudoterminal's input and output. zkCli's prompt
// (`[zk: host(CONNECTED) 3] `), arrow-key history kept per connect string in ~/.cache/zooscope/shell-history/, Tab
// completion of commands, flags and znode paths (children read from the server as you type), and Ctrl-C abandons
// the running command (its request still completes on the server) without leaving; Ctrl-C on an empty prompt or
// Ctrl-D leaves.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { completeLine } from './completion';
import type { ZkShell } from './executor';

const HISTORY_LIMIT = 500;

export function historyFile(connectString: string): string {
  const name = connectString.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
  return path.join(os.homedir(), '.cache', 'zooscope', 'shell-history', name);
}

function loadHistory(file: string): string[] {
  try {
    // readline wants the newest first.
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).reverse().slice(0, HISTORY_LIMIT);
  } catch {
    return [];
  }
}

function saveHistory(file: string, history: readonly string[]): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, [...history].reverse().join('\n') + '\n', { mode: 0o600 });
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

/** Runs prompts until `quit`, Ctrl-D or Ctrl-C on an empty line; resolves with zkCli's exit code. */
export async function runInteractive(shell: ZkShell, terminal: InteractiveTerminal): Promise<number> {
  const file = terminal.historyFile ?? historyFile(shell.connectString);
  const rl = readline.createInterface({
    input: terminal.input,
    output: terminal.output,
    terminal: true,
    history: loadHistory(file),
    historySize: HISTORY_LIMIT,
    removeHistoryDuplicates: true,
    completer: (line: string, callback: (error: null, result: [string[], string]) => void) => {
      completeLine(line, shell.session).then((result) => callback(null, result), () => callback(null, [[], line]));
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
  rl.on('close', () => { closed = true; });
  terminal.write('Welcome to ZooKeeper! (zooscope shell; Tab completes, Ctrl-C cancels, Ctrl-D leaves)\n');
  if (terminal.greeting) terminal.write(terminal.greeting + '\n');
  let initial = terminal.initialLine;
  try {
    while (!closed && !shell.quitRequested) {
      const line = await new Promise<string | undefined>((resolve) => {
        const onClose = () => resolve(undefined);
        rl.once('close', onClose);
        rl.question(shell.prompt, (answer) => {
          rl.off('close', onClose);
          resolve(answer);
        });
        if (initial) {
          rl.write(initial);
          rl.write(null, { ctrl: true, name: 'a' });
          initial = undefined;
        }
      });
      if (line === undefined) break;
      const cancelled = new Promise<void>((resolve) => { cancelRunning = resolve; });
      const running = shell.executeLine(line);
      const winner = await Promise.race([running.then(() => 'done' as const), cancelled.then(() => 'cancelled' as const)]);
      cancelRunning = undefined;
      if (winner === 'cancelled') {
        running.catch(() => undefined);
        terminal.write('^C (command abandoned)\n');
      }
    }
  } finally {
    saveHistory(file, (rl as unknown as { history: string[] }).history ?? []);
    rl.close();
  }
  return shell.exitCode;
}
