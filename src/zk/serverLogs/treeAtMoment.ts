// The tree as it was at a moment (a zxid, or a time on the leader's clock): the newest snapshot that ends before the
// moment, with the logs replayed on it up to the moment. A snapshot is fuzzy: written while transactions applied, it
// may hold changes up to where its writing ended (its digest's zxid, 3.6+, or the last processed zxid, 3.9+), so the
// tree before that end cannot come from it; an older snapshot is taken then.
import { hex } from '../stat';
import { isBelow } from '../paths';
import type { LogIndex } from './logIndex';
import type { LogIssue } from './logIssues';
import { readLogSetBatches, type LogSource } from './logSet';
import { ReplayedTree } from './replayedTree';
import { readSnapshotFile } from './snapshotReader';
import { snapshotsOf } from './startingSnapshot';
import type { LogBound } from './txnFilter';
import type { LogAcl } from './txnTypes';

export interface TreeAtMoment {
  tree: ReplayedTree;
  /** The subtree held. */
  root: string;
  snapshot: { file: string; zxid: bigint };
  /** The last transaction applied (the snapshot's own zxid when none was). */
  zxid: bigint;
  /** Its time on the leader's clock (ms), when the logs hold that transaction. */
  time?: number;
  /** Where the snapshot's writing ended is not recorded (no digest): changes made meanwhile may show early. */
  endUnknown: boolean;
  /** Issues of the logs met on the way (a torn entry, a gap), each one line. */
  issues: LogIssue[];
}

export interface MomentOptions {
  /** Only this subtree is kept (memory grows with the nodes kept). */
  root?: string;
  signal?: AbortSignal;
  /** The logs' index: a time is found in it instead of by reading every log. */
  index?: LogIndex;
}

export type MomentResult = { ok: true; moment: TreeAtMoment } | { ok: false; problem: string };

const byZxidDescending = (a: { zxid: bigint }, b: { zxid: bigint }) => (a.zxid > b.zxid ? -1 : a.zxid < b.zxid ? 1 : 0);

/** The zxid a time stands for: the last transaction (in zxid order) at or before it. */
async function zxidAtTime(sources: readonly LogSource[], time: number, signal?: AbortSignal, index?: LogIndex): Promise<{ zxid: bigint } | { problem: string }> {
  let found: bigint | undefined;
  let first: { zxid: bigint; time: number } | undefined;
  if (index) {
    const at = index.lastAtOrBefore(time);
    if (at !== undefined) found = index.zxids[at];
    if (index.count > 0) first = { zxid: index.zxids[0], time: index.times[0] };
  } else {
    for await (const batch of readLogSetBatches(sources)) {
      signal?.throwIfAborted();
      for (const item of batch) {
        if (item.kind !== 'txn') continue;
        first ??= { zxid: item.txn.zxid, time: item.txn.time };
        if (item.txn.time <= time) found = item.txn.zxid;
      }
    }
  }
  if (found !== undefined) return { zxid: found };
  if (!first) return { problem: 'the logs given hold no transactions' };
  return { problem: `the logs begin at ${new Date(first.time).toISOString()} (zxid ${hex(first.zxid)}), after ${new Date(time).toISOString()}: the tree before them is not in them` };
}

interface LoadedSnapshot { tree: ReplayedTree; end?: bigint; problem?: string }

async function loadSnapshot(file: string, keep: (path: string) => boolean, signal?: AbortSignal): Promise<LoadedSnapshot> {
  const tree = new ReplayedTree(keep);
  let acls: ReadonlyMap<bigint, LogAcl[]> = new Map();
  let end: bigint | undefined;
  let nodes = 0;
  for await (const item of readSnapshotFile(file)) {
    if (item.kind === 'issue') return { tree, problem: item.issue.message };
    if (item.kind === 'acls') acls = item.acls;
    else if (item.kind === 'node') {
      if ((++nodes & 0xffff) === 0) signal?.throwIfAborted();
      tree.addSnapshotNode(item.node, acls);
    } else if (item.kind === 'digest' && item.digest.zxid > 0n) end = item.digest.zxid;
    else if (item.kind === 'lastProcessedZxid') end = item.zxid;
  }
  return { tree, end };
}

/**
 * The tree at `moment`. Fails with one line when no snapshot lies before the moment or the logs do not reach from one
 * to it; a gap on the way is not a failure but an issue (what happened in it is not known, so the tree may be wrong
 * about what it touched).
 */
export async function treeAtMoment(sources: readonly LogSource[], moment: LogBound, options: MomentOptions = {}): Promise<MomentResult> {
  const root = options.root ?? '/';
  const keep = (path: string) => path === root || isBelow(path, root);
  const target = 'zxid' in moment ? { zxid: moment.zxid } : await zxidAtTime(sources, moment.time, options.signal, options.index);
  if ('problem' in target) return { ok: false, problem: target.problem };
  const candidates = snapshotsOf(sources).filter((s) => s.zxid <= target.zxid).sort(byZxidDescending);
  if (candidates.length === 0) return { ok: false, problem: `no snapshot was taken at or before zxid ${hex(target.zxid)}: give the member's whole data directory (its snapshot.<zxid> files beside the logs)` };
  const passedOver: string[] = [];
  for (const snapshot of candidates) {
    const loaded = await loadSnapshot(snapshot.file, keep, options.signal);
    if (loaded.problem) {
      passedOver.push(loaded.problem);
      continue;
    }
    if (loaded.end !== undefined && loaded.end > target.zxid) {
      passedOver.push(`${snapshot.file} was still being written at zxid ${hex(target.zxid)} (it holds changes up to ${hex(loaded.end)})`);
      continue;
    }
    const replayed = await replay(sources, loaded.tree, snapshot.zxid, target.zxid, options.signal);
    if ('problem' in replayed) return { ok: false, problem: replayed.problem };
    return {
      ok: true,
      moment: {
        tree: loaded.tree, root, snapshot, zxid: replayed.zxid ?? snapshot.zxid, time: replayed.time, endUnknown: loaded.end === undefined,
        issues: replayed.issues,
      },
    };
  }
  return { ok: false, problem: `no snapshot before zxid ${hex(target.zxid)} can be used: ${passedOver.join('; ')}` };
}

/** The logs' transactions after the snapshot's zxid up to the target, applied; the issues met after the snapshot. */
async function replay(sources: readonly LogSource[], tree: ReplayedTree, from: bigint, to: bigint, signal?: AbortSignal): Promise<{ zxid?: bigint; time?: number; issues: LogIssue[] } | { problem: string }> {
  const issues: LogIssue[] = [];
  let zxid: bigint | undefined;
  let time: number | undefined;
  let previous: bigint | undefined;
  reading: for await (const batch of readLogSetBatches(sources, { toZxid: to })) {
    signal?.throwIfAborted();
    for (const item of batch) {
      if (item.kind === 'issue') {
        // A gap the snapshot already covers is no trouble here.
        if (item.issue.kind !== 'gap' || previous !== undefined) issues.push(item.issue);
        continue;
      }
      const txn = item.txn;
      if (txn.zxid === from) time = txn.time; // the snapshot's own transaction: the moment's time if none follows
      if (txn.zxid <= from) continue;
      if (txn.zxid > to) break reading;
      if (previous === undefined && txn.zxid > from + 1n && (txn.zxid >> 32n) === (from >> 32n)) {
        return { problem: `the logs given go on from zxid ${hex(txn.zxid)}, not from the snapshot's ${hex(from)}: the transactions between are missing` };
      }
      tree.apply(txn);
      previous = zxid = txn.zxid;
      time = txn.time;
    }
  }
  return { zxid, time, issues };
}
