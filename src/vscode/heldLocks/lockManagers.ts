// One LockManager per saved connection, opened on first use with the connection's own settings (connect string,
// chroot, session timeout, digest credentials from secret storage) but on a ZooKeeper session of its own, so that
// browsing (reconnects, expiries, Disconnect of the explorer's session) never costs a lock by accident.
import * as vscode from 'vscode';
import { LockManager } from '../../zk/locks';
import type { ConnectionStore, SavedConnection } from '../core/connectionStore';
import { log } from '../common/log';

export class LockManagers implements vscode.Disposable {
  private readonly managers = new Map<string, { manager: LockManager; settings: string }>();
  private readonly pending = new Map<string, Promise<LockManager>>();

  constructor(private readonly store: ConnectionStore) {}

  /** The manager of connection `id`, created when needed; undefined when no such connection is saved. */
  async get(id: string): Promise<LockManager | undefined> {
    const saved = this.store.get(id);
    if (!saved) return undefined;
    const existing = this.managers.get(id);
    if (existing) return existing.manager;
    let pending = this.pending.get(id);
    if (!pending) {
      pending = this.create(saved).finally(() => this.pending.delete(id));
      this.pending.set(id, pending);
    }
    return pending;
  }

  /** The manager of `id` if one was opened (never creates one). */
  peek(id: string): LockManager | undefined {
    return this.managers.get(id)?.manager;
  }

  /** Connection ids with an open manager. */
  ids(): string[] {
    return [...this.managers.keys()];
  }

  /** Closes the manager of `id`: its session ends and the server deletes every node it held or queued. */
  close(id: string): void {
    const entry = this.managers.get(id);
    if (!entry) return;
    this.managers.delete(id);
    entry.manager.close();
    log().info(`lock session of ${id} closed`);
  }

  /**
   * After the saved connections changed, the managers to close: a removed connection's (its locks are released),
   * and one whose settings changed while it holds nothing (the next lock then uses the new settings).
   */
  stale(hasLiveLocks: (id: string) => boolean): string[] {
    return [...this.managers].filter(([id, entry]) => {
      const saved = this.store.get(id);
      return !saved || (entry.settings !== settingsKey(saved) && !hasLiveLocks(id));
    }).map(([id]) => id);
  }

  private async create(saved: SavedConnection): Promise<LockManager> {
    const manager = new LockManager(await this.store.sessionOptions(saved));
    manager.on('session', (state) => log().info(`lock session of ${saved.name}: ${state}${manager.sessionId ? ` (${manager.sessionId})` : ''}`));
    this.managers.set(saved.id, { manager, settings: settingsKey(saved) });
    return manager;
  }

  dispose(): void {
    for (const id of [...this.managers.keys()]) this.close(id);
  }
}

/** What a lock session depends on (the password is not compared: it is not kept here). */
function settingsKey(saved: SavedConnection): string {
  return JSON.stringify([saved.connectString, saved.chroot ?? '', saved.sessionTimeoutMs ?? 30000, saved.digestUser ?? '']);
}
