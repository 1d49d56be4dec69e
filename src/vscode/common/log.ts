import * as vscode from 'vscode';
import { visibleText } from '../../shared/visibleText';

let channel: vscode.LogOutputChannel | undefined;

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error';
const LEVELS: readonly Level[] = ['trace', 'debug', 'info', 'warn', 'error'];

// Log lines quote names, paths and server answers: hidden characters are written out as [U+XXXX] here, so a name
// with U+202E or an escape sequence reads in the Output view as it does everywhere else.
function literalChannel(raw: vscode.LogOutputChannel): vscode.LogOutputChannel {
  return new Proxy(raw, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property === 'string' && (LEVELS as readonly string[]).includes(property) && typeof value === 'function') {
        return (message: string | Error, ...args: unknown[]) =>
          (value as (m: string | Error, ...a: unknown[]) => void).call(target, typeof message === 'string' ? visibleText(message) : message, ...args);
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The one ZooScope log (Output ▸ ZooScope). Never log secrets: only names, paths and session ids. */
export function log(): vscode.LogOutputChannel {
  channel ??= literalChannel(vscode.window.createOutputChannel('ZooScope', { log: true }));
  return channel;
}
