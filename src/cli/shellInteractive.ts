// `zooscope shell` on a terminal: zkCli's prompt (`[zk: host(CONNECTED) 3] `), arrow-key history kept per connect
// string in ~/.cache/zooscope/shell-history/, Tab completion of commands, flags and znode paths (children read
// from the server as you type), and Ctrl-C abandons the running command (its request still completes on the
// server) without leaving; Ctrl-C on an empty prompt or Ctrl-D leaves.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { ZkShell } from '../zk/shell';
import { completeLine } from '../zk/shell/completion';
import type { Output } from './output';

const HISTORY_LIMIT = 500;

function historyFile(connectString: string): string {
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

export async function runInteractive(shell: ZkShell, out: Output): Promise<number> {
  const file = historyFile(shell.connectString);
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
    history: loadHistory(file),
    historySize: HISTORY_LIMIT,
    removeHistoryDuplicates: true,
    completer: (line: string, callback: (error: null, result: [string[], string]) => void) => {
      const session = shell.session;
      completeLine(line, session).then((result) => callback(null, result), () => callback(null, [[], line]));
    },
  });
  let cancelRunning: (() => void) | undefined;
  let closed = false;
  rl.on('SIGINT', () => {
    if (cancelRunning) return cancelRunning();
    if (rl.line.length > 0) {
      out.exact('^C\n');
      rl.write(null, { ctrl: true, name: 'u' });
      rl.prompt();
    } else {
      rl.close();
    }
  });
  rl.on('close', () => { closed = true; });
  out.exact('Welcome to ZooKeeper! (zooscope shell; Tab completes, Ctrl-C cancels, Ctrl-D leaves)\n');
  try {
    while (!closed && !shell.quitRequested) {
      const line = await new Promise<string | undefined>((resolve) => {
        const onClose = () => resolve(undefined);
        rl.once('close', onClose);
        rl.question(shell.prompt, (answer) => {
          rl.off('close', onClose);
          resolve(answer);
        });
      });
      if (line === undefined) break;
      const cancelled = new Promise<void>((resolve) => { cancelRunning = resolve; });
      const running = shell.executeLine(line);
      const winner = await Promise.race([running.then(() => 'done' as const), cancelled.then(() => 'cancelled' as const)]);
      cancelRunning = undefined;
      if (winner === 'cancelled') {
        running.catch(() => undefined);
        out.exact('^C (command abandoned)\n');
      }
    }
  } finally {
    saveHistory(file, (rl as unknown as { history: string[] }).history ?? []);
    rl.close();
  }
  return shell.exitCode;
}
