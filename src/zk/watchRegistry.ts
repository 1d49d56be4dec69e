// Watches that stay until dropped: persistent watches (addWatch, ZooKeeper 3.6+) re-added after every reconnect,
// or on older servers one-shot watches re-armed after each event. Listeners hear about events on exactly the
// watched path, plus a `resync` after a reconnect (events may have been missed meanwhile).
import type { Client, Event } from 'node-zookeeper-client';
import { isZkError } from './errors';
import * as ops from './protocol/operations';
import { AddWatchMode, EventType, WatcherType } from './protocol/opcodes';
import type { WatchNotification } from './protocol/rawChannel';

export type WatchEvent =
  | { kind: 'created' | 'deleted' | 'dataChanged' | 'childrenChanged'; path: string }
  | { kind: 'resync'; path: string };

export type WatchListener = (event: WatchEvent) => void;

/** What WatchRegistry needs from a session (kept narrow so it is easy to reason about). */
export interface WatchHost {
  readonly channel: import('./protocol/rawChannel').RawChannel;
  readonly client: Client;
  readonly isLive: boolean;
  request<T>(promise: Promise<T>, operation: string, path?: string): Promise<T>;
  on(event: 'reconnected', listener: () => void): unknown;
  onNotification(listener: (n: WatchNotification) => void): () => void;
}

const kinds: Record<number, WatchEvent['kind']> = {
  [EventType.created]: 'created',
  [EventType.deleted]: 'deleted',
  [EventType.dataChanged]: 'dataChanged',
  [EventType.childrenChanged]: 'childrenChanged',
};

export class WatchRegistry {
  private readonly listeners = new Map<string, Set<WatchListener>>();
  /** undefined until the first addWatch tells whether the server has persistent watches. */
  private persistentSupported: boolean | undefined;

  constructor(private readonly host: WatchHost) {
    host.onNotification((n) => this.onNotification(n));
    host.on('reconnected', () => this.onReconnected());
  }

  /** Whether watches are persistent (true), one-shot re-armed (false), or not known yet. */
  get persistent(): boolean | undefined {
    return this.persistentSupported;
  }

  /** Paths watched now. */
  get paths(): string[] {
    return [...this.listeners.keys()];
  }

  /** Starts watching `path`; resolves once the server has the watch. Returns the function that stops it. */
  async watch(path: string, listener: WatchListener): Promise<() => void> {
    let set = this.listeners.get(path);
    const first = !set;
    if (!set) {
      set = new Set();
      this.listeners.set(path, set);
    }
    set.add(listener);
    if (first) {
      try {
        await this.arm(path);
      } catch (error) {
        set.delete(listener);
        if (set.size === 0) this.listeners.delete(path);
        throw error;
      }
    }
    return () => this.unwatch(path, listener);
  }

  clear(): void {
    this.listeners.clear();
  }

  private unwatch(path: string, listener: WatchListener): void {
    const set = this.listeners.get(path);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(path);
    if (this.persistentSupported && this.host.isLive) {
      // Best effort: the server drops it with the session anyway.
      this.host.request(ops.removeWatches(this.host.channel, path, WatcherType.persistent), 'removeWatches', path)
        .catch(() => undefined);
    }
  }

  private async arm(path: string): Promise<void> {
    if (this.persistentSupported !== false) {
      try {
        await this.host.request(ops.addWatch(this.host.channel, path, AddWatchMode.persistent), 'addWatch', path);
        this.persistentSupported = true;
        return;
      } catch (error) {
        if (!isZkError(error, 'unimplemented')) throw error;
        this.persistentSupported = false;
      }
    }
    await this.armOneShot(path);
  }

  /** Pre-3.6 servers: an exists watch (created/deleted/data) plus a children watch, re-armed on every event. */
  private armOneShot(path: string): Promise<void> {
    const client = this.host.client;
    const fire = (event: Event) => {
      if (!this.listeners.has(path)) return;
      this.deliver({ type: event.getType(), state: 3, path });
      void this.armOneShot(path).catch(() => undefined);
    };
    const existsArmed = this.host.request(new Promise<void>((resolve, reject) => {
      client.exists(path, fire, (error) => (error ? reject(error) : resolve()));
    }), 'exists', path);
    const childrenArmed = new Promise<void>((resolve) => {
      // NoNode is fine: the exists watch reports the creation, and we arm children then.
      client.getChildren(path, fire, () => resolve());
    });
    return Promise.all([existsArmed, childrenArmed]).then(() => undefined);
  }

  private onNotification(n: WatchNotification): void {
    if (this.persistentSupported) this.deliver(n);
  }

  private deliver(n: WatchNotification): void {
    const kind = kinds[n.type];
    const set = this.listeners.get(n.path);
    if (!kind || !set) return;
    for (const listener of [...set]) listener({ kind, path: n.path });
  }

  private onReconnected(): void {
    for (const path of this.listeners.keys()) {
      if (this.persistentSupported) {
        void this.host.request(ops.addWatch(this.host.channel, path, AddWatchMode.persistent), 'addWatch', path)
          .catch(() => undefined);
      }
      for (const listener of [...(this.listeners.get(path) ?? [])]) listener({ kind: 'resync', path });
    }
  }
}
