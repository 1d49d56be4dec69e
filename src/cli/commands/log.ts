// `zooscope log <dir|file>…`: the transactions of ZooKeeper's own logs, one a line, read by src/zk/serverLogs without
// a JVM; each argument is one source (a member's data directory, a copy of its version-2, or a log file), and several
// are merged by zxid. `--history` tells one node's (or a glob's) changes instead. Trouble is one line on stderr each:
// a torn or lying entry, a file a running server is writing, a stretch of zxids no source holds.
import { lockFigures, type HistoryEvent, type LockHistory } from '../../zk/history';
import { lockHistoryFromLogs } from '../../zk/history/fromServerLogs';
import { logSource, readLogSet, readLogSetBatches, type LogSetItem, type LogSource } from '../../zk/serverLogs/logSet';
import { startingSnapshot } from '../../zk/serverLogs/startingSnapshot';
import { SessionBook, type SessionSummary } from '../../zk/serverLogs/sessionHistory';
import { eventLine, figuresText } from './locks/historyFormat';
import { writeTraceFile } from './locks/watch';
import type { Output } from '../output';
import { nodeHistory, type HistoryEntry } from '../../zk/serverLogs/nodeHistory';
import { parseLogBound, pastWindow, txnMatcher, type LogBound, type TxnQuery } from '../../zk/serverLogs/txnFilter';
import type { Txn, TxnRecord } from '../../zk/serverLogs/txnTypes';
import { hex } from '../../zk/stat';
import { UsageError } from '../args';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectStringProblemText, isConnectStringProblem, parseConnectString } from '../../zk/connectString';
import { fetchRemoteLogs, type RemoteLogOptions } from '../../zk/serverLogs/remoteLogs';
import { SSH_OPTIONS, SSH_SECRET_ENV, sshSettings } from '../connectionOptions';
import { defineCommand, usageText, type CommandContext } from '../command';
import { txnJson } from './logJson';
import { dataFields, dataSummary, LineBatch } from './logLines';
import { runTreeAt, type MomentArgs } from './logMoment';
import { auditFiles } from '../../zk/serverLogs/auditLog';
import { auditFields, auditText, AuditJoin, readAuditBook, type AuditedItem, type AuditMatch, MATCH_TOLERANCE_MS } from '../../zk/serverLogs/auditJoin';

const USAGE = `zooscope log <dir|file>… [--json] [--path <glob>]… [--session <0x…>] [--from <time|0xzxid>] [--to <time|0xzxid>]
zooscope log <dir|file>… --history <path|glob> [--json] [--from <time|0xzxid>] [--to <time|0xzxid>]
zooscope log <dir>… --locks <path> [--json] [--trace <file>] [--from <time|0xzxid>] [--to <time|0xzxid>]
zooscope log <dir>… --tree-at <time|0xzxid> [--path <path>] [--export <file>] [--json]
zooscope log <dir|file>… --sessions [--session <0x…>] [--from <time|0xzxid>] [--to <time|0xzxid>] [--json]
zooscope log <dir|file>… --audit <file|dir>… [the lines', --history's or --sessions' flags]
zooscope log <connectString> --data-dir <dir> [--ssh <bastion> …] [--read-command <words>] [any form's flags]`;

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

export function txnLine(txn: Txn, audit?: AuditMatch): Record<string, unknown> {
  return { zxid: hex(txn.zxid), time: txn.time, session: hex(txn.session), ...recordFields(txn.record), ...auditFields(audit) };
}

export function historyLine(entry: HistoryEntry, audit?: AuditMatch): Record<string, unknown> {
  const { zxid, time, session, data, ttl, ...rest } = entry;
  return { zxid: hex(zxid), time, session: hex(session), ...rest, ...(data === undefined ? {} : dataFields(data)), ...(ttl === undefined ? {} : { ttl: String(ttl) }), ...auditFields(audit) };
}

const REMOVALS: Record<NonNullable<HistoryEntry['removed']>, string> = {
  deleted: 'deleted by this session',
  sessionClosed: 'gone with its session, closed by its client (ephemeral)',
  sessionExpired: 'gone with its session, which expired (ephemeral)',
  containerEmptied: 'container emptied, removed by the server',
  ttlExpired: 'TTL expired, removed by the server',
  removedByServer: 'removed by the server',
};

function historyText(entry: HistoryEntry, audit?: AuditMatch): string {
  const head = `${hex(entry.zxid)} ${new Date(entry.time).toISOString()} ${hex(entry.session)}${auditText(audit)} ${entry.op}${entry.inMulti ? ' (in a multi)' : ''} ${entry.path}`;
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

/** `--tree-at` with its subtree and file, checked; undefined without it. */
function momentArgs(values: { 'tree-at'?: string; export?: string; path?: string[]; history?: string; locks?: string; session?: string; from?: string; to?: string }): Omit<MomentArgs, 'json'> | undefined {
  const at = values['tree-at'];
  if (at === undefined) return undefined;
  if (values.history !== undefined || values.locks !== undefined || values.session !== undefined || values.from !== undefined || values.to !== undefined) {
    throw new UsageError('--tree-at takes neither --history, --locks, --session, --from nor --to: it is one moment');
  }
  if ((values.path?.length ?? 0) > 1) throw new UsageError('--tree-at keeps one subtree: give --path once');
  const root = values.path?.[0] ?? '/';
  if (!root.startsWith('/') || /\*/.test(root) || (root.length > 1 && root.endsWith('/'))) throw new UsageError(`--path ${JSON.stringify(root)}: with --tree-at, expected a node's absolute path (no glob)`);
  return { moment: boundOf(at, '--tree-at')!, root, exportFile: values.export };
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
  --locks: the lock history of the queues under a path (holds, waits, hand-overs, sessions lost, contention figures),
    from the snapshot the logs go on from, times the leader's; --from/--to set the figures' window
  --trace: with --locks, writes the Trace Event Format (Perfetto), the same as the locks command writes
  --tree-at: the tree as it was at a zxid or a time (the last transaction at or before it), rebuilt from the newest
    snapshot written before then and the logs after it; --path keeps one subtree; a node a line (or JSON Lines)
  --sessions: each session: when it began (and its timeout) and ended (closed by its client, or expired), what it
    created, deleted and changed, the ephemeral nodes that went with it
  --audit: the servers' audit logs (audit.enable=true; a file, or a folder's zookeeper_audit.log*): each write the
    audit log has (same session, operation and path, within ${MATCH_TOLERANCE_MS / 1000} s) gets its client's address and user, and
    --sessions lists them per session; a write the audit log lacks gets none
  --data-dir: the members' data directory: each member of <connectString> is read over SSH (through --ssh and its
    --ssh-jump, --ssh-identity, --ssh-config, as the bastion's user; key or agent authentication), only ls and cat
    run there; the files are copied into a private temporary folder, read, then removed
  --read-command: words before each ls and cat on the members when the files need them, e.g. 'sudo -n'
  --export: with --tree-at, writes that tree in the export format (0600), for zooscope diff or an import
  exit codes: 0 read whole, 1 something could not be read (said on stderr), 2 bad arguments`,
  options: {
    json: {},
    path: { takes: 'a glob such as /locks/**', multiple: true },
    session: { takes: 'a session id (0x…)' },
    from: { takes: 'a zxid (0x…) or an ISO time' },
    to: { takes: 'a zxid (0x…) or an ISO time' },
    history: { takes: 'a path or a glob' },
    locks: { takes: 'a path' },
    trace: { takes: 'a file' },
    'tree-at': { takes: 'a zxid (0x…) or an ISO time' },
    export: { takes: 'a file' },
    sessions: {},
    audit: { takes: 'an audit log, or a folder with zookeeper_audit.log', multiple: true },
    'data-dir': { takes: 'the members\' data directory' },
    'read-command': { takes: 'words such as \'sudo -n\'' },
    ...SSH_OPTIONS,
  },
  connects: false,
  failureExit: 1,
  parse({ values, positionals, env }) {
    if (positionals.length === 0) throw new UsageError(`expected <dir|file>…\n${usageText(USAGE)}`);
    if (values.session !== undefined && !/^0x[0-9a-f]{1,16}$/i.test(values.session)) throw new UsageError(`--session ${JSON.stringify(values.session)}: expected a session id (0x…)`);
    if (values.history !== undefined && values.path !== undefined) throw new UsageError('--history takes its path itself: leave out --path');
    for (const flag of ['history', 'locks'] as const) {
      const value = values[flag];
      if (value !== undefined && !value.startsWith('/')) throw new UsageError(`--${flag} ${JSON.stringify(value)}: expected an absolute path`);
    }
    if (values.locks !== undefined && (values.history !== undefined || values.path !== undefined || values.session !== undefined)) {
      throw new UsageError('--locks takes neither --history, --path nor --session: a queue\'s history needs every change under it');
    }
    if (values.trace !== undefined && values.locks === undefined) throw new UsageError('--trace goes with --locks');
    if (values.sessions && (values.history !== undefined || values.locks !== undefined || values.path !== undefined || values['tree-at'] !== undefined)) {
      throw new UsageError('--sessions takes neither --history, --locks, --path nor --tree-at');
    }
    if (values.export !== undefined && values['tree-at'] === undefined) throw new UsageError('--export goes with --tree-at');
    const moment = momentArgs(values);
    if (values.audit !== undefined && (values.locks !== undefined || moment !== undefined)) throw new UsageError('--audit goes with the transactions\' lines, --history or --sessions');
    const audit = values.audit?.flatMap(auditArg);
    const query: TxnQuery = {
      from: boundOf(values.from, '--from'), to: boundOf(values.to, '--to'),
      session: values.session === undefined ? undefined : BigInt(values.session), paths: values.path,
    };
    const remote = remoteArgs(values, positionals, env);
    const sources = remote ? [] : positionals.map((target) => {
      try {
        return logSource(target);
      } catch (error) {
        throw new UsageError(`${target}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (error as Error).message}`);
      }
    });
    return { json: !!values.json, sources, remote, query, history: values.history, locks: values.locks, trace: values.trace, moment, sessions: !!values.sessions, audit };
  },
  async run(args, context): Promise<number> {
    if (!args.remote) return runOn(args.sources, args, context);
    const copies = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-logs-'));
    try {
      const fetched = await fetchRemoteLogs(args.remote.members, { ...args.remote.options, into: copies });
      for (const problem of fetched.problems) context.say(problem);
      if (fetched.sources.length === 0) return 1;
      context.say(`read the logs of ${fetched.sources.length} member${fetched.sources.length === 1 ? '' : 's'} over SSH (${(fetched.bytes / 1048576).toFixed(1)} MiB)`);
      const code = await runOn(fetched.sources, args, context);
      return fetched.problems.length > 0 ? Math.max(code, 1) : code;
    } finally {
      fs.rmSync(copies, { recursive: true, force: true });
    }
  },
});

/** An --audit argument's files: the file, or a folder's zookeeper_audit.log and its rolled copies. */
function auditArg(target: string): string[] {
  let files: string[];
  try {
    files = auditFiles(target);
  } catch (error) {
    throw new UsageError(`--audit ${target}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (error as Error).message}`);
  }
  if (files.length === 0) throw new UsageError(`--audit ${target}: no zookeeper_audit.log in this folder (give the audit file itself)`);
  return files;
}

/** The audit logs read and ready to join; their troubles said. */
async function auditJoin(files: string[] | undefined, say: (line: string) => void): Promise<{ join?: AuditJoin; troubled: boolean }> {
  if (!files) return { troubled: false };
  let troubled = false;
  const book = await readAuditBook(files, (issue) => {
    troubled = true;
    say(issue.message);
  });
  return { join: new AuditJoin(book), troubled };
}

/** The SSH form: the members of a connect string and how to read their data directory; undefined without --data-dir. */
function remoteArgs(values: { 'data-dir'?: string; 'read-command'?: string } & Parameters<typeof sshSettings>[0], positionals: string[], env: NodeJS.ProcessEnv): { members: string[]; options: Omit<RemoteLogOptions, 'into'> } | undefined {
  const ssh = sshSettings(values, env);
  const dataDir = values['data-dir'];
  if (dataDir === undefined) {
    if (ssh || values['read-command'] !== undefined) throw new UsageError('--ssh and --read-command read the members\' logs: give --data-dir too');
    return undefined;
  }
  if (ssh?.secret !== undefined) throw new UsageError(`the logs are read over SSH with key or agent authentication only: leave ${SSH_SECRET_ENV} unset`);
  if (!dataDir.startsWith('/')) throw new UsageError(`--data-dir ${JSON.stringify(dataDir)}: expected the members' absolute path`);
  if (positionals.length !== 1) throw new UsageError('with --data-dir, give one connect string (its members are read)');
  const parsed = parseConnectString(positionals[0]);
  if (isConnectStringProblem(parsed)) throw new UsageError(connectStringProblemText(parsed));
  const readCommand = values['read-command']?.split(/\s+/).filter(Boolean);
  return { members: [...new Set(parsed.servers.map((server) => server.host))], options: { ssh, dataDir, readCommand } };
}

/** What one form of the command asks, whatever the logs' source. */
interface LogQuestion {
  json: boolean;
  query: TxnQuery;
  history?: string;
  locks?: string;
  trace?: string;
  moment?: Omit<MomentArgs, 'json'>;
  sessions: boolean;
  /** Audit log files to join, oldest first. */
  audit?: string[];
}

async function runOn(sources: LogSource[], { json, query, history, locks, trace, moment, sessions, audit }: LogQuestion, { out, say }: CommandContext): Promise<number> {
    if (moment !== undefined) return runTreeAt(sources, { ...moment, json }, out, say);
    if (locks !== undefined) return runLocks(sources, locks, query, { json, trace }, out, say);
    const { join, troubled: auditTroubled } = await auditJoin(audit, say);
    const code = sessions ? await runSessions(sources, query, json, out, say, join) : await runLines(sources, { json, query, history }, out, join);
    for (const note of join?.zoneNotes() ?? []) say(note);
    const dispute = join?.disputeNote();
    if (dispute) say(dispute);
    return Math.max(code, auditTroubled || dispute ? 1 : 0);
}

/** The transactions' lines, or `--history`'s; with their clients when an audit log is joined. */
async function runLines(sources: LogSource[], { json, query, history }: Pick<LogQuestion, 'json' | 'query' | 'history'>, out: Output, join?: AuditJoin): Promise<number> {
    const toZxid = query.to && 'zxid' in query.to ? query.to.zxid : undefined;
    const lines = new LineBatch(out, json);
    let troubled = false;
    const issue = (message: string) => {
      troubled = true;
      lines.flush(); // in its place among the lines
      out.error(message);
    };
    if (history !== undefined) {
      // Joined before the query's filter, so that the writes it leaves out still take their own audit lines.
      const read = readLogSet(sources, { toZxid });
      for await (const item of nodeHistory(matching(join ? join.items(read) : read, query), history)) {
        if (out.closed) return 0;
        if (item.kind === 'issue') issue(item.issue.message);
        else {
          const audit = join?.recentMatch(item.entry.zxid);
          lines.add(json ? JSON.stringify(historyLine(item.entry, audit)) : historyText(item.entry, audit));
        }
      }
    } else {
      // A batch at a time: a log has millions of transactions.
      const matches = !query.from && !query.to && !query.session && !query.paths ? undefined : txnMatcher(query);
      const batches = readLogSetBatches(sources, { toZxid });
      reading: for await (const batch of join ? join.batches(batches) : batches) {
        if (out.closed) return 0;
        for (const item of batch) {
          if (item.kind === 'issue') {
            issue(item.issue.message);
            continue;
          }
          const { txn, audit } = item as AuditedItem & { kind: 'txn' };
          if (matches && pastWindow(query, txn)) break reading;
          if (matches && !matches(txn)) continue;
          lines.add(json ? txnJson(txn, auditFields(audit)) : `${hex(txn.zxid)} ${new Date(txn.time).toISOString()} ${hex(txn.session)}${auditText(audit)} ${txn.record.op}${'path' in txn.record ? ' ' + txn.record.path : ''}`);
        }
      }
    }
    lines.flush();
    return troubled ? 1 : 0;
}

/** `--sessions`: a line (or JSON line) per session the window's transactions name. */
async function runSessions(sources: LogSource[], query: TxnQuery, json: boolean, out: Output, say: (line: string) => void, join?: AuditJoin): Promise<number> {
  const book = new SessionBook();
  let troubled = false;
  const toZxid = query.to && 'zxid' in query.to ? query.to.zxid : undefined;
  const read = readLogSet(sources, { toZxid });
  for await (const item of matching(join ? join.items(read) : read, query)) {
    if (item.kind === 'issue') {
      troubled = true;
      say(item.issue.message);
    } else book.take(item.txn, (item as AuditedItem).audit);
  }
  const lines = new LineBatch(out, json);
  for (const summary of book.summaries()) {
    if (out.closed) return 0;
    lines.add(json ? JSON.stringify(sessionLine(summary)) : sessionText(summary));
  }
  lines.flush();
  return troubled ? 1 : 0;
}

function sessionLine(s: SessionSummary): Record<string, unknown> {
  return { ...s, session: hex(s.session) };
}

function sessionText(s: SessionSummary): string {
  const began = s.began === undefined ? 'began before these logs' : `began ${new Date(s.began).toISOString()} (timeout ${s.timeoutMs} ms)`;
  const ended = s.ended === undefined ? 'not ended in these logs' : `${s.end === 'expired' ? 'expired' : 'closed by its client'} ${new Date(s.ended).toISOString()}`;
  const gone = s.ephemeralsAtEnd && s.ephemeralsAtEnd.length > 0 ? `; its end removed ${s.ephemeralsAtEnd.join(' ')}` : '';
  const from = s.clients ? `; from ${s.clients.join(' ')}` : '';
  const users = s.users ? `; as ${s.users.map((u) => JSON.stringify(u)).join(' ')}` : '';
  return `${hex(s.session)} ${began}, ${ended}: created ${s.created}, deleted ${s.deleted}, other writes ${s.otherWrites}, failed ${s.failed}${gone}${from}${users}`;
}

/** `--locks`: the lock history under `root` from the snapshot the logs go on from, then its figures (and trace). */
async function runLocks(sources: LogSource[], root: string, query: TxnQuery, options: { json: boolean; trace?: string }, out: Output, say: (line: string) => void): Promise<number> {
  const start = await startingSnapshot(sources, root);
  if ('problem' in start) {
    say(start.problem);
    return 1;
  }
  let troubled = false;
  async function* read(): AsyncGenerator<LogSetItem> {
    const toZxid = query.to && 'zxid' in query.to ? query.to.zxid : undefined;
    for await (const item of readLogSet(sources, { toZxid })) {
      if (item.kind === 'issue') {
        troubled = true;
        say(item.issue.message);
      } else if (pastWindow(query, item.txn) || (query.to && 'time' in query.to && item.txn.time > query.to.time)) return;
      yield item;
    }
  }
  const built = await lockHistoryFromLogs(read(), root, start);
  if (built.stoppedAt) say(built.stoppedAt);
  const from = query.from && 'time' in query.from ? query.from.time : built.from;
  const window = { from: from ?? 0, to: built.to ?? from ?? 0 };
  const figures = lockFigures(built.history, query.from ? window : undefined, window.to);
  if (options.trace) await writeTraceFile(built.history, options.trace, window.to);
  if (options.json) {
    out.json({ from: window.from, to: window.to, snapshot: hex(start.zxid), gaps: built.history.gaps, intervals: [...built.history.intervals()].sort((a, b) => a.start - b.start), figures });
  } else {
    for (const line of intervalLines(built.history)) out.text(line);
    out.text(figuresText(figures, window));
  }
  return troubled || built.stoppedAt ? 1 : 0;
}

/** Each hold and wait as `--watch` tells them, in time order (a hand-over's release before the take-over). */
function intervalLines(history: LockHistory): string[] {
  const events: { at: number; order: number; event: HistoryEvent }[] = [];
  for (const interval of history.intervals()) {
    events.push({ at: interval.start, order: 1, event: { type: 'open', interval } });
    if (interval.end !== undefined) events.push({ at: interval.end, order: 0, event: { type: 'close', interval } });
    if (interval.ended === 'sessionEnded') events.push({ at: interval.end!, order: 0, event: { type: 'ended', interval } });
  }
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  return events.flatMap(({ event }) => eventLine(event) ?? []);
}
