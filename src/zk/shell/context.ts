// What a command needs while it runs: the session, the two output streams (text exactly as zkCli would print
// it; the sink makes hidden characters visible), the watches set so far, and a way to close the session.
import type { ZkSession } from '../session/session';
import { CliError } from './zkCliErrors';
import { OptionParseError, parseOptions, ParsedOptions } from './zkCliOptions';
import { CommandSpec, usageOf } from './commands';
import type { WatchTracker } from './watchTracker';

export interface RunContext {
  session: ZkSession;
  out(text: string): void;
  err(text: string): void;
  watches: WatchTracker;
  /** The time zone stats are printed in (the process's when undefined, as the JVM's default). */
  timeZone?: string;
  /** Prints a WATCHER:: block if printwatches is on. */
  watchEvent(type: string, path: string | null, state?: string): void;
  /** Closes the session (zkCli's zk.close(), with its Closed event). */
  closeSession(): void;
}

export type Runner = (ctx: RunContext, words: string[], spec: CommandSpec) => Promise<void>;

/** commons-cli parsing with zkCli's CliParseException wording. */
export function parse(spec: CommandSpec, words: string[]): ParsedOptions {
  try {
    return parseOptions(spec.options, words);
  } catch (error) {
    if (error instanceof OptionParseError) throw new CliError(error.toString());
    throw error;
  }
}

/** The usage line as a CliError (CliParseException / MalformedCommandException print it alone). */
export const usageError = (spec: CommandSpec): CliError => new CliError(usageOf(spec));

/** `ls path watch`, `get path watch`, `stat path watch`: zkCli 3.8 rewrites the third word to -w and warns. */
export function retainWatchCompatibility(ctx: RunContext, spec: CommandSpec, words: string[], parsed: ParsedOptions, wanted: string): ParsedOptions {
  if (parsed.args.length <= 2) return parsed;
  const rewritten = [...words];
  rewritten[2] = '-w';
  ctx.err(`'${spec.name} path [watch]' has been deprecated. Please use '${wanted}' instead.\n`);
  return parse(spec, rewritten);
}
