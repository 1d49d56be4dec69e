// `zooscope locks <connectString> <path> [--json]`: the lock analysis for terminals and CI; with --watch it follows
// the queues live and records their history (locksWatch.ts), with --replay it reads a recording. Exit codes: 0 done,
// 1 failed (cannot connect, no such path), 2 bad arguments, 3 with --strict when an error-level anomaly exists.
// Digest credentials: --digest <user> with the password in ZOOSCOPE_DIGEST_PASSWORD, or ZOOSCOPE_DIGEST=user:password.
import { analyzeLocks, AnalyzeOptions } from '../zk/analysis';
import { isZkError } from '../zk/errors';
import { SessionOptions, ZkSession } from '../zk/session/session';
import { checkedConnectString, checkedPath, CREDENTIALS_HINT, durationOf, integerOf, numberOf, secondsOf, UsageError } from './args';
import { runReplay, runWatch, WatchArgs } from './locksWatch';
import { DEFAULT_RECORDING_LIMIT_BYTES } from '../zk/history';
import { MAX_TIMER_MS } from '../zk/timeouts';
import { formatAnalysis } from './locksFormat';
import type { Output } from './output';
import { digestInClearNotice, SecurityArgs } from './securityArgs';

const MIB = 1024 * 1024;

export const locksUsage = `usage: zooscope locks <connectString> <path> [--json] [--admin-port <port>] [--held-too-long <seconds>]
                      [--max-queues <n>] [--no-server-watches] [--timeout <seconds>] [--strict] [--digest <user>]
                      [--tls] [--tls-ca <file>] [--tls-cert <file> --tls-key <file> | --tls-pfx <file>]
                      [--tls-no-server-name-check] [--tls-pin-sha256 <fingerprint>] [--sasl-user <name> | --kerberos]
                      [--watch [--for <duration>] [--record <file> [--record-limit <MiB>]] [--trace <file>]]
       zooscope locks --replay <recording> [--json] [--trace <file>]
--record-limit: the recording is rotated at this size, ${DEFAULT_RECORDING_LIMIT_BYTES / MIB} MiB when not given; <file>.1 keeps
                the part before, so at most twice the limit is on disk`;

/** --for and the largest a timer holds (24.8 days). */
const MAX_WATCH_MS = MAX_TIMER_MS;

interface LocksArgs {
  connectString: string;
  path: string;
  json: boolean;
  strict: boolean;
  timeoutMs: number;
  digest: string[];
  security: Pick<SessionOptions, 'tls' | 'sasl' | 'ssh'>;
  options: AnalyzeOptions;
  watch?: Omit<WatchArgs, 'path' | 'json' | 'options'>;
  replay?: string;
}

function parseArgs(args: string[], env: NodeJS.ProcessEnv): LocksArgs {
  const positional: string[] = [];
  const options: AnalyzeOptions = {};
  let json = false;
  let strict = false;
  let timeoutMs = 15000;
  const security = new SecurityArgs();
  let watching = false;
  const watch: NonNullable<LocksArgs['watch']> = {};
  let replay: string | undefined;
  const fileOf = (value: string | undefined, flag: string) => {
    if (value === undefined || value === '' || value.startsWith('--')) throw new UsageError(`${flag} takes a file name`);
    return value;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    switch (arg) {
      case '--json': json = true; break;
      case '--strict': strict = true; break;
      case '--watch': watching = true; break;
      case '--for': watch.forMs = durationOf(args[++i], arg, 1000, MAX_WATCH_MS); break;
      case '--record': watch.record = fileOf(args[++i], arg); break;
      case '--record-limit': watch.recordLimitBytes = Math.round(numberOf(args[++i], arg, 'a size in MiB') * MIB); break;
      case '--trace': watch.trace = fileOf(args[++i], arg); break;
      case '--replay': replay = fileOf(args[++i], arg); break;
      case '--no-server-watches': options.serverWatches = false; break;
      case '--admin-port': options.adminPort = integerOf(args[++i], arg, 1, 65535); break;
      case '--held-too-long': options.heldTooLongMs = numberOf(args[++i], arg, 'a number of seconds') * 1000; break;
      case '--max-queues': options.maxQueues = integerOf(args[++i], arg, 1, Number.MAX_SAFE_INTEGER); break;
      // The session and request timers (and the session timeout sent as an int32 of ms) hold at most 24.8 days.
      case '--timeout': timeoutMs = Math.max(1000, secondsOf(args[++i], arg, 0, MAX_TIMER_MS)); break;
      default: i = security.takeRest(args, i, positional);
    }
  }
  if (replay !== undefined) {
    if (positional.length > 0 || watching || watch.forMs !== undefined || watch.record !== undefined) throw new UsageError(`--replay reads a recording: no connect string, path, --watch, --for or --record\n${locksUsage}`);
    return { connectString: '', path: '/', json, strict, timeoutMs, digest: [], security: {}, options, replay, watch };
  }
  if (!watching && (watch.forMs !== undefined || watch.record !== undefined || watch.trace !== undefined)) throw new UsageError('--for, --record and --trace go with --watch');
  if (watch.recordLimitBytes !== undefined && watch.record === undefined) throw new UsageError('--record-limit goes with --record');
  if (watch.recordLimitBytes !== undefined && watch.recordLimitBytes < 4096) throw new UsageError('--record-limit takes at least 0.004 MiB (4 KiB)');
  if (positional.length !== 2) throw new UsageError(`expected <connectString> <path>\n${locksUsage}`);
  const { digest, tls, sasl, ssh } = security.sessionOptions(env);
  return {
    connectString: checkedConnectString(positional[0]), path: checkedPath(positional[1], true), json, strict, timeoutMs,
    digest: digest ?? [], security: { tls, sasl, ssh }, options, ...(watching ? { watch } : {}),
  };
}

export async function runLocks(args: string[], out: Output): Promise<number> {
  let parsed: LocksArgs;
  try {
    parsed = parseArgs(args, process.env);
  } catch (error) {
    out.error(`zooscope locks: ${(error as Error).message}`);
    return 2;
  }
  if (parsed.replay !== undefined) {
    try {
      return await runReplay(parsed.replay, { json: parsed.json, trace: parsed.watch?.trace }, out);
    } catch (error) {
      // A bad recording (RecordingFormatError) and a file that cannot be read both say why in one line.
      out.error(`zooscope locks: ${parsed.replay}: ${(error as Error).message}`);
      return 1;
    }
  }
  const { timeoutMs } = parsed;
  const newSession = () => new ZkSession({
    connectString: parsed.connectString, sessionTimeoutMs: Math.max(4000, timeoutMs), requestTimeoutMs: timeoutMs, digest: parsed.digest,
    ...parsed.security,
  });
  const session = newSession();
  const notice = digestInClearNotice(session.options);
  if (notice) out.error(`zooscope locks: ${notice}`);
  try {
    await session.open();
    if (parsed.watch) {
      const options = { ...parsed.options, serverTimeoutMs: Math.min(timeoutMs, 5000) };
      return await runWatch(session, { ...parsed.watch, path: parsed.path, json: parsed.json, options }, out, newSession);
    }
    const analysis = await analyzeLocks(session, parsed.path, { ...parsed.options, serverTimeoutMs: Math.min(timeoutMs, 5000) });
    if (parsed.json) out.json(analysis);
    else out.text(formatAnalysis(analysis));
    const errors = analysis.anomalies.concat(analysis.queues.flatMap((q) => q.anomalies)).filter((a) => a.severity === 'error');
    return parsed.strict && errors.length > 0 ? 3 : 0;
  } catch (error) {
    out.error(`zooscope locks: ${(error as Error).message}${isZkError(error, 'noAuth') ? `; ${CREDENTIALS_HINT}` : ''}`);
    return 1;
  } finally {
    session.close();
  }
}
