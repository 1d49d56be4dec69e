// Sentences for the data editor's own refusals (the ZooKeeper layer's failures go through describeWriteFailure).
import * as vscode from 'vscode';
import type { DecodeProblem } from '../common/dataCodec';

const t = vscode.l10n.t;

export function describeDecodeProblem(path: string, problem: DecodeProblem): string {
  switch (problem.code) {
    case 'badHexDigit':
      return t('{0} was not saved: "{1}" at line {2}, column {3} is not a hex digit (use 0-9 and a-f, pairs separated by spaces).', path, problem.char, problem.line, problem.column);
    case 'oddHexDigits':
      return t('{0} was not saved: the hex view holds {1} digits, an odd number (every byte needs two).', path, problem.digits);
    case 'badBase64Char':
      return t('{0} was not saved: "{1}" at line {2}, column {3} is not a base64 character.', path, problem.char, problem.line, problem.column);
    case 'badBase64Length':
      return t('{0} was not saved: the base64 view holds {1} characters; base64 comes in groups of 4.', path, problem.chars);
    case 'badBase64Padding':
      return t('{0} was not saved: "=" may only pad the end of the base64 text.', path);
  }
}
