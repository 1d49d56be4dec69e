// `zooscope log <dir|file>…`: the transactions of ZooKeeper's own logs, one a line, read by src/zk/serverLogs without
// a JVM; each argument is one source (a member's data directory, a copy of its version-2, or a log file), and several
// are merged by zxid. `--history` tells one node's (or a glob's) changes instead. Trouble is one line on stderr each:
// a torn or lying entry, a file a running server is writing, a stretch of zxids no source holds. Each form's work
// is a file of this folder (lines, sessions, locks, treeAt); this one reads the flags and the sources.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuditJoin, MATCH_TOLERANCE_MS, readAuditBook } from '../../../zk/serverLogs/auditJoin';
import { logSource, type LogSource } from '../../../zk/serverLogs/logSet';
import { fetchRemoteLogs, memberProblemLine } from '../../../zk/serverLogs/remoteLogs';
import type { TxnQuery } from '../../../zk/serverLogs/txnFilter';
import { UsageError } from '../../args';
import { defineCommand, usageText, type CommandContext } from '../../command';
import { SSH_OPTIONS } from '../../connectionOptions';
import { auditArg, boundOf, momentArgs, remoteArgs } from './arguments';
import { runLines } from './lines';
import { runLocks } from './locks';
import { runSessions } from './sessions';
import { runTreeAt, type MomentArgs } from './treeAt';

const USAGE = `zooscope log <dir|file>… [--json] [--path <glob>]… [--session <0x…>] [--from <time|0xzxid>] [--to <time|0xzxid>]
zooscope log <dir|file>… --history <path|glob> [--json] [--from <time|0xzxid>] [--to <time|0xzxid>]
zooscope log <dir>… --locks <path> [--json] [--trace <file>] [--from <time|0xzxid>] [--to <time|0xzxid>]
zooscope log <dir>… --tree-at <time|0xzxid> [--path <path>] [--export <file>] [--json]
zooscope log <dir|file>… --sessions [--session <0x…>] [--from <time|0xzxid>] [--to <time|0xzxid>] [--json]
zooscope log <dir|file>… --audit <file|dir>… [the lines', --history's or --sessions' flags]
zooscope log <connectString> --data-dir <dir> [--ssh <bastion> …] [--read-command <words>] [any form's flags]`;

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
    --ssh-jump, --ssh-identity, --ssh-config, as the bastion's user; key or agent authentication for the members,
    the bastion's password or passphrase from ZOOSCOPE_SSH_SECRET for the bastion only), only ls and cat
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
    // Named by this process, so what it leaves behind (nothing: removed below) can be told from another run's.
    const copies = fs.mkdtempSync(path.join(os.tmpdir(), `zooscope-logs-${process.pid}-`));
    try {
      const fetched = await fetchRemoteLogs(args.remote.members, { ...args.remote.options, into: copies });
      for (const problem of fetched.problems) context.say(memberProblemLine(problem));
      if (fetched.sources.length === 0) return 1;
      context.say(`read the logs of ${fetched.sources.length} member${fetched.sources.length === 1 ? '' : 's'} over SSH (${(fetched.bytes / 1048576).toFixed(1)} MiB)`);
      const code = await runOn(fetched.sources, args, context);
      return fetched.problems.length > 0 ? Math.max(code, 1) : code;
    } finally {
      fs.rmSync(copies, { recursive: true, force: true });
    }
  },
});

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
