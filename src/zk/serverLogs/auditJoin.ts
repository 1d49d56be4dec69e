// Which client made each write: the transactions joined with the servers' audit log, which has the client's address
// and user but no zxid. The rule (an operation the audit log lacks gets nothing, never a neighbour's address):
// - a transaction matches a successful audit line of the same session, operation and path (each part of a multi
//   its own line, as ZooKeeper logs them), whose time is within MATCH_TOLERANCE_MS of the transaction's;
// - each audit line is used once; writes of one session to one path close in time pair with their lines in order
//   (both sides keep a session's order: the leader's zxids; the one thread that writes audit lines on the client's
//   server), but only when the lines are as many as those writes: otherwise one lacks its line and which cannot be
//   told (they may share a millisecond), so none gets one. Transactions are held back until those within twice the
//   tolerance after them have been read;
// - lines that fit one write but disagree on the client or user: none is believed;
// - a line's time is the server's wall clock in its own zone, which the line does not say. The zone is read from the
//   lines that fit one transaction only: their distance to it, rounded to a quarter hour (zones are whole quarter
//   hours; commit latency and clock skew are far smaller), by majority, for each file. Transactions are held back
//   until that is settled (a bounded look-ahead).
// The audit lines are kept in memory (the few fields the join needs, repeated strings shared).
import { readAuditFileBatches, type AuditEntry } from './auditLog';
import type { LogIssue } from './logIssues';
import type { LogSetItem } from './logSet';
import type { Txn, TxnRecord } from './txnTypes';

export interface AuditMatch {
  /** The client's IP address. */
  client?: string;
  /** The session's users as the audit line lists them (comma-separated). */
  user?: string;
}

export type AuditedItem = LogSetItem & { audit?: AuditMatch };

/** How far a line's time may be from its transaction's (the leader's clock): commit latency plus clock skew. */
export const MATCH_TOLERANCE_MS = 5000;
const QUARTER_HOUR = 15 * 60000;
/** Votes per file that settle its zone early; transactions held back at most (bounded memory). */
const VOTES_TO_SETTLE = 16;
const MAX_HELD = 50000;
/** Matches remembered by zxid (for callers that see the transactions through another generator). */
const RECENT = 4096;

/** The audit operation a transaction's record is logged under (AuditHelper.addAuditLog). */
function auditOperation(record: TxnRecord): string | undefined {
  switch (record.op) {
    case 'create': case 'create2': case 'createContainer': case 'createTTL': return 'create';
    case 'delete': case 'deleteContainer': return 'delete';
    case 'setData': return 'setData';
    case 'setACL': return 'setAcl';
    case 'reconfig': return 'reconfig';
    default: return undefined;
  }
}

interface Candidate {
  /** As the line says (UTC unless `zoned` is false: then the server's local time). */
  time: number;
  file: number;
  zoned: boolean;
  client?: string;
  user?: string;
  used: boolean;
}

const keyOf = (session: bigint, operation: string, znode: string) => `${session.toString(16)}\0${operation}\0${znode}`;

/** The audit lines a join can use, by session, operation and path. */
export class AuditBook {
  private readonly byKey = new Map<string, Candidate[]>();
  private readonly strings = new Map<string, string>();
  readonly fileNames: string[] = [];
  private readonly unzonedFiles = new Set<number>();

  /** A file's index for `add`. */
  file(name: string): number {
    return this.fileNames.push(name) - 1;
  }

  add(entry: AuditEntry, file: number): void {
    if (entry.result !== 'success' || entry.session === undefined || entry.znode === undefined || entry.time === undefined) return;
    if (entry.ip === undefined && entry.user === undefined) return; // the server's own work (ephemerals at a session's end)
    const key = keyOf(entry.session, entry.operation, entry.znode);
    let list = this.byKey.get(key);
    if (!list) this.byKey.set(key, (list = []));
    list.push({ time: entry.time, file, zoned: entry.zoned, client: this.shared(entry.ip), user: this.shared(entry.user), used: false });
    if (!entry.zoned) this.unzonedFiles.add(file);
  }

  private shared(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Files whose lines give no zone. */
  get filesToPlace(): ReadonlySet<number> {
    return this.unzonedFiles;
  }

  candidates(session: bigint, operation: string, znode: string): Candidate[] | undefined {
    return this.byKey.get(keyOf(session, operation, znode));
  }

  /** Each list in time order, once every file's zone offset is known. */
  placeAll(offsets: ReadonlyMap<number, number>): void {
    for (const list of this.byKey.values()) {
      for (const c of list) if (!c.zoned) c.time -= offsets.get(c.file) ?? 0;
      list.sort((a, b) => a.time - b.time);
    }
  }
}

/** Reads audit files (oldest first) into a book; each line that cannot be taken is an issue. */
export async function readAuditBook(files: readonly string[], onIssue: (issue: LogIssue) => void): Promise<AuditBook> {
  const book = new AuditBook();
  for (const name of files) {
    const index = book.file(name);
    for await (const batch of readAuditFileBatches(name)) {
      for (const item of batch) {
        if (item.kind === 'entry') book.add(item.entry, index);
        else onIssue(item.issue);
      }
    }
  }
  return book;
}

/** The audit parts of a transaction: [operation, path] for each write it made (none for a failed multi). */
function auditedWrites(record: TxnRecord): [string, string][] {
  if (record.op === 'multi') return record.parts.some((part) => part.op === 'error') ? [] : record.parts.flatMap(auditedWrites);
  const operation = auditOperation(record);
  return operation && 'path' in record ? [[operation, record.path]] : [];
}

export class AuditJoin {
  private settled = false;
  private readonly votes = new Map<number, Map<number, number>>();
  private readonly offsets = new Map<number, number>();
  /** Recent matches by zxid, in two generations (deleting a Map's oldest key one by one slows every later read). */
  private recent = new Map<bigint, AuditMatch>();
  private older = new Map<bigint, AuditMatch>();
  /** Items read and not yet given out, oldest first; the held writes' times by key. */
  private held: LogSetItem[] = [];
  private heldFrom = 0;
  private readonly heldWrites = new Map<string, Txn[]>();
  private latest = -Infinity;
  /** Writes left without a client because the lines that fit them disagree, or are fewer than they. */
  private disputed = 0;
  private unsure = 0;
  /** Keys whose writes lack lines, up to the time of the last write seen then. */
  private readonly short = new Map<string, number>();

  constructor(private readonly book: AuditBook) {
    if (book.filesToPlace.size === 0) this.settle();
  }

  private vote(txn: Txn): void {
    for (const [operation, znode] of auditedWrites(txn.record)) {
      const list = this.book.candidates(txn.session, operation, znode);
      if (list?.length !== 1 || list[0].zoned) continue;
      const quarter = Math.round((list[0].time - txn.time) / QUARTER_HOUR);
      let fileVotes = this.votes.get(list[0].file);
      if (!fileVotes) this.votes.set(list[0].file, (fileVotes = new Map()));
      fileVotes.set(quarter, (fileVotes.get(quarter) ?? 0) + 1);
    }
  }

  private enoughVotes(): boolean {
    for (const file of this.book.filesToPlace) {
      const total = [...(this.votes.get(file)?.values() ?? [])].reduce((a, b) => a + b, 0);
      if (total < VOTES_TO_SETTLE) return false;
    }
    return true;
  }

  private settle(): void {
    for (const [file, fileVotes] of this.votes) {
      const [quarter] = [...fileVotes].reduce((best, next) => (next[1] > best[1] ? next : best));
      if (quarter !== 0) this.offsets.set(file, quarter * QUARTER_HOUR);
    }
    this.book.placeAll(this.offsets);
    this.settled = true;
  }

  private admit(item: LogSetItem): void {
    this.held.push(item);
    if (item.kind !== 'txn' || item.txn.session === 0n) return;
    const txn = item.txn;
    if (!this.settled) this.vote(txn);
    this.latest = Math.max(this.latest, txn.time);
    for (const [operation, znode] of auditedWrites(txn.record)) {
      const key = keyOf(txn.session, operation, znode);
      const list = this.heldWrites.get(key);
      if (list) list.push(txn);
      else this.heldWrites.set(key, [txn]);
    }
    if (!this.settled && (this.held.length - this.heldFrom >= MAX_HELD || this.enoughVotes())) this.settle();
  }

  /** The held items that can be decided now (all of them at the end), with their matches. */
  private *release(all: boolean): Generator<AuditedItem> {
    if (!this.settled) return;
    while (this.heldFrom < this.held.length) {
      const item = this.held[this.heldFrom];
      const waiting = this.held.length - this.heldFrom < MAX_HELD;
      if (!all && waiting && item.kind === 'txn' && item.txn.time + 2 * MATCH_TOLERANCE_MS >= this.latest) return;
      this.held[this.heldFrom++] = undefined as unknown as LogSetItem;
      if (this.heldFrom > 4096 && this.heldFrom * 2 > this.held.length) {
        this.held = this.held.slice(this.heldFrom);
        this.heldFrom = 0;
      }
      if (item.kind !== 'txn') {
        yield item;
        continue;
      }
      const audit = this.decide(item.txn);
      // Built field by field: a spread costs microseconds a transaction.
      yield audit ? { kind: 'txn', txn: item.txn, source: item.source, audit } : item;
    }
  }

  /** The client and user of a transaction (the first of a multi's parts that has a line). */
  private decide(txn: Txn): AuditMatch | undefined {
    if (txn.session === 0n) return undefined;
    const writes = auditedWrites(txn.record);
    for (const [operation, znode] of writes) {
      const key = keyOf(txn.session, operation, znode);
      const held = this.heldWrites.get(key);
      if (!held) continue;
      // Decided in the order they were read: it is (nearly always) the first of its key.
      while (held[0] === txn) held.shift();
      const others = held.includes(txn) ? held.filter((other) => other !== txn) : held;
      if (others.length > 0) this.heldWrites.set(key, others);
      else this.heldWrites.delete(key);
    }
    let found: AuditMatch | undefined;
    for (const [operation, znode] of writes) {
      const line = this.take(txn, operation, znode);
      if (line) found ??= { ...(line.client === undefined ? {} : { client: line.client }), ...(line.user === undefined ? {} : { user: line.user }) };
    }
    if (found) {
      if (this.recent.size >= RECENT) {
        this.older = this.recent;
        this.recent = new Map();
      }
      this.recent.set(txn.zxid, found);
    }
    return found;
  }

  /**
   * This write's line: the earliest unused one within the tolerance, when the lines around it are as many as the
   * writes of its key that could take them (itself and the held ones within twice the tolerance after it). Fewer
   * lines than writes: one of them lacks its line and which cannot be told (a session's writes to one path may fall
   * in one millisecond), so none of them gets one.
   */
  private take(txn: Txn, operation: string, znode: string): Candidate | undefined {
    const list = this.book.candidates(txn.session, operation, znode);
    if (!list) return undefined;
    const key = keyOf(txn.session, operation, znode);
    const shortUntil = this.short.get(key);
    if (shortUntil !== undefined) {
      if (txn.time <= shortUntil) return undefined;
      this.short.delete(key);
    }
    let writes = 1;
    let last = txn.time;
    for (const rival of this.heldWrites.get(key) ?? []) {
      if (rival.time > txn.time + 2 * MATCH_TOLERANCE_MS) break;
      writes++;
      last = Math.max(last, rival.time);
    }
    let lines = 0;
    const fitting: Candidate[] = [];
    for (const c of list) {
      if (c.time > last + MATCH_TOLERANCE_MS) break;
      if (c.used || c.time < txn.time - MATCH_TOLERANCE_MS) continue;
      lines++;
      if (c.time <= txn.time + MATCH_TOLERANCE_MS) fitting.push(c);
    }
    if (lines < writes) {
      this.short.set(key, last);
      if (lines > 0) this.unsure += writes;
      return undefined;
    }
    if (fitting.length === 0) return undefined;
    // Lines that fit one write but disagree on its client: a forged one among them (ZooKeeper escapes nothing, so a
    // user with a line break can carry a line's start). Neither is believed.
    if (fitting.some((c) => c.client !== fitting[0].client || c.user !== fitting[0].user)) {
      this.disputed++;
      return undefined;
    }
    fitting[0].used = true;
    return fitting[0];
  }

  /** The match of a transaction given out just before, by zxid (a node history's entry, made from it). */
  recentMatch(zxid: bigint): AuditMatch | undefined {
    return this.recent.get(zxid) ?? this.older.get(zxid);
  }

  /** Batches with each transaction's match, in the same order. */
  async *batches(source: AsyncIterable<LogSetItem[]>): AsyncGenerator<AuditedItem[]> {
    for await (const batch of source) {
      for (const item of batch) this.admit(item);
      const out = [...this.release(false)];
      if (out.length > 0) yield out;
    }
    if (!this.settled) this.settle();
    const out = [...this.release(true)];
    if (out.length > 0) yield out;
  }

  /** The same, an item at a time (each decided just before it is given out, so `recentMatch` knows it). */
  async *items(source: AsyncIterable<LogSetItem>): AsyncGenerator<AuditedItem> {
    for await (const item of source) {
      this.admit(item);
      yield* this.release(false);
    }
    if (!this.settled) this.settle();
    yield* this.release(true);
  }

  /** A line per file whose zone was found not to be UTC. */
  zoneNotes(): string[] {
    return [...this.offsets].map(([file, offset]) => `${this.book.fileNames[file]}: its times are the server's local time, ${zoneName(offset)} (as its lines and the transactions agree)`);
  }

  /** Trouble found while joining (said once, after the lines), or undefined. */
  disputeNote(): string | undefined {
    if (this.disputed === 0) return undefined;
    return `${this.disputed} write${this.disputed === 1 ? '' : 's'} had audit lines that disagree on the client or user (a forged line?): left without one`;
  }

  /** Writes left without a client because a near write of the same session and path lacks its line (not trouble). */
  get unsureWrites(): number {
    return this.unsure;
  }
}

function zoneName(offsetMs: number): string {
  const minutes = Math.abs(offsetMs) / 60000;
  return `UTC${offsetMs < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Fields for a JSON line or a text line's tail. */
export function auditFields(match: AuditMatch | undefined): Record<string, string> {
  return match ? { ...(match.client === undefined ? {} : { client: match.client }), ...(match.user === undefined ? {} : { user: match.user }) } : {};
}

export function auditText(match: AuditMatch | undefined): string {
  if (!match) return '';
  const parts = [match.client === undefined ? '' : `client ${match.client}`, match.user === undefined ? '' : `user ${match.user}`].filter(Boolean);
  return ` (${parts.join(', ')})`;
}
