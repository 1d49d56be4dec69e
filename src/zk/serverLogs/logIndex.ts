// A compact index over a read log set, so that later questions (a node's history, a lock's) decode only the entries
// they are about instead of reading every log again. Per transaction it keeps only what finds the entry again and
// orders it: zxid, the leader's time, file and byte offset, in typed arrays (no object per transaction). Per path a
// transaction names (its own, its multi's parts', the ephemerals its closeSession removed) one row: the transaction,
// the parent folder (interned: a log names few folders) and a 32-bit hash of the name. A hash can collide, so a
// selection is a superset: the caller's own test on the decoded record (nodeHistory's, the lock history's) decides.
import * as fs from 'node:fs';
import { parsePathGlob } from '../pathGlob';
import { EntryReader } from './logIndexReader';
import { readLogSetBatches, type LogSetItem, type LogSetOptions, type LogSource } from './logSet';
import { recordPaths } from './txnFilter';

/** What a question asks about: one path, the paths a glob matches, or every path strictly below one. */
export type PathSelection = { path: string } | { glob: string } | { below: string };

type IssueItem = Extract<LogSetItem, { kind: 'issue' }>;

/** Where a path's row files it: its parent folder ('' for `/` itself) and its name's hash. */
export function pathKey(path: string): { dir: string; name: number } {
  if (path === '/') return { dir: '', name: nameHash('') };
  const slash = path.lastIndexOf('/');
  return { dir: slash <= 0 ? '/' : path.slice(0, slash), name: nameHash(path.slice(slash + 1)) };
}

/** FNV-1a over the UTF-16 units: quick, and collisions only cost a needless decode. */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** A column that grows by doubling while the logs are read, trimmed to its length when done. */
class Column<A extends Int32Array | Uint16Array | Float64Array | BigUint64Array> {
  length = 0;
  constructor(public values: A, private readonly make: (size: number) => A) {}

  push(value: A[number]): void {
    if (this.length === this.values.length) {
      const bigger = this.make(this.values.length * 2);
      bigger.set(this.values as never);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }

  trimmed(): A {
    return this.values.slice(0, this.length) as A;
  }
}

const START = 1 << 14;
const int32s = () => new Column(new Int32Array(START), (n) => new Int32Array(n));
const float64s = () => new Column(new Float64Array(START), (n) => new Float64Array(n));

/** The row of a transaction every selection includes: a closeSession that lists no paths (older servers). */
const EVERY_SELECTION = -1;

const fileState = (file: string) => {
  const stat = fs.statSync(file);
  return `${stat.size}:${stat.mtimeMs}`;
};

export interface LogIndexBuildOptions extends LogSetOptions {
  signal?: AbortSignal;
  /** Told the transactions indexed so far, now and then. */
  progress?: (transactions: number) => void;
}

export class LogIndex {
  private constructor(
    readonly sources: readonly LogSource[],
    /** Every file of every source, and each file's size and mtime when the index was built. */
    readonly files: readonly string[],
    private readonly states: readonly string[],
    private readonly sourceOfFile: readonly string[],
    readonly zxids: BigUint64Array,
    readonly times: Float64Array,
    private readonly fileOf: Uint16Array,
    private readonly offsets: Float64Array,
    private readonly rowTxn: Int32Array,
    private readonly rowDir: Int32Array,
    private readonly rowName: Int32Array,
    private readonly dirs: readonly string[],
    /** The issues met, each with the number of transactions before it (where the full read says it). */
    readonly issues: readonly { at: number; item: IssueItem }[],
  ) {}

  get count(): number {
    return this.times.length;
  }

  /** The position of the first transaction whose zxid is above `zxid` (positions are in zxid order). */
  firstAbove(zxid: bigint): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.zxids[mid] <= zxid) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The time of the transaction `zxid`, when the logs hold it. */
  timeOf(zxid: bigint): number | undefined {
    const at = this.firstAbove(zxid) - 1;
    return at >= 0 && this.zxids[at] === zxid ? this.times[at] : undefined;
  }

  /** The last transaction (in zxid order) at or before `time` on the leader's clock, as a full read finds it. */
  lastAtOrBefore(time: number): number | undefined {
    for (let at = this.count - 1; at >= 0; at--) if (this.times[at] <= time) return at;
    return undefined;
  }

  /** Reads the sources once, as readLogSet does, keeping the index. */
  static async build(sources: readonly LogSource[], options: LogIndexBuildOptions = {}): Promise<LogIndex> {
    const files = sources.flatMap((source) => source.files);
    if (files.length > 0xffff) throw new RangeError(`${files.length} log files: an index holds at most 65535`);
    const fileIds = new Map(files.map((file, i) => [file, i]));
    const sourceOfFile = sources.flatMap((source) => source.files.map(() => source.name));
    // The state before reading: a file that changes while it is read no longer matches, and is read again next time.
    const states = files.map(fileState);
    const zxids = new Column(new BigUint64Array(START), (n) => new BigUint64Array(n));
    const times = float64s();
    const fileOf = new Column(new Uint16Array(START), (n) => new Uint16Array(n));
    const offsets = float64s();
    const rowTxn = int32s();
    const rowDir = int32s();
    const rowName = int32s();
    const dirIds = new Map<string, number>();
    const issues: { at: number; item: IssueItem }[] = [];
    const addRow = (txn: number, path: string) => {
      const key = pathKey(path);
      let dir = dirIds.get(key.dir);
      if (dir === undefined) dirIds.set(key.dir, (dir = dirIds.size));
      rowTxn.push(txn);
      rowDir.push(dir);
      rowName.push(key.name);
    };
    for await (const batch of readLogSetBatches(sources, options)) {
      options.signal?.throwIfAborted();
      for (const item of batch) {
        if (item.kind === 'issue') {
          issues.push({ at: times.length, item });
          continue;
        }
        const at = times.length;
        const file = item.file === undefined ? undefined : fileIds.get(item.file);
        if (file === undefined || item.offset === undefined) throw new Error('a transaction without its file and offset cannot be indexed');
        zxids.push(item.txn.zxid);
        times.push(item.txn.time);
        fileOf.push(file);
        offsets.push(item.offset);
        const record = item.txn.record;
        if (record.op === 'closeSession' && !record.paths) {
          rowTxn.push(at);
          rowDir.push(EVERY_SELECTION);
          rowName.push(0);
        } else for (const path of recordPaths(record)) addRow(at, path);
      }
      options.progress?.(times.length);
    }
    return new LogIndex(sources, files, states, sourceOfFile, zxids.trimmed(), times.trimmed(), fileOf.trimmed(), offsets.trimmed(),
      rowTxn.trimmed(), rowDir.trimmed(), rowName.trimmed(), [...dirIds.keys()], issues);
  }

  /** Whether these sources are the ones indexed, every file as it was (size and mtime). */
  matches(sources: readonly LogSource[]): boolean {
    const files = sources.flatMap((source) => source.files);
    if (files.length !== this.files.length || files.some((file, i) => file !== this.files[i])) return false;
    try {
      return files.every((file, i) => fileState(file) === this.states[i]);
    } catch {
      return false; // a file gone
    }
  }

  /** The bytes the index holds in its arrays (what it costs beyond the few folder names and issues). */
  get arrayBytes(): number {
    return [this.zxids, this.times, this.fileOf, this.offsets, this.rowTxn, this.rowDir, this.rowName].reduce((sum, a) => sum + a.byteLength, 0);
  }

  /** The transactions (positions, ascending) that may touch the selection: a superset, never missing one. */
  select(selection: PathSelection): Int32Array {
    const dirWanted = new Uint8Array(this.dirs.length);
    let name: number | undefined;
    if ('path' in selection) {
      const key = pathKey(selection.path);
      const dir = this.dirs.indexOf(key.dir);
      if (dir >= 0) dirWanted[dir] = 1;
      name = key.name;
    } else {
      const wanted = 'glob' in selection ? globFolderTest(selection.glob) : belowFolderTest(selection.below);
      this.dirs.forEach((dir, i) => { dirWanted[i] = wanted(dir) ? 1 : 0; });
    }
    const out = int32s();
    let last = -1;
    for (let row = 0; row < this.rowTxn.length; row++) {
      const txn = this.rowTxn[row];
      if (txn === last) continue;
      const dir = this.rowDir[row];
      if (dir === EVERY_SELECTION || (dirWanted[dir] === 1 && (name === undefined || this.rowName[row] === name))) {
        out.push(txn);
        last = txn;
      }
    }
    return out.trimmed();
  }

  /** The index's transactions at these positions (ascending), decoded from their files, a batch at a time. */
  async *read(positions: Int32Array, options: { signal?: AbortSignal } = {}): AsyncGenerator<{ position: number; item: Extract<LogSetItem, { kind: 'txn' }> }[]> {
    const reader = new EntryReader(this.files, this.states);
    try {
      let batch: { position: number; item: Extract<LogSetItem, { kind: 'txn' }> }[] = [];
      for (const position of positions) {
        const fileId = this.fileOf[position];
        const file = this.files[fileId];
        const offset = this.offsets[position];
        const txn = await reader.txnAt(fileId, offset);
        batch.push({ position, item: { kind: 'txn', txn, source: this.sourceOfFile[fileId], file, offset } });
        if (batch.length >= 1024) {
          options.signal?.throwIfAborted();
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      await reader.close();
    }
  }

  /**
   * What readLogSet would hand on, less the transactions outside `positions`: the selected transactions and every
   * issue, each in its place, up to (not including) the transaction at `end`.
   */
  async *items(positions: Int32Array, options: { signal?: AbortSignal; end?: number } = {}): AsyncGenerator<LogSetItem> {
    const end = options.end ?? this.count;
    let issue = 0;
    const within = positions.subarray(0, upperBound(positions, end - 1));
    for await (const batch of this.read(within, options)) {
      for (const { position, item } of batch) {
        for (; issue < this.issues.length && this.issues[issue].at <= position; issue++) yield this.issues[issue].item;
        yield item;
      }
    }
    for (; issue < this.issues.length && this.issues[issue].at <= end; issue++) yield this.issues[issue].item;
  }
}

/** The first index whose value is above `value` (positions ascending). */
function upperBound(values: Int32Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid] <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Folders whose children are strictly below `root` (`/` below itself is everything but `/`). */
function belowFolderTest(root: string): (dir: string) => boolean {
  if (root === '/') return (dir) => dir !== '';
  return (dir) => dir === root || dir.startsWith(`${root}/`);
}

/**
 * Folders that may hold a child the glob matches (`*` within a name, `**` any names, as parsePathGlob): the folder's
 * names walked through the glob's, then one name more, whatever it is. A `**` inside a name could cross folders:
 * then every folder may.
 */
export function globFolderTest(glob: string): (dir: string) => boolean {
  const pattern = glob.startsWith('/') ? glob : `/${glob}`;
  const parts = pattern === '/' ? [] : pattern.slice(1).split('/');
  if (parts.some((part) => part.includes('**') && part !== '**')) return () => true;
  const matchers = parts.map((part) => (part === '**' ? undefined : new RegExp(`^${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`, 'u')));
  const closure = (states: Set<number>) => {
    for (const state of states) if (state < parts.length && parts[state] === '**') states.add(state + 1);
    return states;
  };
  const step = (states: Set<number>, name: string | undefined) => {
    const next = new Set<number>();
    for (const state of states) {
      if (state >= parts.length) continue;
      const matcher = matchers[state];
      if (matcher === undefined) next.add(state);
      else if (name === undefined || matcher.test(name)) next.add(state + 1);
    }
    return closure(next);
  };
  return (dir) => {
    // `/` itself has no name: it matches as the empty path does.
    if (dir === '') return parsePathGlob(pattern)('/');
    let states = closure(new Set([0]));
    for (const name of dir === '/' ? [] : dir.slice(1).split('/')) {
      states = step(states, name);
      if (states.size === 0) return false;
    }
    return step(states, undefined).has(parts.length);
  };
}
