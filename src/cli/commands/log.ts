// `zooscope log <dir|file>…`: the transactions of ZooKeeper's own logs, one a line, read by src/zk/serverLogs without
// a JVM; each argument is one source (a member's data directory, a copy of its version-2, or a log file), and several
// are merged by zxid. `--history` tells one node's (or a glob's) changes instead. Trouble is one line on stderr each:
// a torn or lying entry, a file a running server is writing, a stretch of zxids no source holds.
import { TextDecoder } from 'node:util';
import { logSource, readLogSet, type LogSetItem } from '../../zk/serverLogs/logSet';
import { nodeHistory, type HistoryEntry } from '../../zk/serverLogs/nodeHistory';
import { parseLogBound, pastWindow, txnMatcher, type LogBound, type TxnQuery } from '../../zk/serverLogs/txnFilter';
import type { Txn, TxnRecord } from '../../zk/serverLogs/txnTypes';
import { hex } from '../../zk/stat';
import { UsageError } from '../args';
import { defineCommand, usageText } from '../command';
import { escapeHiddenInJson } from '../output';

const USAGE = `zooscope log <dir|file>… [--json] [--path <glob>]… [--session <0x…>] [--from <time|0xzxid>] [--to <time|0xzxid>]
zooscope log <dir|file>… --history <path|glob> [--json] [--from <time|0xzxid>] [--to <time|0xzxid>]`;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Data as text when it is UTF-8, else base64. */
function dataFields(data: Buffer | null): Record<string, string> {
  if (data === null) return {};
  try {
    return { data: utf8.decode(data) };
  } catch {
    return { dataBase64: data.toString('base64') };
  }
}

function recordFields(record: TxnRecord): Record<string, unknown> {
  const { op, ...rest } = record;
  const fields: Record<string, unknown> = { op };
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'data') Object.assign(fields, dataFields(value as Buffer | null));
    else if (key === 'parts') fields.parts = (value as TxnRecord[]).map(recordFields);
    else fields[key] = typeof value === 'bigint' ? String(value) : value;
  }
  return fields;
}

export function txnLine(txn: Txn): Record<string, unknown> {
  return { zxid: hex(txn.zxid), time: txn.time, session: hex(txn.session), ...recordFields(txn.record) };
}

export function historyLine(entry: HistoryEntry): Record<string, unknown> {
  const { zxid, time, session, data, ttl, ...rest } = entry;
  return { zxid: hex(zxid), time, session: hex(session), ...rest, ...(data === undefined ? {} : dataFields(data)), ...(ttl === undefined ? {} : { ttl: String(ttl) }) };
}

const PREVIEW_CHARS = 60;

/** What a human line says of data: its size, and its start when it is text. */
function dataSummary(data: Buffer | null | undefined): string {
  if (data === undefined) return '';
  if (data === null) return ', no data';
  const text = dataFields(data).data;
  if (text === undefined) return `, ${data.length} bytes (binary)`;
  return `, ${data.length} bytes: ${JSON.stringify(text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text)}`;
}

const REMOVALS: Record<NonNullable<HistoryEntry['removed']>, string> = {
  deleted: 'deleted by this session',
  sessionClosed: 'gone with its session (ephemeral)',
  containerEmptied: 'container emptied, removed by the server',
  ttlExpired: 'TTL expired, removed by the server',
  removedByServer: 'removed by the server',
};

function historyText(entry: HistoryEntry): string {
  const head = `${hex(entry.zxid)} ${new Date(entry.time).toISOString()} ${hex(entry.session)} ${entry.op}${entry.inMulti ? ' (in a multi)' : ''} ${entry.path}`;
  if (entry.removed) return `${head}: ${REMOVALS[entry.removed]}`;
  const version = entry.version === undefined ? '' : entry.op === 'setACL' ? `, ACL version ${entry.version}` : `, version ${entry.version}`;
  const acl = entry.acl ? `, ACL ${entry.acl.map((a) => `${a.scheme}:${a.id}:${a.perms}`).join(' ')}` : '';
  return `${head}${version}${dataSummary(entry.data)}${acl}${entry.ephemeral ? ', ephemeral' : ''}`;
}

function boundOf(text: string | undefined, flag: string): LogBound | undefined {
  if (text === undefined) return undefined;
  const bound = parseLogBound(text);
  if (!bound) throw new UsageError(`${flag} ${JSON.stringify(text)}: expected a zxid (0x…) or an ISO time (2026-11-28T03:12:00Z)`);
  return bound;
}

/** The transactions the query asks about, with every issue; stops reading at a zxid bound. */
async function* matching(items: AsyncIterable<LogSetItem>, query: TxnQuery): AsyncGenerator<LogSetItem> {
  const matches = txnMatcher(query);
  for await (const item of items) {
    if (item.kind === 'issue') yield item;
    else if (pastWindow(query, item.txn)) return;
    else if (matches(item.txn)) yield item;
  }
}

export const logCommand = defineCommand({
  name: 'log',
  summary: 'the transactions of ZooKeeper\'s own logs (data directories or log files), oldest first, one a line; a node\'s history',
  usage: USAGE,
  details: `  <dir|file>: a member's data directory, a copy of its version-2, or a log file; several are merged by zxid, each
    transaction once, and a stretch none of them holds is said on stderr
  --json: JSON Lines (data as text when it is UTF-8, else dataBase64)
  --path: only transactions touching a path the glob matches (* within a name, ** across names); repeatable
  --session: only the transactions of this session (0x…)
  --from, --to: a zxid (0x…) or an ISO time (UTC unless it says otherwise), both included
  --history: every create, setData, setACL and the removal of one path (or of each a glob matches), with how it went
  exit codes: 0 read whole, 1 something could not be read (said on stderr), 2 bad arguments`,
  options: {
    json: {},
    path: { takes: 'a glob such as /locks/**', multiple: true },
    session: { takes: 'a session id (0x…)' },
    from: { takes: 'a zxid (0x…) or an ISO time' },
    to: { takes: 'a zxid (0x…) or an ISO time' },
    history: { takes: 'a path or a glob' },
  },
  connects: false,
  failureExit: 1,
  parse({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError(`expected <dir|file>…\n${usageText(USAGE)}`);
    if (values.session !== undefined && !/^0x[0-9a-f]{1,16}$/i.test(values.session)) throw new UsageError(`--session ${JSON.stringify(values.session)}: expected a session id (0x…)`);
    if (values.history !== undefined && values.path !== undefined) throw new UsageError('--history takes its path itself: leave out --path');
    if (values.history !== undefined && !values.history.startsWith('/')) throw new UsageError(`--history ${JSON.stringify(values.history)}: expected an absolute path`);
    const query: TxnQuery = {
      from: boundOf(values.from, '--from'), to: boundOf(values.to, '--to'),
      session: values.session === undefined ? undefined : BigInt(values.session), paths: values.path,
    };
    const sources = positionals.map((target) => {
      try {
        return logSource(target);
      } catch (error) {
        throw new UsageError(`${target}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (error as Error).message}`);
      }
    });
    return { json: !!values.json, sources, query, history: values.history };
  },
  async run({ json, sources, query, history }, { out }) {
    const toZxid = query.to && 'zxid' in query.to ? query.to.zxid : undefined;
    const transactions = matching(readLogSet(sources, { toZxid }), query);
    const emit = (fields: Record<string, unknown>, text: () => string) => {
      // JSON Lines keep the exact value (hidden characters as \u escapes); the human line shows them as visible text.
      if (json) out.exact(`${escapeHiddenInJson(JSON.stringify(fields))}\n`);
      else out.text(text());
    };
    let troubled = false;
    const items = history === undefined ? transactions : nodeHistory(transactions, history);
    for await (const item of items) {
      if (out.closed) return 0;
      if (item.kind === 'issue') {
        troubled = true;
        out.error(item.issue.message);
      } else if (item.kind === 'txn') {
        const txn = item.txn;
        emit(txnLine(txn), () => `${hex(txn.zxid)} ${new Date(txn.time).toISOString()} ${hex(txn.session)} ${txn.record.op}${'path' in txn.record ? ' ' + txn.record.path : ''}`);
      } else emit(historyLine(item.entry), () => historyText(item.entry));
    }
    return troubled ? 1 : 0;
  },
});
