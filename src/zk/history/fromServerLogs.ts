// A lock history built from the servers' own logs: the same model the live recorder keeps (holds, waits, how each
// ended, queue lengths), here from the creates and deletes of the queues' nodes in zxid order, each at the leader's
// time of its transaction, so a change is exact to the millisecond of that clock. Who was queued when the logs
// begin comes from a snapshot the logs go on from (its nodes' holds start as bounds). How a node went is in the log:
// deleted by a session (released, or gave up while waiting), or removed with its session: a closeSession the server
// issued itself (cxid 0, ZooKeeperServer.expire) is a session lost; one the client sent is a release.
// Queues are recognised from their nodes' names, as the live recorder recognises a queue it was not shown (name
// queues: locks, read/write locks, elections). Past a gap in the logs nobody knows who queued: the history stops
// there, said in one line.
import { baseName, isBelow, parentPath } from '../paths';
import type { LogIndex } from '../serverLogs/logIndex';
import { missingBetween, type LogSetItem } from '../serverLogs/logSet';
import type { LogBound } from '../serverLogs/txnFilter';
import type { StartNode } from '../serverLogs/startingSnapshot';
import type { Txn, TxnRecord } from '../serverLogs/txnTypes';
import { hex } from '../stat';
import type { Participant } from '../../shared/lockAnalysis';
import { LockHistory } from './history';
import { FollowedQueue, newQueueFor, type Member } from './members';
import type { EndReason, HistoryInterval } from './model';

export interface LogLockHistory {
  history: LockHistory;
  /** The leader's time of the first and last transaction read (the window the history covers). */
  from?: number;
  to?: number;
  /** Why the history stops before the logs' end (a gap), in one line. */
  stoppedAt?: string;
}

type Removal = 'deleted' | 'clientClosed' | 'expired';

export class LogLockHistoryBuilder {
  readonly result: LogLockHistory = { history: new LockHistory() };
  private readonly queues = new Map<string, FollowedQueue>();
  /** Ephemeral members by owner session, for a closeSession that lists no paths (older servers). */
  private readonly ephemeralsOf = new Map<bigint, Set<string>>();
  private stopped = false;

  constructor(private readonly root: string, start?: { zxid: bigint; nodes: readonly StartNode[] }) {
    if (!start) return;
    for (const node of start.nodes) this.add(node.path, node.ctime, node.owner, node.data, 'read');
    for (const queue of this.queues.values()) this.applyRoles(queue, Math.max(0, ...[...queue.members.values()].map((m) => m.since)), false);
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

  private stop(why: string): void {
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
        if (!isBelow(record.path, this.root)) return;
        const ephemeral = 'ephemeral' in record && record.ephemeral;
        const queue = this.add(record.path, txn.time, ephemeral ? txn.session : 0n, record.data, 'event');
        if (queue) this.applyRoles(queue, txn.time, true);
        return;
      }
      case 'delete': case 'deleteContainer':
        this.remove(record.path, txn.time, 'deleted');
        return;
      case 'closeSession': {
        // The server closes an expired session itself, with cxid 0; a client's own close carries its request's xid.
        const how: Removal = txn.cxid === 0 ? 'expired' : 'clientClosed';
        const paths = record.paths ?? [...(this.ephemeralsOf.get(txn.session) ?? [])];
        this.ephemeralsOf.delete(txn.session);
        for (const path of paths) this.remove(path, txn.time, how);
        return;
      }
      default:
        return;
    }
  }

  /** A node under the lock path: a member of its queue (recognised anew from its name if none is known yet). */
  private add(path: string, at: number, owner: bigint, data: Buffer | null, source: Member['source']): FollowedQueue | undefined {
    const dir = parentPath(path);
    if (dir === undefined) return undefined;
    let queue = this.queues.get(dir);
    if (!queue) {
      queue = newQueueFor(path, this.queues, this.queues);
      if (!queue) return undefined;
      this.queues.set(dir, queue);
    }
    if (queue.members.has(path)) return undefined; // a fuzzy snapshot already had it
    queue.members.set(path, { name: baseName(path), path, source, since: at, owner, ...(data ? { data } : {}), intervals: [] });
    if (owner !== 0n) {
      const mine = this.ephemeralsOf.get(owner) ?? new Set<string>();
      mine.add(path);
      this.ephemeralsOf.set(owner, mine);
    }
    return queue;
  }

  private remove(path: string, at: number, how: Removal): void {
    const dir = parentPath(path);
    const queue = dir === undefined ? undefined : this.queues.get(dir);
    const member = queue?.members.get(path);
    if (!queue || !member) return;
    queue.remove(member);
    if (member.owner) this.ephemeralsOf.get(member.owner)?.delete(path);
    const open = this.history.open.get(path);
    if (open) this.close(path, open, at, true, endReason(open, how));
    this.applyRoles(queue, at, true);
  }

  /** Who holds and who waits now, under the queue's rules: as the live recorder's roles, every change at `at`. */
  private applyRoles(queue: FollowedQueue, at: number, exact: boolean): void {
    const participants = queue.participants();
    for (const p of participants) {
      const member = queue.members.get(p.path);
      if (!member) continue;
      const holding = p.role !== 'waiter';
      const current = this.history.open.get(p.path);
      if (!current) {
        // A member from the snapshot: its wait began at its creation; its hold at some time after, not known.
        const fromStart = member.source === 'read';
        this.open(holding ? 'hold' : 'wait', queue.path, p, fromStart ? member.since : at, fromStart ? !holding : exact);
      } else if (current.kind === 'wait' && holding) {
        this.close(p.path, current, at, exact, 'acquired');
        this.open('hold', queue.path, p, at, exact);
      } else if (current.kind === 'hold' && !holding) {
        this.close(p.path, current, at, false, 'unknown');
        this.open('wait', queue.path, p, at, false);
      }
    }
    this.history.addSample({ lock: queue.path, at, length: participants.length });
  }

  private open(kind: HistoryInterval['kind'], lock: string, p: Participant, start: number, startExact: boolean): void {
    const interval: HistoryInterval = {
      id: this.history.newId(), kind, lock, node: p.name, participant: p.kind, start, startExact,
      ...(p.session ? { session: p.session } : {}), ...(p.label !== undefined ? { label: p.label } : {}),
    };
    this.history.open.set(p.path, interval);
  }

  private close(path: string, interval: HistoryInterval, at: number, exact: boolean, ended: EndReason): void {
    this.history.open.delete(path);
    interval.end = at;
    interval.endExact = exact;
    interval.ended = ended;
    this.history.addClosed(interval);
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
  builder.history.startedAt = builder.result.from;
  return builder.result;
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
  return firstAbove(index, to.zxid);
}

/** The first transaction whose zxid is above `zxid` (the index is in zxid order). */
function firstAbove(index: LogIndex, zxid: bigint): number {
  let low = 0;
  let high = index.count;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (index.zxids[mid] <= zxid) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * lockHistoryFromLogs answered from an index: the same history, decoding only the transactions that name a path
 * below `root` (and, from older servers, the closeSessions that list none); the others only move the window on.
 * `to` ends the history as `zooscope log --locks --to` does (at the first transaction past it).
 */
export async function lockHistoryFromIndex(index: LogIndex, root: string, start?: { zxid: bigint; nodes: readonly StartNode[] }, options: { to?: LogBound; signal?: AbortSignal } = {}): Promise<LogLockHistory> {
  const builder = new LogLockHistoryBuilder(root, start);
  const end = windowEnd(index, options.to);
  const begin = start ? Math.min(end, firstAbove(index, start.zxid)) : 0;
  const selected = index.select({ below: root }).filter((position) => position >= begin && position < end);
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
  builder.history.startedAt = builder.result.from;
  return builder.result;
}
