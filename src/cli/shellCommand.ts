// `zooscope shell <connectString> [--digest <user>] [--timeout <s>] [--read-only] [command [args…]]`: zkCli 3.8's
// language. --read-only refuses every write, as the extension's shell on a read-only connection does.
// With a command: runs it like `zkCli.sh -server <connectString> command args…` and prints what zkCli prints for
// it (not zkCli's "Connecting to…" line and connection event), with zkCli's exit code (1 failed, 127 unknown
// command). Without one and stdin not a terminal: one command per line, only their output. On a terminal: an
// interactive shell (src/cli/shellInteractive.ts). Exit 2: our own bad arguments; 1: cannot connect.
import { SessionOptions, ZkSession } from '../zk/session/session';
import { ZkShell } from '../zk/shell';
import { AskYesNo, credentialsQuestion, optionsForConnect } from '../zk/shell/connectCredentials';
import { terminalText } from '../zk/shell/terminalText';
import { checkedConnectString, secondsOf, UsageError } from './args';
import { MAX_TIMER_MS } from '../zk/timeouts';
import type { Output } from './output';
import { digestInClearNotice, SecurityArgs } from './securityArgs';
import { runInteractive } from './shellInteractive';
import { readLines } from './shellLines';

export const shellUsage = 'usage: zooscope shell <connectString> [--digest <user>] [--timeout <seconds>] [--read-only] [security options] [command [args…]]';

interface ShellArgs {
  connectString: string;
  digest: string[];
  security: Pick<SessionOptions, 'tls' | 'sasl' | 'ssh'>;
  timeoutMs: number;
  readOnly: boolean;
  words: string[];
}

/** Our options come before the command; every word from the command on is zkCli's. */
function parseArgs(args: string[], env: NodeJS.ProcessEnv): ShellArgs {
  let connectString: string | undefined;
  const security = new SecurityArgs();
  let timeoutMs = 30000;
  let readOnly = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    const last = arg.startsWith('--') ? security.take(args, i) : undefined;
    if (last !== undefined) {
      i = last;
    } else if (arg === '--timeout') {
      timeoutMs = Math.max(1000, secondsOf(args[++i], arg, 0, MAX_TIMER_MS));
    } else if (arg === '--read-only') {
      readOnly = true;
    } else if (arg.startsWith('--')) {
      throw new UsageError(`unknown option ${arg}\n${shellUsage}`);
    } else if (connectString === undefined) {
      connectString = checkedConnectString(arg);
    } else {
      break;
    }
  }
  if (connectString === undefined) throw new UsageError(`expected <connectString>\n${shellUsage}`);
  const { digest, tls, sasl, ssh } = security.sessionOptions(env);
  return { connectString, digest: digest ?? [], security: { tls, sasl, ssh }, timeoutMs, readOnly, words: args.slice(i) };
}

export async function runShell(args: string[], out: Output): Promise<number> {
  let parsed: ShellArgs;
  try {
    parsed = parseArgs(args, process.env);
  } catch (error) {
    out.error(`zooscope shell: ${(error as Error).message}`);
    return 2;
  }
  const options: SessionOptions = {
    connectString: parsed.connectString, sessionTimeoutMs: Math.max(4000, parsed.timeoutMs), requestTimeoutMs: parsed.timeoutMs,
    digest: parsed.digest, ...parsed.security,
  };
  // A digest password over plain TCP to another machine: said before it goes, as a VS Code connection asks.
  const warnDigest = (sessionOptions: SessionOptions) => {
    const notice = digestInClearNotice(sessionOptions);
    if (notice) out.error(`zooscope shell: ${notice}`);
  };
  // `connect host`: the credentials go to other servers only when the user says yes on the prompt.
  const openSession = async (connectString: string, ask: AskYesNo) => {
    const next = await optionsForConnect(connectString, parsed.connectString, options, ask, credentialsQuestion);
    warnDigest(next);
    return new ZkSession(next);
  };
  warnDigest(options);
  const session = new ZkSession(options);
  try {
    await session.open();
  } catch (error) {
    out.error(`zooscope shell: ${(error as Error).message}`);
    return 1;
  }
  const sink = {
    out: (text: string) => out.exact(terminalText(text)),
    err: (text: string) => out.exact(terminalText(text), 'stderr'),
  };
  const shell = new ZkShell({ sink, connectString: parsed.connectString, openSession, readOnly: parsed.readOnly }, session);
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
}
