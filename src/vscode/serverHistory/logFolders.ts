// Where a connection's server logs are: the data directories (or copies of `version-2`) the user chose for it, one
// per member, or its members over SSH (memberLogs.ts), remembered for the workspace. Only local paths and the
// members' data directory are kept: nothing here is secret, and nothing from a folder's settings chooses them. The
// logs read are indexed once (the last set): later questions decode only the entries they are about, until a file
// changes (size, mtime) or the folders hold other files.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { lockHistoryStart } from '../../zk/history/fromServerLogs';
import { LogIndex } from '../../zk/serverLogs/logIndex';
import { logSource, type LogSource } from '../../zk/serverLogs/logSet';
import type { StartingSnapshot } from '../../zk/serverLogs/startingSnapshot';
import { log } from '../common/log';
import { info } from '../common/notifier';
import type { Report } from '../common/progress';
import { pickItem } from '../common/quickInput';
import type { Core } from '../core/core';
import { MemberLogs } from './memberLogs';

const t = vscode.l10n.t;
const KEY = 'zooscope.serverLogFolders';

/** What the user chose: folders of this machine, or the members' copies just fetched over SSH. */
export type LogChoice = { kind: 'folders'; folders: string[]; sources: LogSource[] | undefined } | { kind: 'ssh'; sources: LogSource[] | undefined };

export class LogFolders {
  private indexed?: LogIndex;
  private started?: { index: LogIndex; root: string; start: StartingSnapshot | { problem: string } };
  readonly members: MemberLogs;

  /** `storageDir`: the extension's private storage, where the members' copies go. */
  constructor(private readonly state: vscode.Memento, private readonly core: Core, storageDir: string) {
    this.members = new MemberLogs(state, core, storageDir);
  }

  remembered(connectionId: string): string[] {
    const all = this.state.get<Record<string, string[]>>(KEY, {});
    return (all[connectionId] ?? []).filter((folder) => fs.existsSync(folder));
  }

  async remember(connectionId: string, folders: string[]): Promise<void> {
    const all = { ...this.state.get<Record<string, string[]>>(KEY, {}), [connectionId]: folders };
    await this.state.update(KEY, all);
  }

  /** Asks where the logs are (folders here, or the members over SSH, fetched now); undefined when the user cancels. */
  async choose(connectionId: string): Promise<LogChoice | undefined> {
    const name = this.core.store.get(connectionId)?.name ?? connectionId;
    const fetchedAt = this.members.fetchedAt(connectionId);
    const overSsh = this.members.remembered(connectionId);
    const items = [
      { id: 'folders' as const, icon: 'folder-opened', label: t('Folders on This Machine…'), detail: t('Each member\'s data directory, or a copy of its version-2 folder') },
      {
        id: 'ssh' as const, icon: 'remote', label: t('The Members over SSH…'),
        description: fetchedAt && overSsh ? t('fetched at {0}: choose to fetch again', fetchedAt.toLocaleTimeString()) : undefined,
        detail: this.core.store.get(connectionId)?.ssh ? t('Each member\'s files, fetched through the connection\'s SSH bastion (read-only)') : t('Each member\'s files, fetched over SSH from each member directly (read-only)'),
      },
    ];
    const picked = await pickItem(items, { title: t('Server Logs of {0}', name), placeHolder: t('Where are the servers\' logs?') });
    if (!picked) return undefined;
    if (picked.id === 'folders') {
      const folders = await this.chooseFolders(connectionId);
      return folders && { kind: 'folders', folders, sources: this.local(folders) };
    }
    const place = await this.members.ask(connectionId);
    if (!place) return undefined;
    await this.remember(connectionId, []);
    return { kind: 'ssh', sources: await this.members.fetch(connectionId, place) };
  }

  /** Asks for the folders (several members' at once), remembers them; undefined when the user cancels. */
  private async chooseFolders(connectionId: string): Promise<string[] | undefined> {
    const name = this.core.store.get(connectionId)?.name ?? connectionId;
    const uris = await vscode.window.showOpenDialog({
      title: t('Server Logs of {0}: each member\'s data directory (or a copy of its version-2)', name),
      openLabel: t('Read These Logs'), canSelectFiles: false, canSelectFolders: true, canSelectMany: true,
    });
    if (!uris || uris.length === 0) return undefined;
    const folders = uris.filter((uri) => uri.scheme === 'file').map((uri) => uri.fsPath);
    await this.remember(connectionId, folders);
    await this.members.remember(connectionId, undefined);
    return folders;
  }

  /** The sources to read: the folders given, else the members over SSH or the folders remembered, else asked. */
  async sources(connectionId: string, presetFolders?: string[]): Promise<LogSource[] | undefined> {
    if (presetFolders) return this.local(presetFolders);
    const overSsh = this.members.remembered(connectionId);
    if (overSsh) return this.members.sources(connectionId, overSsh);
    const folders = this.remembered(connectionId);
    if (folders.length > 0) return this.local(folders);
    return (await this.choose(connectionId))?.sources;
  }

  /** The folders' sources; one line when none holds a log. */
  private local(folders: string[]): LogSource[] | undefined {
    const sources = folders.map((folder) => logSource(folder));
    if (sources.every((source) => source.files.length === 0)) {
      void info(t('No transaction log (log.<zxid>) is in {0}. Choose a member\'s data directory, or the version-2 folder inside it.', folders.join(', ')));
      return undefined;
    }
    return sources;
  }

  /**
   * Who was queued under `root` when these logs begin: kept with the index (the last root asked), so asking again
   * about the same lock reads no snapshot.
   */
  async lockStart(sources: readonly LogSource[], root: string, signal: AbortSignal, report: Report): Promise<StartingSnapshot | { problem: string }> {
    const index = await this.index(sources, signal, report);
    if (this.started?.index === index && this.started.root === root) return this.started.start;
    this.started = undefined;
    report(t('Reading who was queued when the logs begin…'));
    const start = await lockHistoryStart(sources, root, signal);
    this.started = { index, root, start };
    return start;
  }

  /** The index of these sources: the one kept while its files are as they were, else read now (cancellable). */
  async index(sources: readonly LogSource[], signal: AbortSignal, report: Report): Promise<LogIndex> {
    if (this.indexed?.matches(sources)) return this.indexed;
    this.indexed = undefined; // its memory goes before the next one is read
    this.started = undefined;
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
