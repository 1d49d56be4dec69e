// zkCli parses each command's flags with Apache Commons CLI 1.5.0's DefaultParser (the version Debian ships with
// ZooKeeper 3.8.0). This is that parser for short options only (zkCli declares no long ones), with its exact error
// messages, so `set -v /a x`, `ls -x /`, `setquota -n 1 -b 2 /a` and `-sv3` behave as in zkCli.

export interface OptionSpec {
  /** Takes one value (`-v 3`, `-v3`, `-v=3`). */
  hasArg: boolean;
  /** Shown in MissingOptionException messages of a required group. */
  description: string;
}

export interface OptionsSpec {
  options: Record<string, OptionSpec>;
  /** One exclusive group (setquota, delquota): at most one of its members, `required` means exactly one. */
  group?: { members: string[]; required: boolean };
}

export interface ParsedOptions {
  /** Options seen, with their first value (undefined for flags). */
  values: Map<string, string | undefined>;
  /** The words that are no options; args[0] is the command name. */
  args: string[];
}

/** A commons-cli ParseException; zkCli prints `toString()`: the class name, a colon and the message. */
export class OptionParseError extends Error {
  constructor(readonly javaClass: string, message: string) {
    super(message);
  }

  override toString(): string {
    return `org.apache.commons.cli.${this.javaClass}: ${this.message}`;
  }
}

/** What Java's Double.parseDouble accepts (DefaultParser takes such words as option values even if they start with `-`). */
const JAVA_DOUBLE = /^[\x00-\x20]*[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?)[\x00-\x20]*$/;

/** Util.stripLeadingAndTrailingQuotes. */
function stripQuotes(text: string): string {
  return text.length > 1 && text.startsWith('"') && text.endsWith('"') && !text.slice(1, -1).includes('"') ? text.slice(1, -1) : text;
}

export function parseOptions(spec: OptionsSpec, words: readonly string[]): ParsedOptions {
  const values = new Map<string, string | undefined>();
  const args: string[] = [];
  let current: { key: string; value?: string } | undefined;
  let skipParsing = false;
  let selected: string | undefined;
  const has = (key: string) => Object.prototype.hasOwnProperty.call(spec.options, key);
  const acceptsArg = (o: { key: string; value?: string }) => spec.options[o.key].hasArg && o.value === undefined;

  const isShortOption = (token: string) => {
    if (!token.startsWith('-') || token.length === 1) return false;
    const pos = token.indexOf('=');
    const name = pos === -1 ? token.slice(1) : token.slice(1, pos);
    return has(name) || (name !== '' && has(name[0]));
  };
  const isArgument = (token: string) => !isShortOption(token) || JAVA_DOUBLE.test(token);

  const unknown = (token: string) => {
    if (token.startsWith('-') && token.length > 1) throw new OptionParseError('UnrecognizedOptionException', `Unrecognized option: ${token}`);
    args.push(token);
  };
  const checkRequiredArgs = () => {
    if (current && acceptsArg(current)) throw new OptionParseError('MissingArgumentException', `Missing argument for option: ${current.key}`);
  };
  const handleOption = (key: string) => {
    checkRequiredArgs();
    if (spec.group?.members.includes(key)) {
      if (selected !== undefined && selected !== key) {
        throw new OptionParseError('AlreadySelectedException',
          `The option '${key}' was specified but an option from this group has already been selected: '${selected}'`);
      }
      selected = key;
    }
    const option = { key, value: undefined as string | undefined };
    if (!values.has(key)) values.set(key, undefined);
    current = spec.options[key].hasArg ? option : undefined;
  };
  const setValue = (value: string) => {
    if (!current) return;
    current.value = value;
    if (values.get(current.key) === undefined) values.set(current.key, value);
  };
  const concatenated = (token: string) => {
    for (let i = 1; i < token.length; i++) {
      const ch = token[i];
      if (!has(ch)) return unknown(token);
      handleOption(ch);
      if (current && token.length !== i + 1) {
        setValue(token.slice(i + 1));
        return;
      }
    }
  };
  const shortOption = (token: string) => {
    const t = token.slice(1);
    const pos = t.indexOf('=');
    if (t.length === 1) return has(t) ? handleOption(t) : unknown(token);
    if (pos === -1) return has(t) ? handleOption(t) : concatenated(token);
    const name = t.slice(0, pos);
    if (name.length === 1 && has(name) && spec.options[name].hasArg) {
      handleOption(name);
      setValue(t.slice(pos + 1));
      current = undefined;
      return;
    }
    return unknown(token);
  };

  for (const token of words) {
    if (skipParsing) args.push(token);
    else if (token === '--') skipParsing = true;
    else if (current && acceptsArg(current) && isArgument(token)) setValue(stripQuotes(token));
    else if (token.startsWith('--')) unknown(token);
    else if (token.startsWith('-') && token !== '-') shortOption(token);
    else unknown(token);
    if (current && !acceptsArg(current)) current = undefined;
  }
  checkRequiredArgs();
  if (spec.group?.required && selected === undefined) {
    const members = spec.group.members.map((key) => `-${key} ${spec.options[key].description}`).join(', ');
    throw new OptionParseError('MissingOptionException', `Missing required option: [${members}]`);
  }
  return { values, args };
}
