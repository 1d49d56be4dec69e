// A lock history built from the servers' own logs: the same model the live recorder keeps (holds, waits, how each
// ended, queue lengths), here from the creates and deletes of the queues' nodes in zxid order, each at the leader's
// time of its transaction, so a change is exact to the millisecond of that clock. Who was queued when the logs
// begin comes from a snapshot the logs go on from (its nodes' holds start as bounds). How a node went is in the log:
// deleted by a session (released, or gave up while waiting), or removed with its session: a closeSession the server
// issued itself (cxid 0, ZooKeeperServer.expire) is a session lost; one the client sent is a release.
// Every recipe the live recorder follows: name queues (locks, read/write locks, elections), semaphores and fixed
// leader nodes, told apart as logQueues.ts says, in the recorder's own queues and under its rules (members.ts,
// followedRoles.ts). Past a gap in the logs nobody knows who queued: the history stops there, said in one line.
import { baseName, joinPath, parentPath } from '../paths';
import type { LogIndex } from '../serverLogs/logIndex';
import { missingBetween, type LogSetItem, type LogSource } from '../serverLogs/logSet';
import type { LogBound } from '../serverLogs/txnFilter';
import { startingSnapshot, type StartingSnapshot, type StartNode } from '../serverLogs/startingSnapshot';
import type { Txn, TxnRecord } from '../serverLogs/txnTypes';
import { clientEphemeralOwner, hex } from '../stat';
import type { Participant } from '../../shared/lockAnalysis';
import { FollowedQueues } from './followedQueues';
import { FollowedRoles } from './followedRoles';
import { LockHistory } from './history';
import { IntervalBook } from './intervalBook';
import { followsPath, KAZOO_LOCK_SUFFIX, lockOfItsOwn, queueOfCreated } from './logQueues';
import type { FollowedQueue, Member } from './members';
import type { EndReason, HistoryInterval } from './model';
import { PendingEnds } from './pendingEnds';

export interface LogLockHistory {
  history: LockHistory;
  /** The leader's time of the first and last transaction read (the window the history covers). */
  from?: number;
  to?: number;
  /** Why the history stops before the logs' end (a gap), in one line. */
  stoppedAt?: string;
}

type Removal = 'deleted' | 'clientClosed' | 'expired';

/** A create or delete of a Curator lock whose semaphore is not known yet, held in the order of the log. */
type HeldChange =
  | { kind: 'created'; path: string; at: number; owner: bigint; data: Buffer | null }
  | { kind: 'deleted'; path: string; at: number; how: Removal };

export class LogLockHistoryBuilder {
  readonly result: LogLockHistory = { history: new LockHistory() };
  private readonly queues = new FollowedQueues();
  private readonly book: IntervalBook;
  private readonly roles: FollowedRoles;
  /** Ephemeral members by owner session, for a closeSession that lists no paths (older servers). */
  private readonly ephemeralsOf = new Map<bigint, Set<string>>();
  /** Curator semaphores' `leases` folders there now: a Curator lock in a `locks` folder beside one is the semaphore's. */
  private readonly leaseFolders = new Set<string>();
  /** `locks` folders whose Curator locks wait to be told a semaphore's or a lock of their own: their changes, and the nodes there now. */
  private readonly undecided = new Map<string, { changes: HeldChange[]; present: Set<string> }>();
  private stopped = false;

  constructor(private readonly root: string, start?: { zxid: bigint; nodes: readonly StartNode[] }) {
    this.book = new IntervalBook(this.result.history, new PendingEnds(this.result.history, () => undefined), () => undefined);
    this.roles = new FollowedRoles(this.book);
    if (!start) return;
    // The leases folders first: a lock beside one is its semaphore's, wherever the snapshot lists it.
    for (const node of start.nodes) if (followsPath(root, node.path) && baseName(node.path) === 'leases') this.leaseFolders.add(node.path);
    const found = new Set<FollowedQueue>();
    for (const node of start.nodes) {
      if (!followsPath(root, node.path)) continue;
      const queue = this.created({ kind: 'created', path: node.path, at: node.ctime, owner: clientEphemeralOwner(node.owner), data: node.data }, 'read', true);
      if (queue) found.add(queue);
    }
    for (const queue of found) this.applyFound(queue);
  }

  get history(): LockHistory {
    return this.result.history;
  }

  /** One item of the merged logs, oldest first. */
  take(item: LogSetItem): void {
    if (this.stopped) return;
    if (item.kind === 'issue') {
      if (item.issue.kind === 'gap' || item.issue.kind === 'beingWritten') this.stop(item.issue.message);
      return;
    }
    this.passed(item.txn.time);
    this.apply(item.txn, item.txn.record);
  }

  /** A transaction that touches no queue: only the window the history covers moves on. */
  passed(time: number): void {
    if (this.stopped) return;
    this.result.from ??= time;
    this.result.to = time;
  }

  /** The logs are read: Curator locks still held for a semaphore no `leases` folder came for were locks of their own. */
  finish(): LogLockHistory {
    for (const folder of [...this.undecided.keys()]) this.decide(folder, false);
    this.history.startedAt = this.result.from;
    return this.result;
  }

  private stop(why: string): void {
    for (const folder of [...this.undecided.keys()]) this.decide(folder, false);
    this.stopped = true;
    this.result.stoppedAt = `the lock history stops at ${this.result.to === undefined ? 'the start' : new Date(this.result.to).toISOString()}: ${why}`;
    if (this.result.to !== undefined) this.history.gaps.push({ from: this.result.to });
  }

  private apply(txn: Txn, record: TxnRecord): void {
    switch (record.op) {
      case 'multi':
        // The server applies none of a multi with a failed part (the log keeps the parts before it as written).
        if (record.parts.some((part) => part.op === 'error')) return;
        for (const part of record.parts) this.apply(txn, part);
        return;
      case 'create': case 'create2': case 'createContainer': case 'createTTL': {
        if (!followsPath(this.root, record.path)) return;
        const ephemeral = 'ephemeral' in record && record.ephemeral;
        const queue = this.created({ kind: 'created', path: record.path, at: txn.time, owner: ephemeral ? txn.session : 0n, data: record.data }, 'event', false);
        if (queue) this.roles.apply(queue, txn.time, true);
        return;
      }
      case 'delete': case 'deleteContainer':
        this.removed({ kind: 'deleted', path: record.path, at: txn.time, how: 'deleted' });
        return;
      case 'closeSession': {
        // The server closes an expired session itself, with cxid 0; a client's own close carries its request's xid.
        const how: Removal = txn.cxid === 0 ? 'expired' : 'clientClosed';
        const paths = record.paths ?? [...(this.ephemeralsOf.get(txn.session) ?? [])];
        this.ephemeralsOf.delete(txn.session);
        for (const path of paths) this.removed({ kind: 'deleted', path, at: txn.time, how });
        return;
      }
      default:
        return;
    }
  }

  /**
   * A node created (or found in the snapshot, `decideNow`): a member of the queue it joins, which it returns; a
   * Curator lock whose semaphore is not known yet is held (see decide).
   */
  private created(change: Extract<HeldChange, { kind: 'created' }>, source: Member['source'], decideNow: boolean): FollowedQueue | undefined {
    const { path, at, owner, data } = change;
    const folder = parentPath(path);
    if (folder === undefined) return undefined;
    if (owner !== 0n) {
      const mine = this.ephemeralsOf.get(owner) ?? new Set<string>();
      mine.add(path);
      this.ephemeralsOf.set(owner, mine);
    }
    if (baseName(path) === 'leases') {
      this.leaseFolders.add(path);
      this.decide(joinPath(folder, 'locks'), true);
    }
    const held = this.undecided.get(folder);
    if (held) {
      held.changes.push(change);
      held.present.add(path);
      return undefined;
    }
    let queue = queueOfCreated(this.queues, this.root, path, owner !== 0n, data, (semaphore) => this.leaseFolders.has(joinPath(semaphore, 'leases')));
    if (queue === 'undecided') {
      if (!decideNow) {
        this.undecided.set(folder, { changes: [change], present: new Set([path]) });
        return undefined;
      }
      queue = lockOfItsOwn(this.queues, folder, [baseName(path)]);
    }
    if (!queue || queue.members.has(path)) return undefined; // a fuzzy snapshot already had it
    queue.gone.delete(path);
    queue.members.set(path, { name: baseName(path), path, source, since: at, owner, ...(data ? { data } : {}), intervals: [] });
    return queue;
  }

  private removed(change: Extract<HeldChange, { kind: 'deleted' }>): void {
    const { path, at, how } = change;
    const folder = parentPath(path);
    const held = folder === undefined ? undefined : this.undecided.get(folder);
    if (folder !== undefined && held?.present.has(path)) {
      held.changes.push(change);
      held.present.delete(path);
      // Emptied with no semaphore's leases beside it: a lock of its own all along.
      if (held.present.size === 0) this.decide(folder, false);
      return;
    }
    this.leaseFolders.delete(path);
    const queue = this.queues.queueOfNode(path);
    const member = queue?.members.get(path);
    if (!queue || !member) return;
    queue.remove(member);
    if (member.owner) this.ephemeralsOf.get(member.owner)?.delete(path);
    const open = this.history.open.get(path);
    if (open) this.book.closeAs(path, open, at, true, endReason(open, how));
    this.roles.apply(queue, at, true);
  }

  /**
   * The held Curator locks of `folder` are told at last: a semaphore's (its `leases` folder came) or a lock of their
   * own (they all went with none). Their changes apply now, at their own times, as if told then.
   */
  private decide(folder: string, semaphore: boolean): void {
    const held = this.undecided.get(folder);
    if (!held) return;
    this.undecided.delete(folder);
    if (!semaphore) lockOfItsOwn(this.queues, folder, held.changes.map((c) => baseName(c.path)));
    for (const change of held.changes) {
      if (change.kind === 'deleted') {
        this.removed(change);
        continue;
      }
      const queue = this.created(change, 'event', false);
      if (queue) this.roles.apply(queue, change.at, true);
    }
  }

  /**
   * Who holds and who waits among the members a snapshot showed, under the queue's rules: a waiter's wait from its
   * creation (exact), a holder's hold from then too, but only as a bound (when it took over is not known).
   */
  private applyFound(queue: FollowedQueue): void {
    const found = new Map<string, Participant>();
    for (const p of queue.participants()) found.set(p.path, { ...p, held: { since: p.since, exact: false } });
    this.roles.apply(queue, Math.max(0, ...[...queue.members.values()].map((m) => m.since)), false, found);
  }
}

function endReason(interval: HistoryInterval, how: Removal): EndReason {
  if (how === 'expired') return 'sessionEnded';
  return interval.kind === 'hold' ? 'released' : 'gaveUp';
}

/** The lock history of everything under `root` the logs tell, from the snapshot they go on from. */
export async function lockHistoryFromLogs(items: AsyncIterable<LogSetItem>, root: string, start?: { zxid: bigint; nodes: readonly StartNode[] }): Promise<LogLockHistory> {
  const builder = new LogLockHistoryBuilder(root, start);
  let previous = start?.zxid;
  for await (const item of items) {
    if (item.kind === 'txn') {
      if (previous !== undefined && item.txn.zxid <= previous) continue; // in the snapshot already
      // Between the snapshot and the first transaction after it, a stretch the logs lack is a gap like any other.
      if (previous === start?.zxid && previous !== undefined) afterSnapshot(builder, previous, item.txn.zxid);
      previous = item.txn.zxid;
    }
    builder.take(item);
  }
  return builder.finish();
}

/** Between the snapshot and the first transaction after it, a stretch the logs lack is a gap like any other. */
function afterSnapshot(builder: LogLockHistoryBuilder, snapshotZxid: bigint, first: bigint): void {
  const missing = missingBetween(snapshotZxid, first);
  if (missing) builder.take({ kind: 'issue', issue: { kind: 'gap', file: '', offset: 0, message: `no log given holds zxid ${hex(missing.from)}–${hex(missing.to)}, right after the snapshot` } });
}

/** The first transaction past `to` (by zxid, or by the leader's time), as `zooscope log --locks --to` stops there. */
function windowEnd(index: LogIndex, to: LogBound | undefined): number {
  if (to === undefined) return index.count;
  if ('time' in to) {
    const at = index.times.findIndex((time) => time > to.time);
    return at < 0 ? index.count : at;
  }
  return index.firstAbove(to.zxid);
}

/** The transactions that may touch what followsPath follows: below the root, the root itself, a kazoo semaphore's lock beside it. */
function selectedFor(index: LogIndex, root: string): Int32Array {
  const selections = [index.select({ below: root }), index.select({ path: root })];
  if (root !== '/') selections.push(index.select({ below: `${root}${KAZOO_LOCK_SUFFIX}` }));
  const all = new Int32Array(selections.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of selections) {
    all.set(s, at);
    at += s.length;
  }
  all.sort();
  let kept = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i];
  return all.subarray(0, kept);
}

/**
 * The snapshot the logs go on from, with the nodes a lock history of `root` follows (followsPath): the root itself
 * may be a fixed leader node, and a kazoo semaphore's lock is beside it.
 */
export async function lockHistoryStart(sources: readonly LogSource[], root: string, signal?: AbortSignal): Promise<StartingSnapshot | { problem: string }> {
  return startingSnapshot(sources, root, { includes: (path) => followsPath(root, path), signal });
}

/**
 * lockHistoryFromLogs answered from an index: the same history, decoding only the transactions that name a path
 * below `root` (and, from older servers, the closeSessions that list none); the others only move the window on.
 * `to` ends the history as `zooscope log --locks --to` does (at the first transaction past it).
 */
export async function lockHistoryFromIndex(index: LogIndex, root: string, start?: { zxid: bigint; nodes: readonly StartNode[] }, options: { to?: LogBound; signal?: AbortSignal } = {}): Promise<LogLockHistory> {
  const builder = new LogLockHistoryBuilder(root, start);
  const end = windowEnd(index, options.to);
  const begin = start ? Math.min(end, index.firstAbove(start.zxid)) : 0;
  const selected = selectedFor(index, root).filter((position) => position >= begin && position < end);
  const decoded = index.read(selected, options)[Symbol.asyncIterator]();
  let batch: { position: number; item: LogSetItem }[] = [];
  let next = 0;
  let chosen = 0;
  let issue = 0;
  const issuesUpTo = (position: number) => {
    for (; issue < index.issues.length && index.issues[issue].at <= position; issue++) builder.take(index.issues[issue].item);
  };
  try {
    for (let position = begin; position < end; position++) {
      issuesUpTo(position);
      if (position === begin && start) afterSnapshot(builder, start.zxid, index.zxids[position]);
      if (position === selected[chosen]) {
        if (next === batch.length) {
          const more = await decoded.next();
          if (more.done) throw new Error('the index read fewer transactions than it chose');
          batch = more.value;
          next = 0;
        }
        chosen++;
        builder.take(batch[next++].item);
      } else builder.passed(index.times[position]);
    }
    issuesUpTo(end);
  } finally {
    await decoded.return?.(undefined);
  }
  return builder.finish();
}
