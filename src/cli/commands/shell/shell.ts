// `zooscope shell <connectString> [--timeout <s>] [--read-only] [security options] [command [args…]]`: zkCli 3.8's
// language. --read-only refuses every write, as the extension's shell on a read-only connection does.
// With a command: runs it like `zkCli.sh -server <connectString> command args…` and prints what zkCli prints for
// it (not zkCli's "Connecting to…" line and connection event), with zkCli's exit code (1 failed, 127 unknown
// command). Without one and stdin not a terminal: one command per line, only their output. On a terminal: an
// interactive shell (src/cli/commands/shell/interactive.ts). Exit 2: our own bad arguments; 1: cannot connect.
import type { SessionOptions } from '../../../zk/session/session';
import { ZkShell } from '../../../zk/shell';
import { AskYesNo, credentialsQuestion, optionsForConnect } from '../../../zk/shell/connectCredentials';
import { terminalText } from '../../../zk/shell/terminalText';
import { MAX_TIMER_MS } from '../../../zk/timeouts';
import { checkedConnectString, secondsOf, UsageError } from '../../args';
import { defineCommand, usageText } from '../../command';
import { runInteractive } from './interactive';
import { readLines } from './lines';

const USAGE = 'zooscope shell <connectString> [--timeout <seconds>] [--read-only] [security options] [command [args…]]';

export const shellCommand = defineCommand({
  name: 'shell',
  summary: 'zkCli 3.8\'s commands and output: one command, lines from a pipe, or an interactive shell on a terminal',
  usage: USAGE,
  details: `  our options come before the command: every word from the command on is zkCli's
  --read-only: refuse every write, as the extension's shell on a read-only connection does
  exit codes: zkCli's (0, 1 failed, 127 unknown command); 1 cannot connect; 2 bad arguments`,
  options: { 'timeout': { takes: 'a number of seconds' }, 'read-only': {} },
  connects: true,
  restAfter: 1,
  failureExit: 1,
  parse({ values, positionals, rest, connection }) {
    if (positionals.length === 0) throw new UsageError(`expected <connectString>\n${usageText(USAGE)}`);
    const timeoutMs = values.timeout === undefined ? 30000 : Math.max(1000, secondsOf(values.timeout, '--timeout', 0, MAX_TIMER_MS));
    const options: SessionOptions = {
      connectString: checkedConnectString(positionals[0]), sessionTimeoutMs: Math.max(4000, timeoutMs), requestTimeoutMs: timeoutMs, ...connection,
    };
    return { options, readOnly: !!values['read-only'], words: rest };
  },
  reaches: (parsed) => [parsed.options.connectString],
  async run(parsed, { out, session: newSession }) {
    const connectString = parsed.options.connectString;
    // `connect host`: the credentials go to other servers only when the user says yes on the prompt.
    const openSession = async (next: string, ask: AskYesNo) => newSession(await optionsForConnect(next, connectString, parsed.options, ask, credentialsQuestion));
    const session = newSession(parsed.options);
    await session.open();
    const sink = {
      out: (text: string) => out.exact(terminalText(text)),
      err: (text: string) => out.exact(terminalText(text), 'stderr'),
    };
    const shell = new ZkShell({ sink, connectString, openSession, readOnly: parsed.readOnly }, session);
    try {
      if (parsed.words.length > 0) return await shell.executeWords(parsed.words);
      if (process.stdin.isTTY) return await runInteractive(shell, out);
      for await (const line of readLines(process.stdin)) {
        await shell.executeLine(line);
        if (shell.quitRequested || out.closed) break;
      }
      return shell.exitCode;
    } finally {
      shell.close();
    }
  },
});
