// Several logs read as one history: each source (a member's data directory, a copy of its version-2, or one log
// file) is read in zxid order, and the sources are merged by zxid, each transaction once. A stretch one member lacks
// is filled from another; a stretch that no source holds is said as a gap, in one line, and the rest is read. A file
// that changes while it is read is being written by a running server: that is said instead of its torn end.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hex } from '../stat';
import type { LogIssue } from './logIssues';
import { readTxnLogFileBatches, type TxnLogReadOptions } from './txnLogReader';
import type { Txn } from './txnTypes';

export interface LogSource {
  /** As the user named it (a folder or a file). */
  name: string;
  /** Its log files, oldest first. */
  files: string[];
}

export type LogSetItem =
  /** file and offset: where the entry was read (what an index keeps to read it again). */
  | { kind: 'txn'; txn: Txn; source: string; file?: string; offset?: number }
  | { kind: 'issue'; issue: LogIssue };

export interface LogSetOptions extends TxnLogReadOptions {
  /** Files that start after this zxid are not opened (their name says where they start). */
  toZxid?: bigint;
}

const LOG_NAME = /^log\.([0-9a-f]+)$/i;

/** The zxid a log file's name says it starts at, or undefined for a name of another form. */
export function firstZxidOfName(file: string): bigint | undefined {
  const match = LOG_NAME.exec(path.basename(file));
  return match ? BigInt(`0x${match[1]}`) : undefined;
}

/** A folder's `log.<hex>` files (those of the version-2 inside it, for a data directory) by zxid; a file as it is. */
export function logSource(target: string): LogSource {
  if (!fs.statSync(target).isDirectory()) return { name: target, files: [target] };
  const dir = fs.existsSync(path.join(target, 'version-2')) ? path.join(target, 'version-2') : target;
  const files = fs.readdirSync(dir).filter((name) => LOG_NAME.test(name))
    .map((name) => ({ name, zxid: firstZxidOfName(name)! }))
    .sort((a, b) => (a.zxid < b.zxid ? -1 : a.zxid > b.zxid ? 1 : 0))
    .map(({ name }) => path.join(dir, name));
  return { name: target, files };
}

const epochOf = (zxid: bigint) => zxid >> 32n;
const counterOf = (zxid: bigint) => zxid & 0xffffffffn;

/**
 * Whether a transaction can be missing between two that follow each other. Within an epoch zxids count up by one;
 * a new leader's epoch starts its count again at 1, and what the old epoch wrote after `before` (if anything was
 * committed) cannot be told from the logs, so an epoch change is no gap unless the new count starts late.
 */
export function missingBetween(before: bigint, after: bigint): { from: bigint; to: bigint } | undefined {
  if (epochOf(before) === epochOf(after)) return after > before + 1n ? { from: before + 1n, to: after - 1n } : undefined;
  const first = (epochOf(after) << 32n) | 1n;
  return counterOf(after) > 1n ? { from: first, to: after - 1n } : undefined;
}

function gapIssue(from: bigint, to: bigint): LogIssue {
  const count = to - from + 1n;
  return { kind: 'gap', file: '', offset: 0, message: `no log given holds zxid ${hex(from)}${count > 1n ? `–${hex(to)} (${count} transactions)` : ''}: what happened then is not known` };
}

/** File issues that mean "the file ends here, cut": a file being written shows the same. */
const ENDING_KINDS = new Set<LogIssue['kind']>(['tornEntry', 'badEndByte', 'badLength']);

const fileState = (file: string) => {
  const stat = fs.statSync(file);
  return `${stat.size}:${stat.mtimeMs}`;
};

/** One source's transactions, oldest first, its files' issues among them, a batch at a time. */
async function* readSource(source: LogSource, options: LogSetOptions): AsyncGenerator<LogSetItem[]> {
  for (const file of source.files) {
    const first = firstZxidOfName(file);
    if (options.toZxid !== undefined && first !== undefined && first > options.toZxid) return;
    const before = fileState(file);
    let ending: LogIssue | undefined;
    let last: bigint | undefined;
    for await (const batch of readTxnLogFileBatches(file, options)) {
      const items: LogSetItem[] = [];
      for (const item of batch) {
        if (item.kind === 'txn') {
          last = item.txn.zxid;
          items.push({ kind: 'txn', txn: item.txn, source: source.name, file, offset: item.offset });
        } else if (item.kind === 'issue') {
          if (ENDING_KINDS.has(item.issue.kind)) ending = item.issue;
          else items.push({ kind: 'issue', issue: item.issue });
        }
      }
      if (items.length > 0) yield items;
    }
    if (fileState(file) !== before) {
      const upTo = last === undefined ? 'nothing yet' : `up to zxid ${hex(last)}`;
      yield [{ kind: 'issue', issue: { kind: 'beingWritten', file, offset: 0, message: `${file}: changed while it was read, so a running server is writing it; read ${upTo}, later transactions are not included` } }];
    } else if (ending) yield [{ kind: 'issue', issue: ending }];
  }
}

/** A source's place in the merge: its current batch and the next item in it. */
interface Head { batches: AsyncGenerator<LogSetItem[]>; items: LogSetItem[]; at: number; done: boolean }

/** Items handed on at most per batch (the merge's own output). */
const OUT_BATCH = 4096;

/**
 * The sources' transactions merged by zxid, each zxid once (the first source that holds it), with gaps between
 * what any source holds said as they are reached. Issues of the files come as they are met.
 */
export async function* readLogSet(sources: readonly LogSource[], options: LogSetOptions = {}): AsyncGenerator<LogSetItem> {
  for await (const batch of readLogSetBatches(sources, options)) yield* batch;
}

/** readLogSet a batch at a time (a promise per transaction costs more than merging it). */
export async function* readLogSetBatches(sources: readonly LogSource[], options: LogSetOptions = {}): AsyncGenerator<LogSetItem[]> {
  const heads: Head[] = sources.map((source) => ({ batches: readSource(source, options), items: [], at: 0, done: false }));
  let out: LogSetItem[] = [];
  let previous: bigint | undefined;
  try {
    for (;;) {
      // Each head to its next transaction: issues on the way are handed on; a head out of items waits for its next
      // batch, after what is ready has been handed on.
      let least: Txn | undefined;
      for (const head of heads) {
        while (!head.done) {
          const item = head.items[head.at];
          if (item === undefined) {
            if (out.length > 0) {
              yield out;
              out = [];
            }
            const next = await head.batches.next();
            if (next.done) head.done = true;
            else {
              head.items = next.value;
              head.at = 0;
            }
          } else if (item.kind === 'issue') {
            out.push(item);
            head.at++;
          } else {
            if (!least || item.txn.zxid < least.zxid) least = item.txn;
            break;
          }
        }
      }
      if (!least) break;
      if (previous === undefined || least.zxid > previous) {
        if (previous !== undefined) {
          const missing = missingBetween(previous, least.zxid);
          if (missing) out.push({ kind: 'issue', issue: gapIssue(missing.from, missing.to) });
        }
        previous = least.zxid;
        const holder = heads.find((head) => !head.done && (head.items[head.at] as Extract<LogSetItem, { kind: 'txn' }>).txn === least)!;
        out.push(holder.items[holder.at]);
      }
      // Every source holding this zxid moves on (the same transaction, logged by each member).
      for (const head of heads) {
        if (head.done) continue;
        const item = head.items[head.at] as Extract<LogSetItem, { kind: 'txn' }>;
        if (item.txn.zxid <= least.zxid) head.at++;
      }
      if (out.length >= OUT_BATCH) {
        yield out;
        out = [];
      }
    }
    if (out.length > 0) yield out;
  } finally {
    await Promise.all(heads.map((head) => head.batches.return(undefined)));
  }
}
