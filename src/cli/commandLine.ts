// The one way a command's words are read: Node's own util.parseArgs (strict, `multiple` for repeated flags, nothing
// to bundle), over a table of the options each command declares. What is ours comes before it, read from the tokens
// parseArgs gives back, so every command answers the same way and in our words:
// - an option no table declares is refused by name (a flag that would carry a secret, with the variable to use);
// - a flag that takes a value refuses a missing or empty value, and a value starting with `-` unless it is written
//   `--flag=value` (so `--digest --tls` is never a user named "--tls", and `--hold -1` is refused as missing): the
//   flag's own words say what it takes;
// - `--help` / `-h` anywhere among our words asks for the command's help.
// The values themselves (numbers, paths, users) are checked by each command afterwards (src/cli/args.ts).
import { parseArgs } from 'node:util';
import { UsageError } from './args';

/** A flag that takes a value: what the value is, said when it is missing (`--timeout takes a number of seconds`). */
export interface ValueOption {
  takes: string;
  /** Repeatable: every value is kept, in order. */
  multiple?: boolean;
  /** Another spelling of the option named here (kept for scripts, not shown in the usage). */
  aliasOf?: string;
}

/** A flag without a value. */
export interface FlagOption {
  takes?: undefined;
  multiple?: undefined;
  short?: string;
  aliasOf?: string;
}

export type OptionSpec = ValueOption | FlagOption;
/** Options by their long name, without the dashes. */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

export type OptionValues<T extends OptionTable> = {
  [K in keyof T]?: T[K] extends { takes: string } ? (T[K] extends { multiple: true } ? string[] : string) : boolean;
};

export interface CommandLine<T extends OptionTable> {
  values: OptionValues<T>;
  positionals: string[];
  /** The words from the first positional after `restAfter` positionals on: not ours (`zooscope shell host ls -R /`). */
  rest: string[];
  /** Each option given, as the user spelled it the last time (`--auth` for `digest`), for messages. */
  spelled: Partial<Record<keyof T & string, string>>;
}

/** What `parseCommandLine` found: the words, or a request for help. */
export type ParsedCommandLine<T extends OptionTable> = ({ help: false } & CommandLine<T>) | { help: true };

/** Flags that would put a secret on the command line, each with the message that refuses it. */
export type RefusedFlags = Readonly<Record<string, string>>;

const HELP: OptionTable = { help: { short: 'h' } };

type NodeOptions = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

function nodeOptions(table: OptionTable): NodeOptions {
  const options: NodeOptions = {};
  for (const [name, spec] of Object.entries(table)) {
    options[name] = spec.takes !== undefined
      ? { type: 'string', ...(spec.multiple ? { multiple: true } : {}) }
      : { type: 'boolean', ...(spec.short ? { short: spec.short } : {}) };
  }
  return options;
}

/** The words before the `restAfter + 1`-th positional, and the words from it on. */
function splitAtRest(args: readonly string[], table: OptionTable, restAfter: number | undefined): [string[], string[]] {
  if (restAfter === undefined) return [[...args], []];
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('-') && arg.length > 1) {
      if (table[arg.slice(2)]?.takes !== undefined) i++;
      continue;
    }
    if (++positionals > restAfter) return [args.slice(0, i), args.slice(i)];
  }
  return [[...args], []];
}

/**
 * The words of one command: its options by `table`, its positional words, and (with `restAfter`) the words that are
 * not ours. Throws UsageError, in the order the words stand, for an unknown or refused option or a bad value.
 */
export function parseCommandLine<T extends OptionTable>(
  args: readonly string[], table: T, settings: { refused?: RefusedFlags; restAfter?: number } = {},
): ParsedCommandLine<T> {
  const [ours, rest] = splitAtRest(args, table, settings.restAfter);
  const all: OptionTable = { ...table, ...HELP };
  const options = nodeOptions(all);
  const { tokens } = parseArgs({ args: ours, options, strict: false, allowPositionals: true, tokens: true });
  // parseArgs gives its tokens from Node 18.7 on: before that, one line rather than a TypeError.
  if (!Array.isArray(tokens)) throw new Error(`zooscope needs Node 18.7 or later, not ${process.version}`);
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help')) return { help: true };
  const spelled: Partial<Record<string, string>> = {};
  const lastAt: Record<string, number> = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = all[token.name] as OptionSpec | undefined;
    const flag = token.rawName;
    if (!spec) throw new UsageError(settings.refused?.[`--${token.name}`] ?? `unknown option ${flag}`);
    if (spec.takes !== undefined) {
      const value = token.value ?? '';
      if (value === '' || (!token.inlineValue && value.startsWith('-'))) throw new UsageError(`${flag} takes ${spec.takes}`);
    } else if (token.value !== undefined) {
      throw new UsageError(`${flag} takes no value`);
    }
    const name = spec.aliasOf ?? token.name;
    spelled[name] = flag;
    lastAt[token.name] = token.index;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: ours, options, strict: true, allowPositionals: true });
  } catch (error) {
    // Not reached by the checks above; said in one line all the same.
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
  const values = { ...parsed.values } as Record<string, string | boolean | string[] | undefined>;
  for (const [name, spec] of Object.entries(table)) {
    const value = values[name];
    if (spec.aliasOf === undefined || value === undefined) continue;
    delete values[name];
    const canonical = values[spec.aliasOf];
    if (Array.isArray(value)) values[spec.aliasOf] = [...(Array.isArray(canonical) ? canonical : []), ...value];
    else if (typeof value === 'boolean') values[spec.aliasOf] = true;
    else if (canonical === undefined || lastAt[name] > (lastAt[spec.aliasOf] ?? -1)) values[spec.aliasOf] = value;
  }
  delete values.help;
  return { help: false, values: values as OptionValues<T>, positionals: parsed.positionals, rest, spelled: spelled as CommandLine<T>['spelled'] };
}
