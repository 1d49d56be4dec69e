// The servers' audit log (`audit.enable=true`, 3.6+), read line by line with bounded memory. ZooKeeper writes each
// event as tab-separated key=value fields in a fixed order (AuditEvent, ZKAuditProvider.createLogEvent):
//   session, user, ip, operation, znode, znode_type, acl, result   (a field whose value is null is left out)
// through its logger (Slf4jAuditLogger; Log4jAuditLogger before 3.8), so what comes before the fields is the
// appender's pattern. ZooKeeper's documented one is `%d{ISO8601} %p %c{2}: %m%n` in a file `zookeeper_audit.log`:
//   2026-11-28 23:32:04,698 INFO audit.Slf4jAuditLogger: session=0x10002a6d4810000<TAB>user=127.0.0.1<TAB>ip=…
// %d{ISO8601} is the server's wall clock in its own zone, which the line does not say (see auditJoin.ts).
// Values are not escaped by ZooKeeper: a znode or a digest user may hold a tab or a line break, so a line is only
// taken when it splits one way; everything else is one issue line, and the rest is read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logIssue, type LogIssue } from './logIssues';

export interface AuditEntry {
  /** The client's session; absent on the server's start and stop lines. */
  session?: bigint;
  /** Comma-separated ids of the session's authentication (the ip scheme's address, a digest user, …). */
  user?: string;
  /** The client's IP address, as the server saw it (no port). */
  ip?: string;
  /** create, delete, setData, setAcl, multiOperation, reconfig, ephemeralZNodeDeletionOnSessionCloseOrExpire, … */
  operation: string;
  znode?: string;
  znodeType?: string;
  acl?: string;
  /** success, failure or invoked. */
  result: string;
  /** The line's time in ms, read as if it were UTC when the line gives no zone (`zoned` false). */
  time?: number;
  zoned: boolean;
  /** 1-based line number in its file. */
  line: number;
}

export type AuditItem = { kind: 'entry'; entry: AuditEntry } | { kind: 'issue'; issue: LogIssue };

/** ZooKeeper's field names, in the order it writes them. */
const FIELDS = ['session', 'user', 'ip', 'operation', 'znode', 'znode_type', 'acl', 'result'] as const;
const KEYS = FIELDS.map((field) => `${field}=`);
const [SESSION, USER, IP, OPERATION, ZNODE, ZNODE_TYPE, ACL, RESULT] = FIELDS.map((_, index) => index);

/** Longer lines are no audit event ZooKeeper writes for a sane tree (paths are short): skipped, not buffered. */
export const MAX_AUDIT_LINE = 64 * 1024;

/** ZooKeeper's documented audit file and its rolled copies (`.1` … `.10`, the higher the older). */
const AUDIT_FILE_NAME = /^zookeeper_audit\.log(?:\.(\d+))?$/;

/** A file as it is; in a folder, its `zookeeper_audit.log*` files, oldest first (none: an empty list). */
export function auditFiles(target: string): string[] {
  if (!fs.statSync(target).isDirectory()) return [target];
  return fs.readdirSync(target).flatMap((name) => {
    const match = AUDIT_FILE_NAME.exec(name);
    return match ? [{ name, age: match[1] === undefined ? 0 : Number(match[1]) }] : [];
  }).sort((a, b) => b.age - a.age).map(({ name }) => path.join(target, name));
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[,.](\d{1,3}))?\s?(Z|[+-]\d{2}:?\d{2})?/;

/** The time a line's prefix starts with (log4j/logback ISO8601, with or without a zone). */
function prefixTime(prefix: string): { time: number; zoned: boolean } | undefined {
  const m = TIME.exec(prefix);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms, zone] = m;
  let time = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, ms === undefined ? 0 : +ms.padEnd(3, '0'));
  if (!Number.isFinite(time)) return undefined;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
  }
  return { time, zoned: zone !== undefined };
}

/** Where the first field starts: `session=` or `user=` after the prefix (at the start, or after a space or colon). */
const FIRST_FIELD = /(?:^|[\s:])(session|user)=/;

export type ParsedLine = { entry: AuditEntry } | { problem: string } | undefined;

/**
 * One line: an entry, a problem (it is an audit line that cannot be split safely), or undefined (not an audit line:
 * the server's other logging, when the audit logger shares its file).
 */
export function parseAuditLine(text: string, line: number): ParsedLine {
  const start = FIRST_FIELD.exec(text);
  if (!start) return undefined;
  const fieldsStart = start.index + start[0].length - start[1].length - 1;
  const prefix = text.slice(0, fieldsStart);
  const segments = text.slice(fieldsStart).split('\t');
  // A line of the server's other logging may say user=; only a session id or the fields' end make it an audit line.
  if (start[1] === 'user' && !/^result=/.test(segments[segments.length - 1]) && !segments.some((s) => s.startsWith('operation='))) return undefined;
  const values: (string | undefined)[] = [];
  let next = 0;
  for (const segment of segments) {
    // Fields come in ZooKeeper's order: a segment must start with a later field's name than the one before.
    while (next < KEYS.length && !segment.startsWith(KEYS[next])) next++;
    // A value holding a tab followed by a field's name (a hostile znode or user) can be split two ways: not taken.
    if (next === KEYS.length) return { problem: 'a value holds a tab (or the fields are out of order): it cannot be split safely' };
    values[next] = segment.slice(KEYS[next].length);
    next++;
  }
  const operation = values[OPERATION];
  const result = values[RESULT];
  if (operation === undefined || result === undefined) return { problem: 'no operation or result field (a value with a line break, or a cut line)' };
  const sessionText = values[SESSION];
  if (sessionText !== undefined && !/^0x[0-9a-f]{1,16}$/i.test(sessionText)) return { problem: 'its session is not a session id' };
  const at = prefixTime(prefix);
  // Assigned one by one: object spreads of optional fields cost microseconds a line.
  const entry: AuditEntry = { operation, result, zoned: at?.zoned ?? false, line };
  if (sessionText !== undefined) entry.session = BigInt(sessionText);
  const user = values[USER];
  if (user !== undefined) entry.user = user;
  const ip = values[IP];
  if (ip !== undefined) entry.ip = ip;
  const znode = values[ZNODE];
  if (znode !== undefined) entry.znode = znode;
  const znodeType = values[ZNODE_TYPE];
  if (znodeType !== undefined) entry.znodeType = znodeType;
  const acl = values[ACL];
  if (acl !== undefined) entry.acl = acl;
  if (at) entry.time = at.time;
  return { entry };
}

/** At most this many issue lines per file; then one line says how many more. */
const MAX_ISSUES_PER_FILE = 20;

/** Reads one audit file: its entries in file order, each line that cannot be taken as one issue. */
export async function* readAuditFile(file: string): AsyncGenerator<AuditItem> {
  for await (const batch of readAuditFileBatches(file)) yield* batch;
}

/** The same, a chunk's lines at a time (a promise per line costs more than parsing it). */
export async function* readAuditFileBatches(file: string): AsyncGenerator<AuditItem[]> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let lineNumber = 0;
  let lineOffset = 0;
  let offset = 0;
  let issues = 0;
  let audited = 0;
  let timeless = 0;
  let others = 0;
  const issue = (message: string, at: number): AuditItem[] => (++issues > MAX_ISSUES_PER_FILE ? [] : [{ kind: 'issue', issue: logIssue('badAuditLine', file, at, message) }]);
  function finish(into: AuditItem[]): void {
    lineNumber++;
    if (overlong) {
      into.push(...issue(`line ${lineNumber} is longer than ${MAX_AUDIT_LINE} bytes: skipped`, lineOffset));
    } else {
      const text = Buffer.concat(pending, pendingBytes).toString('utf8').replace(/\r$/, '');
      const parsed = parseAuditLine(text, lineNumber);
      if (parsed && 'problem' in parsed) into.push(...issue(`line ${lineNumber}: ${parsed.problem}: skipped`, lineOffset));
      else if (parsed) {
        audited++;
        if (parsed.entry.time === undefined) timeless++;
        into.push({ kind: 'entry', entry: parsed.entry });
      } else if (text.trim() !== '') others++;
    }
    pending = [];
    pendingBytes = 0;
    overlong = false;
  }
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    const batch: AuditItem[] = [];
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(0x0a, from);
      const end = newline < 0 ? chunk.length : newline;
      if (!overlong) {
        if (pendingBytes + (end - from) > MAX_AUDIT_LINE) {
          overlong = true;
          pending = [];
          pendingBytes = 0;
        } else if (end > from) {
          pending.push(chunk.subarray(from, end));
          pendingBytes += end - from;
        }
      }
      if (newline < 0) break;
      finish(batch);
      from = newline + 1;
      lineOffset = offset + from;
    }
    offset += chunk.length;
    if (batch.length > 0) yield batch;
  }
  if (pendingBytes > 0 || overlong) {
    const last: AuditItem[] = [];
    finish(last);
    if (last.length > 0) yield last;
  }
  if (issues > MAX_ISSUES_PER_FILE) yield [{ kind: 'issue', issue: logIssue('badAuditLine', file, offset, `${issues - MAX_ISSUES_PER_FILE} more lines could not be taken (not said one by one)`) }];
  // The server's other lines when its audit logger shares a file, or garbage: said once, counted.
  if (others > 0 && audited > 0) yield [{ kind: 'issue', issue: logIssue('badAuditLine', file, 0, `${others} line${others === 1 ? ' is not an audit line' : 's are not audit lines'}: skipped`) }];
  if (audited === 0) yield [{ kind: 'issue', issue: logIssue('badAuditLine', file, 0, 'no audit line found (ZooKeeper\'s audit logger writes session=…<tab>user=… fields)') }];
  else if (timeless > 0) yield [{ kind: 'issue', issue: logIssue('badAuditLine', file, 0, `${timeless} audit line${timeless === 1 ? ' carries' : 's carry'} no time (the logger's pattern prints none): not matched to transactions`) }];
}
