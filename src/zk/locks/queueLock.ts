// The herd-free sequential recipe behind exclusive locks, read/write locks and fair elections: an
// EPHEMERAL_SEQUENTIAL node named by the queue's convention (with a GUID, so a create whose answer was lost is found
// again), a watch on the ONE node we wait for (never on the children), and a fresh listing after every wake-up.
import { randomUUID } from 'node:crypto';
import * as zookeeper from 'node-zookeeper-client';
import { isZkError } from '../errors';
import { baseName, joinPath } from '../paths';
import * as ops from '../protocol/operations';
import * as writes from '../protocol/writes';
import { EventType } from '../protocol/opcodes';
import type { WatchNotification } from '../protocol/rawChannel';
import type { ZkSession } from '../session';
import type { ZnodeStat } from '../stat';
import { chooseConvention } from './conventionDetection';
import { convention, ConventionId, LockConvention, NodeIdentity, NodeRole } from './conventions';
import { AttemptEnded, LockHandle } from './lockHandle';
import type { LockMode } from './types';

export interface QueueLockOptions {
  mode: Exclude<LockMode, 'unfairElection'>;
  convention: ConventionId | 'auto';
  data: Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
  positionRefreshMs: number;
}

class ConventionProblem extends Error {}

export class QueueLock extends LockHandle {
  private conv: LockConvention | undefined;
  private role: NodeRole = 'exclusive';
  private identity: NodeIdentity | undefined;
  private nodeName: string | undefined;
  private createTried = false;
  /** The node we wait for (full path), while waiting. */
  private watched: string | undefined;
  private ownWatchArmed = false;
  /** Set while we delete our own node ourselves: its watch firing then is no loss. */
  private deletingOwn = false;

  constructor(session: ZkSession, path: string, private readonly options: QueueLockOptions) {
    super(session, path, options.mode, options.convention === 'auto' ? 'plain' : options.convention, options.timeoutMs, options.signal);
  }

  private get ownPath(): string | undefined {
    return this.nodeName === undefined ? undefined : joinPath(this.path, this.nodeName);
  }

  protected async run(): Promise<void> {
    try {
      await this.prepare();
      await this.createNode();
      await this.queue();
    } catch (error) {
      await this.endAttempt(error);
    }
  }

  /** Parent path, then the queue's convention (recognised, chosen, or ours on an empty path). */
  private async prepare(): Promise<void> {
    const { client } = this.session;
    await this.retrying(() => this.session.libraryCall('mkdirp', this.path, (cb) => client.mkdirp(this.path, cb)));
    const { children } = await this.retrying(() => this.session.getChildren(this.path));
    const forced = this.options.convention === 'auto' ? undefined : this.options.convention;
    const choice = chooseConvention(children, forced);
    if (!choice.ok) {
      this.update({ detection: choice.detection });
      throw new ConventionProblem('conventionUnknown');
    }
    const conv = convention(choice.convention);
    const role = conv.roleFor(this.options.mode);
    this.update({ convention: conv.id, detection: choice.detection });
    if (!role) throw new ConventionProblem('conventionMismatch');
    this.conv = conv;
    this.role = role;
    this.identity = { guid: randomUUID(), sessionId: BigInt(this.session.sessionId ?? '0') };
  }

  private async createNode(): Promise<void> {
    const conv = this.conv!;
    const prefixPath = joinPath(this.path, conv.prefix(this.role, this.identity!));
    const { client } = this.session;
    while (this.nodeName === undefined) {
      this.checkEnded();
      // A sequential create is not idempotent: after a lost answer, look for our node before creating another.
      if (this.createTried) {
        this.nodeName = await this.retrying(() => this.findOwnNode());
        if (this.nodeName !== undefined) break;
      }
      this.createTried = true;
      try {
        const created = await this.session.libraryCall<string>('create', prefixPath,
          (cb) => client.create(prefixPath, this.options.data, zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL, cb));
        this.nodeName = baseName(created);
      } catch (error) {
        if (!isZkError(error, 'connectionLoss', 'clientTimeout') || !this.session.isLive) throw error;
        await this.untilConnected();
      }
    }
    this.update({ node: this.ownPath });
  }

  private async findOwnNode(): Promise<string | undefined> {
    const { children } = await this.session.getChildren(this.path);
    const conv = this.conv!;
    const byName = children.find((name) => conv.isOwn(name, this.identity!) === true);
    if (byName || children.length === 0 || conv.isOwn(children[0], this.identity!) !== undefined) return byName;
    for (const c of conv.order(children)) {
      const stat = await this.session.exists(joinPath(this.path, c.name));
      if (stat?.ephemeralOwner === this.identity!.sessionId) return c.name;
    }
    return undefined;
  }

  /** Waits our turn: list, find whom we wait for, watch only that node, and list again when woken. */
  private async queue(): Promise<void> {
    const conv = this.conv!;
    for (;;) {
      this.checkEnded();
      if (!this.ownWatchArmed) await this.armOwnWatch();
      const woken = this.nextWake();
      const { children } = await this.retrying(() => this.session.getChildren(this.path));
      this.checkEnded();
      const queue = conv.order(children);
      const index = queue.findIndex((c) => c.name === this.nodeName);
      if (index < 0) {
        this.lose('nodeDeleted');
        throw new AttemptEnded('lost');
      }
      const position = { index: index + 1, of: queue.length };
      const blocker = conv.blocker(queue, index);
      if (!blocker) {
        this.watched = undefined;
        this.setState(this.options.mode === 'election' ? 'leader' : 'held', { position, waitingFor: undefined });
        return;
      }
      this.watched = joinPath(this.path, blocker.name);
      const present = await this.retrying(() => this.watchNode(this.watched!));
      if (!present) continue;
      if (this.snap.state === 'waiting') this.update({ position, waitingFor: this.watched });
      else this.setState('waiting', { position, waitingFor: this.watched });
      await this.sleep(woken);
    }
  }

  /** Until woken, or until the position is due for a refresh (not async: no extra hop on the hand-off path). */
  private sleep(woken: Promise<void>): Promise<void> {
    const ms = this.options.positionRefreshMs;
    if (!ms) return woken;
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([woken, new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); })])
      .finally(() => clearTimeout(timer));
  }

  /** getData with a watch: fires once when the node goes (or changes). Undefined when it is already gone. */
  private async watchNode(path: string): Promise<ZnodeStat | undefined> {
    try {
      return (await this.session.request(ops.getData(this.session.channel, path, true), 'getData', path)).stat;
    } catch (error) {
      if (isZkError(error, 'noNode')) return undefined;
      throw error;
    }
  }

  /** Watches our own node, which also proves it is still ours (our session owns it). */
  private async armOwnWatch(): Promise<void> {
    const stat = await this.retrying(() => this.watchNode(this.ownPath!));
    if (!stat || stat.ephemeralOwner !== this.identity!.sessionId) {
      this.lose(stat ? 'notOwner' : 'nodeDeleted');
      throw new AttemptEnded('lost');
    }
    this.ownWatchArmed = true;
  }

  protected onNotification(n: WatchNotification): void {
    if (this.isFinal) return;
    if (n.path === this.watched) this.wake();
    if (n.path !== this.ownPath) return;
    this.ownWatchArmed = false;
    if (this.deletingOwn) return;
    if (n.type === EventType.deleted) this.lose('nodeDeleted');
    else if (this.heldOnce) void this.verifyHeld();
    else this.wake();
  }

  protected onReconnected(): void {
    // The server dropped our watches with the old connection (the library restores only its own).
    this.ownWatchArmed = false;
    if (this.heldOnce && !this.deletingOwn) void this.verifyHeld();
  }

  /** After a reconnect (or a change to our node) while held: still ours, or lost. */
  private async verifyHeld(): Promise<void> {
    try {
      await this.armOwnWatch();
      this.setState(this.options.mode === 'election' ? 'leader' : 'held');
    } catch (error) {
      if (error instanceof AttemptEnded) return;
      if (isZkError(error, 'sessionExpired')) this.lose('sessionExpired');
      else if (!this.isFinal) this.fail(error);
    }
  }

  protected async deleteOwnNode(): Promise<void> {
    this.deletingOwn = true;
    const name = this.nodeName ?? (this.createTried ? await this.retrying(() => this.findOwnNode(), true).catch(() => undefined) : undefined);
    if (name === undefined) return;
    const path = joinPath(this.path, name);
    await this.retrying(() => this.session.request(writes.deleteNode(this.session.channel, path, -1), 'delete', path), true).catch((error: unknown) => {
      // Gone already (or with the session): nothing left to delete.
      if (!isZkError(error, 'noNode', 'sessionExpired', 'connectionLoss', 'clientTimeout', 'closed')) throw error;
    });
  }

  private async endAttempt(error: unknown): Promise<void> {
    if (error instanceof AttemptEnded) {
      if (error.state === 'cancelled' || error.state === 'timedOut') {
        await this.deleteOwnNode().catch(() => undefined);
        this.setState(error.state, { waitingFor: undefined });
      }
      return;
    }
    if (isZkError(error, 'sessionExpired')) return this.lose('sessionExpired');
    if (error instanceof ConventionProblem) {
      this.setState('failed', { error: error.message });
      return;
    }
    await this.deleteOwnNode().catch(() => undefined);
    this.fail(error);
  }
}
