// What the logs cover, for choosing a moment: the first and the last transaction (zxid and the leader's time), and
// the boundaries a user may want to stand on: each snapshot taken and each log file begun, with the time of the
// transaction at each where the logs hold it. One pass over the logs, or none with their index.
import type { LogIndex } from './logIndex';
import { firstZxidOfName, readLogSetBatches, type LogSource } from './logSet';
import { snapshotsOf } from './startingSnapshot';
import type { LogBound } from './txnFilter';

export interface LogMoment {
  zxid: bigint;
  /** The leader's clock (ms since the epoch). */
  time: number;
}

export interface LogBoundary {
  kind: 'snapshot' | 'log';
  zxid: bigint;
  file: string;
  /** The time of the transaction at `zxid`, when the logs hold it. */
  time?: number;
}

export interface LogRange {
  first?: LogMoment;
  last?: LogMoment;
  /** Newest first. */
  boundaries: LogBoundary[];
}

/** A time as the servers' logs are read beside others: UTC, with the date and milliseconds. */
export function utcText(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

/** Each snapshot taken and each log file begun, once (several members snapshot and roll at the same zxids). */
function boundariesOf(sources: readonly LogSource[]): LogBoundary[] {
  const all: LogBoundary[] = [
    ...snapshotsOf(sources).map(({ file, zxid }) => ({ kind: 'snapshot' as const, zxid, file })),
    ...sources.flatMap((source) => source.files.map((file) => ({ kind: 'log' as const, zxid: firstZxidOfName(file) ?? -1n, file }))),
  ].filter((b) => b.zxid >= 0n);
  const seen = new Set<string>();
  return all.filter((b) => !seen.has(`${b.kind} ${b.zxid}`) && !!seen.add(`${b.kind} ${b.zxid}`));
}

const newestFirst = (boundaries: LogBoundary[]) =>
  boundaries.sort((a, b) => (a.zxid > b.zxid ? -1 : a.zxid < b.zxid ? 1 : a.kind.localeCompare(b.kind)));

export async function logRange(sources: readonly LogSource[], signal?: AbortSignal): Promise<LogRange> {
  const boundaries = boundariesOf(sources);
  const wanted = new Map<bigint, LogBoundary[]>();
  for (const boundary of boundaries) wanted.set(boundary.zxid, [...(wanted.get(boundary.zxid) ?? []), boundary]);
  let first: LogMoment | undefined;
  let last: LogMoment | undefined;
  for await (const batch of readLogSetBatches(sources)) {
    signal?.throwIfAborted();
    for (const item of batch) {
      if (item.kind !== 'txn') continue;
      const { zxid, time } = item.txn;
      first ??= { zxid, time };
      last = { zxid, time };
      for (const boundary of wanted.get(zxid) ?? []) boundary.time = time;
    }
  }
  return { first, last, boundaries: newestFirst(boundaries) };
}

/** The same range from an index of the logs: nothing read again. */
export function logRangeFromIndex(index: LogIndex): LogRange {
  const boundaries = boundariesOf(index.sources);
  for (const boundary of boundaries) boundary.time = index.timeOf(boundary.zxid);
  const at = (position: number): LogMoment => ({ zxid: index.zxids[position], time: index.times[position] });
  return index.count === 0 ? { boundaries: newestFirst(boundaries) } : { first: at(0), last: at(index.count - 1), boundaries: newestFirst(boundaries) };
}

/** Why the tree at `moment` cannot come from these logs: they hold nothing, or it is before they begin. */
export function momentOutsideLogs(range: LogRange, moment: LogBound): 'empty' | 'before' | undefined {
  const { first } = range;
  if (!first) return 'empty';
  return ('zxid' in moment ? moment.zxid < first.zxid : moment.time < first.time) ? 'before' : undefined;
}
