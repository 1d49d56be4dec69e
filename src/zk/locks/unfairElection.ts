// Unfair leader election: one EPHEMERAL node at the path itself (like Kafka's /controller); whoever creates it
// leads, every other candidate watches that node and races to create it when it goes. Simple, but each change
// wakes every candidate (a herd by design); use the fair election (mode 'election') to avoid that.
import * as zookeeper from 'node-zookeeper-client';
import { isZkError } from '../errors';
import { parentPath } from '../paths';
import * as ops from '../protocol/operations';
import * as writes from '../protocol/writes';
import type { WatchNotification } from '../protocol/rawChannel';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';
import { AttemptEnded, LockHandle } from './lockHandle';

export interface UnfairElectionOptions {
  data: Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export class UnfairElection extends LockHandle {
  private deleting = false;

  constructor(session: ZkSession, path: string, private readonly options: UnfairElectionOptions) {
    super(session, path, 'unfairElection', 'plain', options.timeoutMs, options.signal);
  }

  private get sessionIdValue(): bigint {
    return BigInt(this.session.sessionId ?? '0');
  }

  protected async run(): Promise<void> {
    const { client } = this.session;
    const parent = parentPath(this.path);
    try {
      if (parent && parent !== '/') await this.retrying(() => this.session.libraryCall('mkdirp', parent, (cb) => client.mkdirp(parent, cb)));
      for (;;) {
        this.checkEnded();
        const woken = this.nextWake();
        if (await this.tryCreate()) {
          this.update({ node: this.path });
          this.setState('leader', { waitingFor: undefined });
          return;
        }
        const stat = await this.retrying(() => this.watchNode());
        if (!stat) continue;
        if (stat.ephemeralOwner === this.sessionIdValue) continue; // ours after all (a lost answer): next round says so
        this.setState('waiting', { waitingFor: this.path, position: undefined });
        await woken;
      }
    } catch (error) {
      if (error instanceof AttemptEnded) {
        if (error.state === 'cancelled' || error.state === 'timedOut') {
          await this.deleteOwnNode().catch(() => undefined);
          this.setState(error.state, { waitingFor: undefined });
        }
      } else if (isZkError(error, 'sessionExpired')) this.lose('sessionExpired');
      else this.fail(error);
    }
  }

  /** Creates the node; true when it is ours (also when an earlier create's answer was lost and it exists as ours). */
  private async tryCreate(): Promise<boolean> {
    const { client } = this.session;
    for (;;) {
      this.checkEnded();
      try {
        await this.session.libraryCall('create', this.path, (cb) => client.create(this.path, this.options.data, zookeeper.CreateMode.EPHEMERAL, cb));
        return true;
      } catch (error) {
        if (isZkError(error, 'nodeExists')) {
          const stat = await this.retrying(() => this.session.exists(this.path));
          if (!stat) continue;
          return stat.ephemeralOwner === this.sessionIdValue;
        }
        if (!isZkError(error, 'connectionLoss', 'clientTimeout') || !this.session.isLive) throw error;
        await this.untilConnected();
      }
    }
  }

  private async watchNode(): Promise<ZnodeStat | undefined> {
    try {
      return (await this.session.request(ops.getData(this.session.channel, this.path, true), 'getData', this.path)).stat;
    } catch (error) {
      if (isZkError(error, 'noNode')) return undefined;
      throw error;
    }
  }

  protected onNotification(n: WatchNotification): void {
    if (this.isFinal || n.path !== this.path || this.deleting) return;
    if (this.heldOnce) void this.verifyLeader();
    else this.wake();
  }

  protected onReconnected(): void {
    if (this.heldOnce && !this.deleting) void this.verifyLeader();
  }

  /** Still the node's owner (re-arming its watch), or lost. */
  private async verifyLeader(): Promise<void> {
    try {
      const stat = await this.retrying(() => this.watchNode(), true);
      if (!stat) this.lose('nodeDeleted');
      else if (stat.ephemeralOwner !== this.sessionIdValue) this.lose('notOwner');
      else this.setState('leader');
    } catch (error) {
      if (isZkError(error, 'sessionExpired')) this.lose('sessionExpired');
    }
  }

  /** Deletes the node only while our session owns it (never another candidate's). */
  protected async deleteOwnNode(): Promise<void> {
    this.deleting = true;
    const stat = await this.retrying(() => this.session.exists(this.path), true).catch(() => undefined);
    if (!stat || stat.ephemeralOwner !== this.sessionIdValue) return;
    await this.retrying(() => this.session.request(writes.deleteNode(this.session.channel, this.path, stat.version), 'delete', this.path), true)
      .catch(() => undefined);
  }
}
