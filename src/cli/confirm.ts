// Asking before a step that destroys: on a terminal, one question, and only "y" or "yes" goes on (Enter, Ctrl-C
// and Ctrl-D say no). From a pipe or a script (stdin is no terminal) nothing is asked: the caller stops unless the
// user said --yes beforehand.
import * as readline from 'node:readline';

export type Confirmation = 'yes' | 'no' | 'notATerminal';

export async function confirmOnTerminal(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<Confirmation> {
  if (!input.isTTY) return 'notATerminal';
  const prompt = readline.createInterface({ input, output });
  try {
    const answer = await new Promise<string>((resolve) => {
      prompt.once('close', () => resolve(''));
      prompt.once('SIGINT', () => prompt.close());
      prompt.question(question, resolve);
    });
    return /^y(es)?$/i.test(answer.trim()) ? 'yes' : 'no';
  } finally {
    prompt.close();
    input.pause();
  }
}
