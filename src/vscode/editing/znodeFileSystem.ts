// A znode's data as a file VS Code can open, edit and save (`zooscope:/<connection>/<path>[?view=hex|base64]`).
//
// Saving never overwrites a change it did not show the user: writeFile() always writes at the version the document
// read, whatever VS Code thinks. VS Code's own check before a save compares mtime AND size, so a change of the same
// size slips through it; ours does not. A refused save names the znode and offers Compare (the server's data beside
// the edit) and Overwrite (writes at the version the server has at that moment, and only then). stat() reports the
// size the document read, so VS Code's partial check never asks first and the user sees one question, ours.
import * as vscode from 'vscode';
import type { ZnodeStat } from '../../zk/stat';
import { isProtectedPath } from '../../zk/paths';
import type { WriteFailure } from '../../zk/write';
import type { WatchEvent } from '../../zk/session/watchRegistry';
import type { ConnectionManager } from '../core/connectionManager';
import { warn } from '../common/notifier';
import { log } from '../common/log';
import { describeWriteFailure } from '../common/failureTexts';
import { showWriteFailure } from '../core/failures';
import { liveWriter, LiveWriter } from '../core/liveWriter';
import { decodeView, encodedLength, encodeView } from '../common/dataCodec';
import { DataWatches } from './dataWatches';
import { describeDecodeProblem } from './editTexts';
import { parseLocation, queryFor, uriPathFor, ZNODE_SCHEME, ZnodeLocation } from '../common/znodeUriPath';
import type { DataView } from '../common/dataCodec';
import { Command } from '../core/commandIds';
import { syncBeforeRead } from '../core/settings';

const t = vscode.l10n.t;

export function znodeUri(connectionId: string, path: string, view: DataView = 'text'): vscode.Uri {
  return vscode.Uri.from({ scheme: ZNODE_SCHEME, path: uriPathFor(connectionId, path), query: queryFor(view) });
}

export function locate(uri: vscode.Uri): ZnodeLocation {
  const location = uri.scheme === ZNODE_SCHEME ? parseLocation(uri.path, uri.query) : undefined;
  if (!location) throw vscode.FileSystemError.FileNotFound(uri);
  return location;
}

interface Seen { version: number; mtime: number; size: number }

export class ZnodeFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** Per document URI: the version its content was read at. */
  private readonly read = new Map<string, Seen>();
  /** Per document URI: the server version the user chose to overwrite (after a refused save). */
  private readonly overwriteAt = new Map<string, number>();
  readonly watches: DataWatches;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly documentWatches = new Map<string, vscode.Disposable>();

  constructor(private readonly connections: ConnectionManager, private readonly onNodeChanged: (connectionId: string, path: string) => void = () => undefined) {
    this.watches = new DataWatches(connections, (id, path, event) => this.onWatchEvent(id, path, event));
    // Watch while a document is open, whether or not VS Code asks for a watch itself.
    for (const doc of vscode.workspace.textDocuments) this.onOpened(doc);
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((doc) => this.onOpened(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const key = doc.uri.toString();
        this.documentWatches.get(key)?.dispose();
        this.documentWatches.delete(key);
      }),
    );
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    const { connectionId, path } = locate(uri);
    return this.watches.hold(connectionId, path);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const { connectionId, path, view } = locate(uri);
    const { live } = await this.writer(uri, connectionId);
    let stat: ZnodeStat | undefined;
    try {
      stat = await live.session.exists(path);
    } catch (error) {
      throw new vscode.FileSystemError(String(error));
    }
    if (!stat) throw vscode.FileSystemError.FileNotFound(uri);
    const readOnly = live.saved.readOnly === true || isProtectedPath(path);
    // The mtime is the server's (a newer one makes VS Code reload an unmodified document); the size is the one read.
    const read = this.read.get(uri.toString());
    return {
      type: vscode.FileType.File, ctime: stat.ctime, mtime: stat.mtime, size: read?.size ?? encodedLength(stat.dataLength, view),
      permissions: readOnly ? vscode.FilePermission.Readonly : undefined,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { connectionId, path, view } = locate(uri);
    const { writer } = await this.writer(uri, connectionId);
    // zooscope.syncBeforeRead: a session on a lagging follower catches up with the leader before the read.
    if (syncBeforeRead()) await writer.session.sync(path).catch(() => undefined);
    const outcome = await writer.getData(path);
    if (!outcome.ok) throw this.error(outcome.failure);
    const encoded = encodeView(outcome.data, view);
    this.read.set(uri.toString(), { version: outcome.stat.version, mtime: outcome.stat.mtime, size: encoded.length });
    this.overwriteAt.delete(uri.toString());
    return encoded;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, _options?: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    const { connectionId, path, view } = locate(uri);
    const decoded = decodeView(content, view);
    if (!decoded.ok) throw vscode.FileSystemError.NoPermissions(describeDecodeProblem(path, decoded.problem));
    const { writer } = await this.writer(uri, connectionId);
    const key = uri.toString();
    const version = await this.versionToWrite(uri, writer, path);
    const outcome = await writer.setData(path, decoded.data, version);
    if (!outcome.ok) {
      if (outcome.failure.code === 'noAuth') void showWriteFailure(connectionId, outcome.failure);
      if (outcome.failure.code === 'badVersion') throw this.conflict(uri, path, version);
      throw this.error(outcome.failure);
    }
    log().info(`saved ${path} (${decoded.data.length} bytes, version ${version} → ${outcome.stat.version})`);
    this.read.set(key, { version: outcome.stat.version, mtime: outcome.stat.mtime, size: content.length });
    this.overwriteAt.delete(key);
  }

  /** The version this save may overwrite: the one the user chose to overwrite, else the one the document read. */
  private async versionToWrite(uri: vscode.Uri, writer: LiveWriter['writer'], path: string): Promise<number> {
    const key = uri.toString();
    const chosen = this.overwriteAt.get(key);
    if (chosen !== undefined) return chosen;
    const read = this.read.get(key);
    if (read) return read.version;
    // Written without being read (workspace.fs.writeFile): that API means "replace", at the current version.
    const current = await writer.session.exists(path).catch(() => undefined);
    if (!current) throw vscode.FileSystemError.FileNotFound(uri);
    return current.version;
  }

  /** A refused save: the error VS Code shows, and our own question naming the znode with Compare / Overwrite. */
  private conflict(uri: vscode.Uri, path: string, version: number): vscode.FileSystemError {
    const message = t('{0} was changed by another client since version {1}, which your edit is based on: not saved.', path, version);
    const compare = t('Compare');
    const overwrite = t('Overwrite');
    void warn(`${message} ${t('Compare shows the server\'s data beside your edit; Overwrite replaces it with your edit.')}`, compare, overwrite).then((choice) => {
      if (choice === compare) void vscode.commands.executeCommand(Command.compareWithServer, uri);
      if (choice === overwrite) void vscode.commands.executeCommand(Command.saveOverwriting, uri);
    });
    return vscode.FileSystemError.NoPermissions(message);
  }

  /**
   * Lets the next save of `uri` overwrite the version the server has now (the user chose Overwrite after seeing a
   * conflict). Answers that version; undefined when the node is gone.
   */
  async allowOverwrite(uri: vscode.Uri): Promise<number | undefined> {
    const { connectionId, path } = locate(uri);
    const { live } = await this.writer(uri, connectionId);
    const stat = await live.session.exists(path);
    if (!stat) return undefined;
    this.overwriteAt.set(uri.toString(), stat.version);
    return stat.version;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(t('{0}: delete nodes from the ZooScope explorer.', locate(uri).path));
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(t('{0}: ZooKeeper cannot rename nodes.', locate(uri).path));
  }

  /** Every open document (any view) of a node. */
  private urisOf(connectionId: string, path: string): vscode.Uri[] {
    return vscode.workspace.textDocuments.map((d) => d.uri).filter((uri) => {
      if (uri.scheme !== ZNODE_SCHEME) return false;
      const location = parseLocation(uri.path, uri.query);
      return location?.connectionId === connectionId && location.path === path;
    });
  }

  private onOpened(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== ZNODE_SCHEME) return;
    const key = doc.uri.toString();
    if (this.documentWatches.has(key)) return;
    const location = parseLocation(doc.uri.path, doc.uri.query);
    if (location) this.documentWatches.set(key, this.watches.hold(location.connectionId, location.path));
  }

  private onWatchEvent(connectionId: string, path: string, event: WatchEvent): void {
    if (event.kind === 'childrenChanged') return;
    if (event.kind !== 'deleted') this.onNodeChanged(connectionId, path);
    const type = event.kind === 'deleted' ? vscode.FileChangeType.Deleted : event.kind === 'created' ? vscode.FileChangeType.Created : vscode.FileChangeType.Changed;
    const uris = this.urisOf(connectionId, path);
    if (uris.length) this.changed.fire(uris.map((uri) => ({ type, uri })));
  }

  private async writer(uri: vscode.Uri, connectionId: string): Promise<LiveWriter> {
    const found = await liveWriter(this.connections, connectionId);
    if (!found) throw vscode.FileSystemError.Unavailable(t('{0}: the connection is not open.', locate(uri).path));
    return found;
  }

  private error(failure: WriteFailure): vscode.FileSystemError {
    const message = describeWriteFailure(failure);
    if (failure.code === 'noNode') return vscode.FileSystemError.FileNotFound(message);
    if (failure.code === 'readOnly' || failure.code === 'noAuth' || failure.code === 'protectedPath') return vscode.FileSystemError.NoPermissions(message);
    if (failure.code === 'connectionLoss' || failure.code === 'closed' || failure.code === 'sessionExpired') return vscode.FileSystemError.Unavailable(message);
    return new vscode.FileSystemError(message);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.documentWatches.forEach((d) => d.dispose());
    this.watches.dispose();
    this.changed.dispose();
  }
}
