// Where the members' logs are read over SSH, as a person types it (VS Code's prompts, the CLI's flags): the members'
// data directory and the read command put before `ls` and `cat` there (`sudo -n`, say). Checked once here for both,
// before any ssh runs: the text reaches the member's shell (quoted word by word) and is shown back to the user.
import { connectStringProblemText, isConnectStringProblem, parseConnectString } from '../connectString';
import { hasHiddenCharacters } from '../../shared/visibleText';

export type PlaceProblem = 'empty' | 'hidden' | 'relative' | 'tooLong' | 'option';

const MAX_PATH = 4096;

/** Why `dataDir` cannot be the members' data directory; undefined when it can (an absolute POSIX path). */
export function dataDirProblem(dataDir: string): PlaceProblem | undefined {
  if (dataDir.trim() === '') return 'empty';
  if (hasHiddenCharacters(dataDir)) return 'hidden';
  if (!dataDir.startsWith('/')) return 'relative';
  if (dataDir.length > MAX_PATH) return 'tooLong';
  return undefined;
}

/** The read command's words (split at spaces); none for an empty text. */
export function readCommandWords(text: string): string[] {
  return text.split(' ').filter(Boolean);
}

/** Why `text` cannot be a read command; undefined when it can (empty: none). */
export function readCommandProblem(text: string): PlaceProblem | undefined {
  if (hasHiddenCharacters(text)) return 'hidden';
  if (text.length > MAX_PATH) return 'tooLong';
  // The first word is a program: an option there would be a typo that runs `ls` as an argument.
  if (readCommandWords(text)[0]?.startsWith('-')) return 'option';
  return undefined;
}

/** The problem in English (the CLI's lines); `what` names the value (`--data-dir`, `the read command`). */
export function placeProblemText(problem: PlaceProblem, what: string, text: string): string {
  const value = JSON.stringify(text.slice(0, 120));
  switch (problem) {
    case 'empty': return `${what}: the members' data directory is needed`;
    case 'hidden': return `${what} ${value}: has a control, invisible or direction-changing character`;
    case 'relative': return `${what} ${value}: expected the members' absolute path (/var/lib/zookeeper)`;
    case 'tooLong': return `${what}: longer than ${MAX_PATH} characters`;
    case 'option': return `${what} ${value}: starts with an option, not a program (sudo -n)`;
  }
}

/** The members whose logs are read: each host of the connect string once; a one-line problem when it is not one. */
export function logMembers(connectString: string): string[] | { problem: string } {
  const parsed = parseConnectString(connectString);
  if (isConnectStringProblem(parsed)) return { problem: connectStringProblemText(parsed) };
  return [...new Set(parsed.servers.map((server) => server.host))];
}
