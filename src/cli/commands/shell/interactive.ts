// `zooscope shell` on a terminal: the shared interactive loop (src/zk/shell/interactive.ts) on this process's tty.
import type { ZkShell } from '../../../zk/shell';
import { runInteractive as runOnTerminal } from '../../../zk/shell/interactive';
import type { Output } from '../../output';

export function runInteractive(shell: ZkShell, out: Output): Promise<number> {
  return runOnTerminal(shell, { input: process.stdin, output: process.stdout, write: (text) => out.exact(text) });
}
