// The znode path a palette command works on: one given by the caller (checked; a problem is shown), or one the
// user types, checked as typed. One place for the prompt every command shares.
import * as vscode from 'vscode';
import { checkPath } from '../../zk/paths';
import { describePathProblem } from './failureTexts';
import { fail } from './notifier';
import { input } from './quickInput';

const t = vscode.l10n.t;

/** validateInput for any absolute znode path. */
export function validateZnodePath(value: string): string | undefined {
  const problem = checkPath(value);
  return problem ? describePathProblem(problem) : undefined;
}

export interface PathPrompt {
  title: string;
  /** Default: "Absolute znode path, e.g. /app/config". */
  prompt?: string;
  /** What the input box starts with. */
  value: string;
}

/** `given` when it is a valid path, else undefined (with its problem shown); without `given`, asks. */
export async function askZnodePath(given: string | undefined, ask: PathPrompt): Promise<string | undefined> {
  if (given === undefined) {
    return input({
      title: ask.title, prompt: ask.prompt ?? t('Absolute znode path, e.g. /app/config'), value: ask.value,
      validateInput: validateZnodePath,
    });
  }
  const problem = validateZnodePath(given);
  if (problem) {
    void fail(problem);
    return undefined;
  }
  return given;
}
