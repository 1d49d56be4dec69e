// What a command of the table is, and the one wrapper every command runs in (src/cli/commands/index.ts lists them):
// - the words are read by src/cli/commandLine.ts against the command's options (and the connection options, when
//   it connects), then checked by the command's own `parse`: any usage error is one line `zooscope <name>: …`, exit 2;
// - before anything connects, a digest password that would cross the network in clear text is said, once per
//   connect string, for every session the command reaches (its `reaches`, and each session it opens later);
// - the sessions it opens through the context are closed however it ends;
// - a failure it does not handle is one line (with the credentials hint when an ACL refused the session) and its
//   `failureExit`.
import { isZkError } from '../zk/errors';
import { digestInClearServers, digestInClearWarning } from '../zk/security/digestInClear';
import { SessionOptions, ZkSession } from '../zk/session/session';
import { CREDENTIALS_HINT, UsageError } from './args';
import { CommandLine, OptionTable, parseCommandLine } from './commandLine';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connectionSettings, ConnectionSettings, SECRET_FLAGS } from './connectionOptions';
import type { Output } from './output';

/** What a command's `parse` is given: its words, and the connection options' settings when it connects. */
export interface CommandInput<T extends OptionTable> extends CommandLine<T> {
  connection: ConnectionSettings;
  env: NodeJS.ProcessEnv;
}

export interface CommandContext {
  out: Output;
  /** A line of the command's own on stderr: `zooscope <name>: <line>`. */
  say(line: string): void;
  /** A session (not yet open) the wrapper closes when the command ends; its digest warning is said first. */
  session(options: SessionOptions): ZkSession;
}

export interface Command<T extends OptionTable = OptionTable, P = unknown> {
  name: string;
  /** One line for `zooscope --help`. */
  summary: string;
  /** The synopsis without `usage: `: a form a line, a line that starts with spaces going on with the form before. */
  usage: string;
  /** Lines after the synopsis in `zooscope help <name>`: what the options and words mean. */
  details?: string;
  /** The command's own options; with `connects`, the connection options (src/cli/connectionOptions.ts) too. */
  options: T;
  connects: boolean;
  /** The words from the positional after this many on are not ours (`zooscope shell <connectString> ls -R /`). */
  restAfter?: number;
  /** Exit code of a failure `run` does not handle itself. */
  failureExit: number;
  /** Checks the words (throws UsageError); nothing connects yet. */
  parse(input: CommandInput<T & typeof CONNECTION_OPTIONS>): P;
  /** The connect strings the command's credentials go to, warned about before it runs. */
  reaches?(parsed: P): readonly string[];
  run(parsed: P, context: CommandContext): Promise<number>;
}

/** `usage: …` of a command's synopsis, its forms aligned. */
export function usageText(usage: string): string {
  return `usage: ${usage.split('\n').join('\n       ')}`;
}

/** A command declared with its types checked: `parse` sees its own options' values. */
export function defineCommand<T extends OptionTable, P>(command: Command<T, P>): Command<T, P> {
  return command;
}

/** `zooscope help <name>` and `zooscope <name> --help`: what it does, its usage, and the connection options it takes. */
export function commandHelp(command: Command): string {
  return [`zooscope ${command.name}: ${command.summary}`, usageText(command.usage), ...(command.details ? [command.details] : []),
    ...(command.connects ? [CONNECTION_USAGE] : [])].join('\n');
}

/**
 * The warning for a session whose digest password (--digest, ZOOSCOPE_DIGEST) would go in clear text over plain TCP
 * to another machine, as a VS Code connection asks before sending it; undefined when it would not.
 */
export function digestInClearNotice(options: Pick<SessionOptions, 'connectString' | 'digest' | 'tls'>): string | undefined {
  if (!options.digest?.length) return undefined;
  const servers = digestInClearServers(options.connectString, !!options.tls);
  return servers === undefined ? undefined : digestInClearWarning(servers);
}

/** Reads and checks a command's words; undefined when they ask for help. Throws UsageError. */
export function parseCommand<T extends OptionTable, P>(
  command: Command<T, P>, args: readonly string[], env: NodeJS.ProcessEnv,
): { parsed: P; connection: ConnectionSettings } | undefined {
  const table = command.connects ? { ...CONNECTION_OPTIONS, ...command.options } : command.options;
  let line;
  try {
    line = parseCommandLine(args, table, { refused: SECRET_FLAGS, restAfter: command.restAfter });
  } catch (error) {
    if (error instanceof UsageError && error.message.startsWith('unknown option ')) throw new UsageError(`${error.message}\n${usageText(command.usage)}`);
    throw error;
  }
  if (line.help) return undefined;
  const connection: ConnectionSettings = command.connects ? connectionSettings(line.values, env, line.spelled.digest) : { digest: [] };
  return { parsed: command.parse({ ...line, values: line.values as CommandInput<T & typeof CONNECTION_OPTIONS>['values'], connection, env }), connection };
}

/** Runs one command of the table with its words (`--help` among them prints its help); the exit code. */
export async function runCommand<T extends OptionTable, P>(
  command: Command<T, P>, args: readonly string[], out: Output, env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const say = (line: string) => out.error(`zooscope ${command.name}: ${line}`);
  let read: ReturnType<typeof parseCommand<T, P>>;
  try {
    read = parseCommand(command, args, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(error.message);
    return 2;
  }
  if (read === undefined) {
    out.text(commandHelp(command as Command));
    return 0;
  }
  const { parsed, connection } = read;
  const warned = new Set<string>();
  const warnDigestInClear = (options: Pick<SessionOptions, 'connectString' | 'digest' | 'tls'>) => {
    if (!options.digest?.length || warned.has(options.connectString)) return;
    warned.add(options.connectString);
    const notice = digestInClearNotice(options);
    if (notice) say(notice);
  };
  const sessions: ZkSession[] = [];
  const context: CommandContext = {
    out,
    say,
    session: (options) => {
      warnDigestInClear(options);
      const session = new ZkSession(options);
      sessions.push(session);
      return session;
    },
  };
  try {
    for (const connectString of command.reaches?.(parsed) ?? []) warnDigestInClear({ connectString, ...connection });
    return await command.run(parsed, context);
  } catch (error) {
    say(`${(error as Error).message}${isZkError(error, 'noAuth') ? `; ${CREDENTIALS_HINT}` : ''}`);
    return command.failureExit;
  } finally {
    for (const session of sessions) session.close();
  }
}
