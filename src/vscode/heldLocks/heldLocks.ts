// Every lock and election this window takes part in, across connections: live attempts (acquiring, waiting, held,
// leader, suspended) and ended ones the user still sees (lost, released, …) until cleared. The lock logic itself
// is the ZooKeeper layer's (src/zk/locks); this keeps the latest snapshot of each attempt and says what changed.
import * as vscode from 'vscode';
import { AcquireOptions, FINAL_STATES, LockHandle, LockSnapshot } from '../../zk/locks';
import type { ConnectionManager } from '../core/connectionManager';
import type { ConnectionStore } from '../core/connectionStore';
import { log } from '../common/log';
import { LockManagers } from './lockManagers';

export interface HeldLock {
  /** Unique per attempt (a new attempt on the same path is a new entry). */
  readonly id: number;
  readonly connectionId: string;
  readonly handle: LockHandle;
  /** The latest facts (refreshed on every change of the handle). */
  snapshot: LockSnapshot;
}

export interface StartResult {
  entry: HeldLock;
  /** The window already took part in this lock: nothing new was queued. */
  repeated: boolean;
}

export const isLive = (s: LockSnapshot): boolean => !FINAL_STATES.has(s.state);
export const isHeld = (s: LockSnapshot): boolean => s.state === 'held' || s.state === 'leader';
/** Held when its lock session lost the connection: maybe still ours, nobody can tell until it is back. */
export const isUnsure = (s: LockSnapshot): boolean => s.state === 'suspended' && (s.suspendedFrom === 'held' || s.suspendedFrom === 'leader');

export class HeldLocks implements vscode.Disposable {
  readonly managers: LockManagers;
  private readonly entries = new Map<number, HeldLock>();
  private nextId = 1;
  private readonly changed = new vscode.EventEmitter<HeldLock | undefined>();
  /** Fires with the entry that changed (undefined: several, or removed). */
  readonly onDidChange = this.changed.event;
  private readonly lost = new vscode.EventEmitter<HeldLock>();
  /** Fires the moment a lock is known to be lost (session expired or lost, node deleted, owner changed). */
  readonly onDidLose = this.lost.event;
  private readonly closedConnection = new vscode.EventEmitter<{ connectionId: string; ended: HeldLock[] }>();
  /** Fires when a connection's lock session was closed because the connection was disconnected or removed. */
  readonly onDidCloseConnection = this.closedConnection.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly store: ConnectionStore, connections: ConnectionManager) {
    this.managers = new LockManagers(store);
    this.subscriptions = [
      connections.onDidDisconnect((id) => this.closeConnection(id)),
      store.onDidChange(() => this.onConnectionsChanged()),
    ];
  }

  /** Entries, live ones first, each group oldest first; of one connection if given. */
  list(connectionId?: string): HeldLock[] {
    const all = [...this.entries.values()].filter((e) => connectionId === undefined || e.connectionId === connectionId);
    return all.sort((a, b) => Number(isLive(b.snapshot)) - Number(isLive(a.snapshot)) || a.snapshot.startedAt - b.snapshot.startedAt || a.id - b.id);
  }

  get(id: number): HeldLock | undefined {
    return this.entries.get(id);
  }

  /** The entry of connection `connectionId` whose lock path or own node is `path` (a live one before an ended one). */
  find(connectionId: string, path: string): HeldLock | undefined {
    return this.list(connectionId).find((e) => e.snapshot.path === path || e.snapshot.node === path);
  }

  /** Attempts still waiting (or acquiring). */
  get waitingCount(): number {
    return this.list().filter((e) => e.snapshot.state === 'waiting' || e.snapshot.state === 'acquiring').length;
  }

  /** The lock sessions' ids (0x-hex) of a connection: the nodes they own are this window's. */
  sessionIds(connectionId: string): string[] {
    const id = this.managers.peek(connectionId)?.sessionId;
    return id ? [id] : [];
  }

  /**
   * Starts taking the lock at `path` on connection `connectionId`. A lock this window already takes part in is not
   * queued twice: the manager counts the repeated request and the same entry comes back with `repeated`.
   */
  async start(connectionId: string, path: string, options: AcquireOptions): Promise<StartResult | undefined> {
    const manager = await this.managers.get(connectionId);
    if (!manager) return undefined;
    const existing = this.list(connectionId).find((e) => e.snapshot.path === path && isLive(e.snapshot));
    const handle = await manager.acquire(path, options);
    if (existing && existing.handle === handle) {
      existing.snapshot = handle.snapshot;
      this.changed.fire(existing);
      log().info(`lock ${path}: asked again while ${existing.snapshot.state} (not queued twice)`);
      return { entry: existing, repeated: true };
    }
    // A new attempt replaces the ended ones on the same path (the view shows each lock once).
    for (const old of this.list(connectionId)) if (old.snapshot.path === path && !isLive(old.snapshot)) this.entries.delete(old.id);
    const entry: HeldLock = { id: this.nextId++, connectionId, handle, snapshot: handle.snapshot };
    this.entries.set(entry.id, entry);
    handle.on('change', (snapshot) => {
      entry.snapshot = snapshot;
      this.changed.fire(entry);
    });
    handle.on('lost', (snapshot) => {
      entry.snapshot = snapshot;
      log().warn(`lock ${snapshot.path} lost: ${snapshot.lostReason ?? '?'} (node ${snapshot.node ?? '-'})`);
      this.lost.fire(entry);
    });
    log().info(`lock ${path} (${options.mode ?? 'exclusive'}, convention ${options.convention ?? 'auto'}) on ${connectionId}: started`);
    this.changed.fire(entry);
    return { entry, repeated: false };
  }

  /** Releases a held lock, or cancels a pending attempt (its node is deleted); resolves when it is gone. */
  async release(entry: HeldLock): Promise<void> {
    await entry.handle.release();
    entry.snapshot = entry.handle.snapshot;
    this.changed.fire(entry);
  }

  /** Releases every live lock (of one connection if given); resolves with how many there were. */
  async releaseAll(connectionId?: string): Promise<number> {
    const live = this.list(connectionId).filter((e) => isLive(e.snapshot));
    await Promise.all(live.map((e) => this.release(e).catch((error: unknown) => log().warn(`release ${e.snapshot.path}: ${String(error)}`))));
    return live.length;
  }

  /** Removes ended entries from the list (live ones stay). */
  clear(entries: HeldLock[] = this.list()): number {
    let cleared = 0;
    for (const e of entries) if (!isLive(e.snapshot) && this.entries.delete(e.id)) cleared++;
    if (cleared) this.changed.fire(undefined);
    return cleared;
  }

  private onConnectionsChanged(): void {
    for (const id of this.managers.stale((c) => this.list(c).some((e) => isLive(e.snapshot)))) this.closeConnection(id);
    // Rows of a removed connection go with it (its lock session is closed by now).
    const gone = this.list().filter((e) => !this.store.get(e.connectionId) && !isLive(e.snapshot));
    gone.forEach((e) => this.entries.delete(e.id));
    if (gone.length) this.changed.fire(undefined);
  }

  /** Closes the lock session of a connection: the server deletes its nodes at once, every attempt ends. */
  closeConnection(connectionId: string): void {
    if (!this.managers.peek(connectionId)) return;
    const ended = this.list(connectionId).filter((e) => isLive(e.snapshot));
    this.managers.close(connectionId);
    // The handles saw their session close (released, or cancelled if never held): keep the snapshots they ended on.
    for (const e of this.list(connectionId)) e.snapshot = e.handle.snapshot;
    if (!this.store.get(connectionId)) for (const e of this.list(connectionId)) this.entries.delete(e.id);
    this.changed.fire(undefined);
    if (ended.length) this.closedConnection.fire({ connectionId, ended });
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.managers.dispose();
    this.changed.dispose();
    this.lost.dispose();
    this.closedConnection.dispose();
  }
}
