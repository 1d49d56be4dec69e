// Watches that stay until dropped: persistent watches (addWatch, ZooKeeper 3.6+) re-added after every reconnect,
// or on older servers one-shot watches re-armed after each event. Listeners hear about events on exactly the
// watched path, plus a `resync` after a reconnect (events may have been missed meanwhile).
import type { Client, Event } from 'node-zookeeper-client';
import { isZkError, ZkError } from '../errors';
import { parentPath } from '../paths';
import * as ops from '../protocol/operations';
import { AddWatchMode, EventType, WatcherType } from '../protocol/opcodes';
import type { WatchNotification } from '../protocol/rawChannel';

export type WatchEvent =
  | { kind: 'created' | 'deleted' | 'dataChanged' | 'childrenChanged'; path: string }
  | { kind: 'resync'; path: string };

interface OneShotWatchers {
  data: (event: Event) => void;
  children: (event: Event) => void;
}

export type WatchListener = (event: WatchEvent) => void;

/** What WatchRegistry needs from a session (kept narrow so it is easy to reason about). */
export interface WatchHost {
  readonly channel: import('../protocol/rawChannel').RawChannel;
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
  /** One-shot mode: the watcher functions of each watched path. */
  private readonly oneShot = new Map<string, OneShotWatchers>();
  /** Persistent-recursive watches: listeners hear about the root and every node below it. */
  private readonly treeListeners = new Map<string, Set<WatchListener>>();
  /** Paths whose watch is in recursive mode on the server now (until a plain re-add or removal is answered). */
  private readonly recursiveOnServer = new Set<string>();

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
        if (set.size === 0) {
          this.listeners.delete(path);
          this.oneShot.delete(path);
        }
        throw error;
      }
    }
    return () => this.unwatch(path, listener);
  }

  /**
   * Watches `root` and everything below it with one persistent-recursive watch (3.6+): created, deleted and
   * dataChanged events of any descendant, with its path (the server sends no childrenChanged for these).
   * Re-added after every reconnect, followed by a `resync` for the root. A server without addWatch answers
   * `unimplemented`: there is no cheap emulation of a whole subtree, so the caller decides what to do.
   */
  async watchTree(root: string, listener: WatchListener): Promise<() => void> {
    let set = this.treeListeners.get(root);
    const first = !set;
    if (!set) this.treeListeners.set(root, (set = new Set()));
    set.add(listener);
    if (first) {
      try {
        this.recursiveOnServer.add(root);
        await this.retryOnConnectionLoss(() =>
          this.host.request(ops.addWatch(this.host.channel, root, AddWatchMode.persistentRecursive), 'addWatch', root));
      } catch (error) {
        if (!this.treeListeners.has(root)) this.recursiveOnServer.delete(root);
        set.delete(listener);
        if (set.size === 0) this.treeListeners.delete(root);
        throw error;
      }
    }
    return () => {
      const current = this.treeListeners.get(root);
      if (!current?.delete(listener) || current.size > 0) return;
      this.treeListeners.delete(root);
      if (this.listeners.has(root) && this.persistentSupported && this.host.isLive) {
        // Back to the plain persistent mode the path's other listeners need (children events, no descendants).
        void this.host.request(ops.addWatch(this.host.channel, root, AddWatchMode.persistent), 'addWatch', root)
          .catch(() => undefined)
          .finally(() => { if (!this.treeListeners.has(root)) this.recursiveOnServer.delete(root); });
      } else {
        this.recursiveOnServer.delete(root);
      }
      this.removeServerWatch(root);
    };
  }

  clear(): void {
    this.listeners.clear();
    this.oneShot.clear();
    this.treeListeners.clear();
    this.recursiveOnServer.clear();
  }

  private unwatch(path: string, listener: WatchListener): void {
    const set = this.listeners.get(path);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(path);
    this.oneShot.delete(path);
    if (this.persistentSupported) this.removeServerWatch(path);
  }

  private removeServerWatch(path: string): void {
    // `any` also removes the other kind of persistent watch on the same path: keep both while either is used.
    if (!this.host.isLive || this.listeners.has(path) || this.treeListeners.has(path)) return;
    // Best effort: the server drops it with the session anyway. `any`, because servers before 3.9 do not know
    // the `persistent` watcher types, while `any` removes persistent watches on every version that has them.
    this.host.request(ops.removeWatches(this.host.channel, path, WatcherType.any), 'removeWatches', path)
      .catch(() => undefined);
  }

  private async arm(path: string): Promise<void> {
    // The server keeps one watch mode per path and session: a recursive watch there covers this one too.
    if (this.treeListeners.has(path) && this.persistentSupported) return;
    if (this.persistentSupported !== false) {
      try {
        await this.retryOnConnectionLoss(() =>
          this.host.request(ops.addWatch(this.host.channel, path, AddWatchMode.persistent), 'addWatch', path));
        this.persistentSupported = true;
        return;
      } catch (error) {
        if (!isZkError(error, 'unimplemented')) throw error;
        this.persistentSupported = false;
      }
    }
    // A server that answers UNIMPLEMENTED closes the connection right after: requests sent meanwhile fail with
    // connectionLoss, and the retry goes out on the next connection.
    await this.retryOnConnectionLoss(() => this.armOneShot(path));
  }

  /** Runs `attempt` again (at most twice more) when it fails with connectionLoss while the session lives on. */
  private async retryOnConnectionLoss<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (tries >= 3 || !isZkError(error, 'connectionLoss') || !this.host.isLive) throw error;
      }
    }
  }

  /**
   * Pre-3.6 servers: an exists watch (created/deleted/data) plus a children watch, each re-armed after it fires.
   * The watcher functions are the same for a path as long as it is watched, so arming again never doubles them
   * (the library keeps one registration per function and path, the server one watch per path and connection).
   */
  private armOneShot(path: string): Promise<void> {
    let watchers = this.oneShot.get(path);
    if (!watchers) {
      const own: OneShotWatchers = {
        // Each watch is armed again before its event is delivered, so whatever a listener reads in response goes
        // out after the new watch: a later change fires again, an earlier one shows in the read.
        data: (event: Event) => {
          if (this.oneShot.get(path) !== own) return;
          const type = event.getType();
          const rearmed = this.armData(path, own);
          if (type === EventType.created) this.rearmChildrenOfNewNode(path, own);
          this.deliver({ type, state: 3, path });
          // A deletion or creation between the event and the new watch would go unreported: the new watch's
          // answer tells whether the node exists now.
          void rearmed.then((exists) => {
            if (this.oneShot.get(path) !== own) return;
            if (type === EventType.deleted && exists) {
              this.rearmChildrenOfNewNode(path, own);
              this.deliver({ type: EventType.created, state: 3, path });
            } else if (type !== EventType.deleted && !exists) {
              this.deliver({ type: EventType.deleted, state: 3, path });
            }
          }, () => undefined);
        },
        children: (event: Event) => {
          if (this.oneShot.get(path) !== own) return;
          const type = event.getType();
          // A deletion reaches both watchers; the data watcher reports it.
          if (type === EventType.deleted) return;
          void this.armChildren(path, own).catch(() => undefined);
          this.deliver({ type, state: 3, path });
        },
      };
      watchers = own;
      this.oneShot.set(path, own);
    }
    return Promise.all([this.armData(path, watchers), this.armChildren(path, watchers)]).then(() => undefined);
  }

  /**
   * A (re-)created node needs its children watch again (getChildren on a missing node sets none). A new node has
   * no children: any the arming finds came before the watch did, so report them.
   */
  private rearmChildrenOfNewNode(path: string, own: OneShotWatchers): void {
    void this.armChildren(path, own).then((count) => {
      if (count > 0 && this.oneShot.get(path) === own) this.deliver({ type: EventType.childrenChanged, state: 3, path });
    }, () => undefined);
  }

  /** Arms the exists watch; resolves with whether the node exists. */
  private armData(path: string, watchers: OneShotWatchers): Promise<boolean> {
    const client = this.host.client;
    return this.host.request(new Promise<boolean>((resolve, reject) => {
      client.exists(path, watchers.data, (error, stat) => (error ? reject(error) : resolve(!!stat)));
    }), 'exists', path);
  }

  /** Arms the children watch; resolves with how many children the node has (0 when it is missing). */
  private armChildren(path: string, watchers: OneShotWatchers): Promise<number> {
    const client = this.host.client;
    return this.host.request(new Promise<number>((resolve, reject) => {
      // NoNode is fine: the exists watch reports the creation, and the children watch is armed then.
      client.getChildren(path, watchers.children, (error, children) =>
        (error && !isZkError(ZkError.from(error, 'getChildren', path), 'noNode') ? reject(error) : resolve(children?.length ?? 0)));
    }), 'getChildren', path);
  }

  private onNotification(n: WatchNotification): void {
    if (this.persistentSupported) this.deliver(n);
    if (this.treeListeners.size > 0) this.deliverToTrees(n);
    if (this.recursiveOnServer.size > 0) this.synthesizeChildrenChanged(n);
  }

  /**
   * A path watched both ways is in recursive mode on the server, which sends no childrenChanged: the plain
   * listeners hear one when a direct child is created or deleted.
   */
  private synthesizeChildrenChanged(n: WatchNotification): void {
    if (n.type !== EventType.created && n.type !== EventType.deleted) return;
    const parent = parentPath(n.path);
    if (parent !== undefined && this.recursiveOnServer.has(parent) && this.listeners.has(parent)) {
      this.deliver({ type: EventType.childrenChanged, state: n.state, path: parent });
    }
  }

  private deliverToTrees(n: WatchNotification): void {
    const kind = kinds[n.type];
    if (!kind) return;
    for (const [root, set] of this.treeListeners) {
      if (n.path !== root && !n.path.startsWith(root === '/' ? '/' : `${root}/`)) continue;
      for (const listener of [...set]) listener({ kind, path: n.path });
    }
  }

  private deliver(n: WatchNotification): void {
    const kind = kinds[n.type];
    const set = this.listeners.get(n.path);
    if (!kind || !set) return;
    for (const listener of [...set]) listener({ kind, path: n.path });
  }

  private onReconnected(): void {
    for (const path of this.listeners.keys()) {
      if (this.persistentSupported && this.treeListeners.has(path)) {
        // Re-added in recursive mode below.
      } else if (this.persistentSupported) {
        void this.host.request(ops.addWatch(this.host.channel, path, AddWatchMode.persistent), 'addWatch', path)
          .catch(() => undefined);
      } else if (this.persistentSupported === false) {
        // The library restores the one-shot watches it knows; this arms those whose arming the drop interrupted.
        void this.armOneShot(path).catch(() => undefined);
      }
      for (const listener of [...(this.listeners.get(path) ?? [])]) listener({ kind: 'resync', path });
    }
    for (const [root, set] of this.treeListeners) {
      void this.host.request(ops.addWatch(this.host.channel, root, AddWatchMode.persistentRecursive), 'addWatch', root)
        .catch(() => undefined);
      for (const listener of [...set]) listener({ kind: 'resync', path: root });
    }
  }
}
