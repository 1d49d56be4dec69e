// Words for /bin/sh, written where a shell will read them: a remote command (ssh runs it with the member's shell),
// a ProxyCommand (ssh runs it with the local one), the launcher scripts of helpers. Each word single-quoted.

/** A word for /bin/sh: single-quoted, a quote inside written as '\''. */
export function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The words as one command line for a POSIX shell. */
export function shellWords(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}

/**
 * A ProxyCommand of `words`: ssh expands `%` tokens in it before its shell runs it, so a `%` of ours is doubled, and
 * the word `placeholder` becomes `tokens` (e.g. `'%h' '%p'`), which ssh fills with the member's address and port.
 */
export function proxyCommandLine(words: readonly string[], placeholder: string, tokens: string): string {
  return shellWords(words).replace(/%/g, '%%').replace(shellWord(placeholder), tokens);
}
