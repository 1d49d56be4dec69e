// A herd-free exclusive lock recipe for the demo, writing node names the way Curator's InterProcessMutex and
// kazoo's Lock do, so ZooScope can be shown real-looking queues. (Demo code, not the extension's own lock.)
//
// Recipe: create an EPHEMERAL_SEQUENTIAL node, list the children, order the contenders by the sequence
// number suffix (never by name: the prefixes are random), hold the lock when ours is the lowest, otherwise
// watch ONLY the predecessor and list again after every wake-up.
import { randomUUID } from 'node:crypto';
import {
  call, create, CreateMode, ensurePath, Exception, exists, getChildren, isZkError, remove, ZkClient,
} from './zk';

export interface LockFlavor {
  readonly name: string;
  /** A fresh node-name prefix; the server appends the 10-digit sequence number. */
  newPrefix(): string;
  /** The queue position key of a child, or undefined when the child is not a contender of this flavor. */
  sequenceOf(child: string): number | undefined;
  /** How a waiter watches its predecessor (Curator: getData; kazoo: exists). */
  readonly watchWith: 'getData' | 'exists';
}

function suffixAfterLast(child: string, marker: string): number | undefined {
  const at = child.lastIndexOf(marker);
  if (at < 0) return undefined;
  const digits = child.slice(at + marker.length);
  return /^-?\d{1,10}$/.test(digits) ? Number(digits) : undefined;
}

/** Curator InterProcessMutex: `_c_<uuid v4>-lock-<seq10>` (protected mode), ordered by the text after the last `lock-`. */
export const curatorMutex: LockFlavor = {
  name: 'curator',
  newPrefix: () => `_c_${randomUUID()}-lock-`,
  sequenceOf: (child) => suffixAfterLast(child, '-lock-'),
  watchWith: 'getData',
};

/** kazoo Lock: `<uuid4 hex>__lock__<seq10>`; kazoo ignores children without its marker. */
export const kazooLock: LockFlavor = {
  name: 'kazoo',
  newPrefix: () => `${randomUUID().replace(/-/g, '')}__lock__`,
  sequenceOf: (child) => suffixAfterLast(child, '__lock__'),
  watchWith: 'exists',
};

/** The contenders of `children`, in queue order. */
export function queueOrder(flavor: LockFlavor, children: readonly string[]): string[] {
  return children
    .map((name) => ({ name, seq: flavor.sequenceOf(name) }))
    .filter((c): c is { name: string; seq: number } => c.seq !== undefined)
    .sort((a, b) => a.seq - b.seq)
    .map((c) => c.name);
}

export class LockCancelled extends Error {
  constructor() { super('lock attempt cancelled'); }
}

/** One attempt at the lock by one session: enqueue, wait for our turn, release. */
export class LockContender {
  private prefix = '';
  private node: string | undefined;
  private wake: (() => void) | undefined;
  private cancelled = false;

  constructor(
    private readonly client: ZkClient,
    readonly lockPath: string,
    readonly flavor: LockFlavor,
    private readonly data: Buffer,
  ) {}

  /** Our node's name (without the parent path), once enqueued. */
  get nodeName(): string | undefined { return this.node; }

  /** Creates our EPHEMERAL_SEQUENTIAL node and returns its name. */
  async enqueue(): Promise<string> {
    await ensurePath(this.client, this.lockPath);
    this.prefix = this.flavor.newPrefix();
    try {
      const path = await create(this.client, `${this.lockPath}/${this.prefix}`, this.data, CreateMode.EPHEMERAL_SEQUENTIAL);
      this.node = path.slice(path.lastIndexOf('/') + 1);
    } catch (error) {
      // A sequential create is not idempotent: after a connection loss the node may exist. The random
      // prefix lets us find it again instead of leaving an orphan in the queue.
      if (!isZkError(error, Exception.CONNECTION_LOSS)) throw error;
      await this.waitConnected();
      this.node = (await getChildren(this.client, this.lockPath)).find((c) => c.startsWith(this.prefix));
      if (!this.node) return this.enqueue();
    }
    return this.node;
  }

  /** Resolves when our node is the lowest contender; rejects with LockCancelled after cancel(). */
  async acquire(): Promise<void> {
    if (!this.node) throw new Error('enqueue() first');
    for (;;) {
      if (this.cancelled) throw new LockCancelled();
      const queue = queueOrder(this.flavor, await getChildren(this.client, this.lockPath));
      const index = queue.indexOf(this.node);
      if (index < 0) throw new Error(`our lock node ${this.lockPath}/${this.node} is gone (session expired?)`);
      if (index === 0) return;
      await this.waitForDeletion(`${this.lockPath}/${queue[index - 1]}`);
    }
  }

  /** True while our node still exists and belongs to this client's session (the lock is still ours). */
  async stillOwned(): Promise<boolean> {
    if (!this.node) return false;
    const stat = await exists(this.client, `${this.lockPath}/${this.node}`);
    return !!stat && stat.ephemeralOwner.equals(this.client.getSessionId());
  }

  /** Deletes our node (the lock passes to the next contender). */
  async release(): Promise<void> {
    const node = this.node;
    this.node = undefined;
    if (!node) return;
    try {
      await remove(this.client, `${this.lockPath}/${node}`);
    } catch (error) {
      if (!isZkError(error, Exception.NO_NODE)) throw error;
    }
  }

  /** Stops a pending acquire(). */
  cancel(): void {
    this.cancelled = true;
    this.wake?.();
  }

  /** Watches only `path` (our predecessor) and resolves on its next event, or at once if it is already gone. */
  private waitForDeletion(path: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => { this.wake = undefined; resolve(); };
      if (this.cancelled) { resolve(); return; }
      this.wake = done;
      const watcher = () => done();
      const answered = (error: unknown, found: boolean) => {
        if (error) {
          if (isZkError(error, Exception.NO_NODE)) done();
          else { this.wake = undefined; reject(error); }
        } else if (!found) {
          done();
        }
      };
      if (this.flavor.watchWith === 'getData') {
        call<boolean>(`getData ${path}`, (cb) => this.client.getData(path, watcher, (e) => cb(e, true)))
          .then((found) => answered(null, found), (e: unknown) => answered(e, false));
      } else {
        call<boolean>(`exists ${path}`, (cb) => this.client.exists(path, watcher, (e, stat) => cb(e, !!stat)))
          .then((found) => answered(null, found), (e: unknown) => answered(e, false));
      }
    });
  }

  private waitConnected(): Promise<void> {
    return new Promise((resolve) => {
      if (this.client.getState().name === 'SYNC_CONNECTED') resolve();
      else this.client.once('connected', resolve);
    });
  }
}
