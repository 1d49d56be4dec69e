// Tab completion for the shell: the command word, a command's flags, and znode paths, whose children are read
// from the server only when asked (one getChildren per Tab). readline prints the candidates to the terminal as
// they are, so a child whose name holds a control, escape or bidi character is never offered (it could rewrite
// the screen); `ls` shows it, made visible.
import { hasHiddenCharacters } from '../../shared/visibleText';
import * as ops from '../protocol/operations';
import type { ZkSession } from '../session/session';
import { allCommandNames, cliCommand } from './commands';

/** readline's completer answer: the candidates and the fragment they complete. */
export async function completeLine(line: string, session: ZkSession | undefined): Promise<[string[], string]> {
  const words = line.replace(/^ +/, '').split(/ +/);
  const current = words[words.length - 1];
  if (words.length === 1) return [allCommandNames().filter((c) => c.startsWith(current)), current];
  if (current.startsWith('-')) {
    const spec = cliCommand(words[0]);
    const flags = Object.keys(spec?.options.options ?? {}).map((k) => `-${k}`);
    return [flags.filter((f) => f.startsWith(current)), current];
  }
  // Every zkCli path is absolute: an empty word completes from the root.
  if ((current === '' || current.startsWith('/')) && session) return [await completePath(session, current || '/'), current];
  return [[], current];
}

async function completePath(session: ZkSession, fragment: string): Promise<string[]> {
  const slash = fragment.lastIndexOf('/');
  const parent = slash === 0 ? '/' : fragment.slice(0, slash);
  const prefix = fragment.slice(slash + 1);
  try {
    const reply = await session.request(ops.getChildren2(session.channel, parent), 'getChildren', parent);
    const base = parent === '/' ? '/' : parent + '/';
    return reply.children.filter((c) => c.startsWith(prefix) && !hasHiddenCharacters(c)).sort().map((c) => base + c);
  } catch {
    return [];
  }
}
