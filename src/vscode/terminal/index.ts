// The integrated terminal: `zooscope` on its PATH (cliOnPath.ts).
import type * as vscode from 'vscode';
import type { Registered } from '../core/core';
import { CliOnPath } from './cliOnPath';

export interface TerminalParts {
  readonly cliOnPath: CliOnPath;
}

export function register(context: vscode.ExtensionContext): Registered<undefined, TerminalParts> {
  const cliOnPath = new CliOnPath(context);
  return { api: undefined, parts: { cliOnPath }, disposables: [cliOnPath] };
}
