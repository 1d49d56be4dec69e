// Which transactions a question is about: a window (zxids or the leader's times), a session, paths by glob. A
// transaction's paths are its own, its multi's parts', or those its closeSession removed.
import { parsePathGlob, type PathGlob } from '../pathGlob';
import type { Txn, TxnRecord } from './txnTypes';

/** A bound of the window: a zxid, or a time in ms since the epoch (the leader's clock). */
export type LogBound = { zxid: bigint } | { time: number };

export interface TxnQuery {
  from?: LogBound;
  to?: LogBound;
  session?: bigint;
  /** Absolute paths, `*` within a name, `**` across names (as the compare view's globs). */
  paths?: readonly string[];
}

/** The paths a record names, its multi's parts' included (a failed multi too: it is an attempt the log keeps). */
export function recordPaths(record: TxnRecord): string[] {
  if (record.op === 'multi') return record.parts.flatMap(recordPaths);
  if (record.op === 'closeSession') return record.paths ?? [];
  return 'path' in record ? [record.path] : [];
}

const afterOrAt = (txn: Txn, bound: LogBound) => ('zxid' in bound ? txn.zxid >= bound.zxid : txn.time >= bound.time);
const beforeOrAt = (txn: Txn, bound: LogBound) => ('zxid' in bound ? txn.zxid <= bound.zxid : txn.time <= bound.time);

export function txnMatcher(query: TxnQuery): (txn: Txn) => boolean {
  const globs: PathGlob[] = (query.paths ?? []).map(parsePathGlob);
  return (txn) => (query.from === undefined || afterOrAt(txn, query.from))
    && (query.to === undefined || beforeOrAt(txn, query.to))
    && (query.session === undefined || txn.session === query.session)
    && (globs.length === 0 || recordPaths(txn.record).some((path) => globs.some((glob) => glob(path))));
}

/**
 * Past the window's end by zxid: nothing later can match. Only zxids: a new leader's clock may be behind the old
 * one's, so a later transaction can carry an earlier time.
 */
export function pastWindow(query: TxnQuery, txn: Txn): boolean {
  return query.to !== undefined && 'zxid' in query.to && txn.zxid > query.to.zxid;
}

/** The zxid the query ends at, where it ends at one: reading can stop there (a time bound cannot, as above). */
export const zxidBound = (query: TxnQuery): bigint | undefined => (query.to && 'zxid' in query.to ? query.to.zxid : undefined);

/**
 * `0x1a2b` (a zxid) or an ISO 8601 time with a date (`2026-11-28T03:12:00Z`; without a zone it is UTC, as the
 * servers' logs are read most often beside other UTC logs). Undefined when neither.
 */
export function parseLogBound(text: string): LogBound | undefined {
  if (/^0x[0-9a-f]{1,16}$/i.test(text)) return { zxid: BigInt(text) };
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) || text.length === 10 ? text : `${text}Z`;
  const time = Date.parse(zoned.replace(' ', 'T'));
  return Number.isFinite(time) ? { time } : undefined;
}
