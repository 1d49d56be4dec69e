// One ZooKeeper watch per znode that has a data document open (in any view), counted by holders. Its events
// become file change events, so VS Code reloads documents that have no unsaved edits. After a session is
// replaced (expiry) the watches are set again on the new session and documents are told to re-read.
import * as vscode from 'vscode';
import { isZkError } from '../../zk/errors';
import type { WatchEvent } from '../../zk/session/watchRegistry';
import type { ConnectionManager } from '../core/connectionManager';
import { log } from '../common/log';

interface Watched {
  connectionId: string;
  path: string;
  holders: number;
  session: unknown;
  stop?: Promise<(() => void) | undefined>;
}

const keyOf = (connectionId: string, path: string) => `${connectionId}\u0000${path}`;

export class DataWatches implements vscode.Disposable {
  private readonly watched = new Map<string, Watched>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connections: ConnectionManager, private readonly onEvent: (connectionId: string, path: string, event: WatchEvent) => void) {
    this.subscription = connections.onDidChange((id) => this.rearm(id));
  }

  /** Holds a watch on the node until the returned disposable is disposed. */
  hold(connectionId: string, path: string): vscode.Disposable {
    const key = keyOf(connectionId, path);
    let entry = this.watched.get(key);
    if (!entry) this.watched.set(key, entry = { connectionId, path, holders: 0, session: undefined });
    entry.holders++;
    this.arm(entry);
    let released = false;
    return new vscode.Disposable(() => {
      if (released || !entry) return;
      released = true;
      if (--entry.holders > 0) return;
      this.watched.delete(key);
      void entry.stop?.then((stop) => stop?.());
    });
  }

  get paths(): string[] {
    return [...this.watched.values()].map((w) => w.path);
  }

  private arm(entry: Watched): void {
    const live = this.connections.get(entry.connectionId);
    if (!live || entry.session === live.session) return;
    void entry.stop?.then((stop) => stop?.());
    entry.session = live.session;
    entry.stop = live.session.watches.watch(entry.path, (event) => this.onEvent(entry.connectionId, entry.path, event))
      .catch((error: unknown) => {
        if (!isZkError(error, 'noNode')) log().warn(`watch ${entry.path}: ${String(error)}`);
        return undefined;
      });
  }

  /** A connection changed: watches on a replaced session are set again, and their documents re-read. */
  private rearm(connectionId: string): void {
    const live = this.connections.get(connectionId);
    for (const entry of this.watched.values()) {
      if (entry.connectionId !== connectionId || !live || entry.session === live.session) continue;
      this.arm(entry);
      this.onEvent(connectionId, entry.path, { kind: 'resync', path: entry.path });
    }
  }

  dispose(): void {
    this.subscription.dispose();
    for (const entry of this.watched.values()) void entry.stop?.then((stop) => stop?.());
    this.watched.clear();
  }
}
