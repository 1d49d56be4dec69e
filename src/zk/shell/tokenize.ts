// How zkCli 3.8 splits a typed line into words (ZooKeeperMain.MyCommandOptions.parseCommand): runs of non-blank
// characters, or "…" / '…' quoted strings whose quotes are stripped. Java's regex semantics are kept, quirks
// included (an unclosed quote is skipped, `x"y z"` is two words), so lines mean what they mean in zkCli.

/** Java's `\s`: only these six characters, not Unicode spaces. */
const WS = '[ \\t\\n\\x0B\\f\\r]';
const ARGS_PATTERN = new RegExp(`${WS}*([^"'][^ \\t\\n\\x0B\\f\\r]*|"[^"]*"|'[^']*')${WS}*`, 'g');
/** Java's `.` stops at line terminators; matches() needs the whole word. */
const QUOTED_PATTERN = /^(['"])[^\n\r\u0085\u2028\u2029]*\1$/;

/** The words of one command line, as zkCli reads them; empty when the line holds none. */
export function tokenizeLine(line: string): string[] {
  const words: string[] = [];
  ARGS_PATTERN.lastIndex = 0;
  for (let m = ARGS_PATTERN.exec(line); m; m = ARGS_PATTERN.exec(line)) {
    let value = m[1];
    if (QUOTED_PATTERN.test(value)) value = value.slice(1, -1);
    words.push(value);
    if (m[0].length === 0) ARGS_PATTERN.lastIndex++;
  }
  return words;
}
