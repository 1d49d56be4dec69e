// `zooscope` in the integrated terminal: a launcher in the extension's global storage (cliLaunchers.ts) and that
// folder prepended to PATH through the extension's environment variable collection, which VS Code applies to every
// terminal it starts (and marks the open ones stale). `zooscope.terminal.addCliToPath` turns it off.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { log } from '../common/log';
import { LauncherTarget, writeLauncher } from './cliLaunchers';

const t = vscode.l10n.t;

export const ADD_CLI_TO_PATH_SECTION = 'zooscope.terminal';
export const ADD_CLI_TO_PATH_KEY = 'addCliToPath';

export class CliOnPath implements vscode.Disposable {
  /** The folder prepended to PATH, holding the launcher. */
  readonly binDir: string;
  private readonly target: LauncherTarget;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.binDir = path.join(context.globalStorageUri.fsPath, 'bin');
    this.target = { runtime: process.execPath, cli: path.join(context.extensionPath, 'dist', 'cli.js') };
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${ADD_CLI_TO_PATH_SECTION}.${ADD_CLI_TO_PATH_KEY}`)) this.apply();
    });
    this.apply();
  }

  /** What VS Code applies to new terminals (tests read it). */
  get collection(): vscode.GlobalEnvironmentVariableCollection {
    return this.context.environmentVariableCollection;
  }

  private apply(): void {
    const collection = this.context.environmentVariableCollection;
    if (!vscode.workspace.getConfiguration(ADD_CLI_TO_PATH_SECTION).get<boolean>(ADD_CLI_TO_PATH_KEY, true)) {
      collection.clear();
      return;
    }
    try {
      writeLauncher(this.binDir, this.target);
    } catch (error) {
      // A read-only or full disk: the terminal simply has no zooscope, and the log says why.
      log().warn(`zooscope not put on the terminal's PATH: ${error instanceof Error ? error.message : String(error)}`);
      collection.clear();
      return;
    }
    collection.description = t('Puts ZooScope\'s command line, zooscope, on PATH (setting zooscope.terminal.addCliToPath)');
    collection.prepend('PATH', `${this.binDir}${path.delimiter}`);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
