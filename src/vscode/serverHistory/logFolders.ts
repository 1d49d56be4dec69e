// Where a connection's server logs are: the data directories (or copies of `version-2`) the user chose for it, one
// per member, remembered for the workspace. Only local paths are kept: nothing here is secret, and nothing from a
// folder's settings chooses them. The logs read are indexed once (the last folder set): later questions decode only
// the entries they are about, until a file changes (size, mtime) or the folders hold other files.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { LogIndex } from '../../zk/serverLogs/logIndex';
import { logSource, type LogSource } from '../../zk/serverLogs/logSet';
import { log } from '../common/log';
import { info } from '../common/notifier';
import type { Report } from '../common/progress';
import type { Core } from '../core/core';

const t = vscode.l10n.t;
const KEY = 'zooscope.serverLogFolders';

export class LogFolders {
  private indexed?: LogIndex;

  constructor(private readonly state: vscode.Memento, private readonly core: Core) {}

  remembered(connectionId: string): string[] {
    const all = this.state.get<Record<string, string[]>>(KEY, {});
    return (all[connectionId] ?? []).filter((folder) => fs.existsSync(folder));
  }

  async remember(connectionId: string, folders: string[]): Promise<void> {
    const all = { ...this.state.get<Record<string, string[]>>(KEY, {}), [connectionId]: folders };
    await this.state.update(KEY, all);
  }

  /** Asks for the folders (several members' at once), remembers them; undefined when the user cancels. */
  async choose(connectionId: string): Promise<string[] | undefined> {
    const name = this.core.store.get(connectionId)?.name ?? connectionId;
    const uris = await vscode.window.showOpenDialog({
      title: t('Server Logs of {0}: each member\'s data directory (or a copy of its version-2)', name),
      openLabel: t('Read These Logs'), canSelectFiles: false, canSelectFolders: true, canSelectMany: true,
    });
    if (!uris || uris.length === 0) return undefined;
    const folders = uris.filter((uri) => uri.scheme === 'file').map((uri) => uri.fsPath);
    await this.remember(connectionId, folders);
    return folders;
  }

  /** The sources to read: the remembered folders, else asked; one line when none holds a log. */
  async sources(connectionId: string, presetFolders?: string[]): Promise<LogSource[] | undefined> {
    const folders = presetFolders ?? (this.remembered(connectionId).length > 0 ? this.remembered(connectionId) : await this.choose(connectionId));
    if (!folders) return undefined;
    const sources = folders.map((folder) => logSource(folder));
    if (sources.every((source) => source.files.length === 0)) {
      void info(t('No transaction log (log.<zxid>) is in {0}. Choose a member\'s data directory, or the version-2 folder inside it.', folders.join(', ')));
      return undefined;
    }
    return sources;
  }

  /** The index of these sources: the one kept while its files are as they were, else read now (cancellable). */
  async index(sources: readonly LogSource[], signal: AbortSignal, report: Report): Promise<LogIndex> {
    if (this.indexed?.matches(sources)) return this.indexed;
    this.indexed = undefined; // its memory goes before the next one is read
    const every = 100_000;
    let told = 0;
    const index = await LogIndex.build(sources, {
      signal,
      progress: (count) => {
        if (count - told < every) return;
        told = count;
        report(t('{0} transactions read', count.toLocaleString()));
      },
    });
    log().info(`server logs indexed: ${index.count} transactions from ${index.files.length} files, ${(index.arrayBytes / 1048576).toFixed(1)} MiB (${(index.arrayBytes / Math.max(1, index.count)).toFixed(0)} B a transaction)`);
    this.indexed = index;
    return index;
  }
}
