// `zooscope locks <connectString> <path> [--json]`: the lock analysis for terminals and CI; with --watch it follows
// the queues live and records their history (watch.ts), with --replay it reads a recording. Exit codes: 0 done,
// 1 failed (cannot connect, no such path), 2 bad arguments, 3 with --strict when an error-level anomaly exists.
// Digest credentials: --digest <user> with the password in ZOOSCOPE_DIGEST_PASSWORD, or ZOOSCOPE_DIGEST=user:password.
import { analyzeLocks, AnalyzeOptions } from '../../../zk/analysis';
import { DEFAULT_RECORDING_LIMIT_BYTES } from '../../../zk/history';
import { MAX_TIMER_MS } from '../../../zk/timeouts';
import { checkedConnectString, checkedPath, durationOf, integerOf, numberOf, secondsOf, UsageError } from '../../args';
import { CommandContext, defineCommand, usageText } from '../../command';
import { DEFAULT_MAX_LOCKS, LockMetrics, OTHER_LOCKS } from '../../../zk/metrics';
import { ListenAddress, listenAddressOf, MetricsServer } from '../../metricsServer';
import type { ConnectionSettings } from '../../connectionOptions';
import { formatAnalysis } from './format';
import { runReplay, runWatch, WatchArgs } from './watch';

const MIB = 1024 * 1024;
/** --max-locks at most: each lock's own series are about fifty (two histograms). */
const MAX_METRICS_LOCKS = 100_000;

const USAGE = `zooscope locks <connectString> <path> [--json] [--admin-port <port>] [--held-too-long <seconds>]
               [--max-queues <n>] [--no-server-watches] [--timeout <seconds>] [--strict] [security options]
               [--watch [--for <duration>] [--record <file> [--record-limit <MiB>]] [--trace <file>]
                        [--metrics <host:port> [--max-locks <n>]]]
zooscope locks --replay <recording> [--json] [--trace <file>]`;

/** --for and the largest a timer holds (24.8 days). */
const MAX_WATCH_MS = MAX_TIMER_MS;

const OPTIONS = {
  'json': {},
  'strict': {},
  'watch': {},
  'for': { takes: 'a duration such as 90s, 15m or 8h' },
  'record': { takes: 'a file name' },
  'record-limit': { takes: 'a size in MiB' },
  'trace': { takes: 'a file name' },
  'replay': { takes: 'a file name' },
  'metrics': { takes: 'an address such as :9464, 9464 or 0.0.0.0:9464' },
  'max-locks': { takes: `a whole number from 1 to ${MAX_METRICS_LOCKS}` },
  'no-server-watches': {},
  'admin-port': { takes: 'a whole number from 1 to 65535' },
  'held-too-long': { takes: 'a number of seconds' },
  'max-queues': { takes: `a whole number from 1 to ${Number.MAX_SAFE_INTEGER}` },
  'timeout': { takes: 'a number of seconds' },
} as const;

interface LocksArgs {
  connectString: string;
  path: string;
  json: boolean;
  strict: boolean;
  timeoutMs: number;
  connection: ConnectionSettings;
  options: AnalyzeOptions;
  watch?: Omit<WatchArgs, 'path' | 'json' | 'options' | 'metrics'> & { metricsAt?: ListenAddress; maxLocks?: number };
  replay?: string;
}

export const locksCommand = defineCommand({
  name: 'locks',
  summary: 'the lock analysis of a subtree (queues, holders, waiters, anomalies); --watch follows and records its history',
  usage: USAGE,
  details: `  --strict: exit 3 when an error-level anomaly exists
  --record-limit: the recording is rotated at this size, ${DEFAULT_RECORDING_LIMIT_BYTES / MIB} MiB when not given; <file>.1 keeps
                  the part before, so at most twice the limit is on disk
  --metrics: serves /metrics for Prometheus (text format, or OpenMetrics when asked) while watching: acquisitions,
             hold and wait histograms, queue lengths, held so far, session losses, monitor gaps; on 127.0.0.1
             unless a host is given (docs/prometheus.md: a service unit, the scrape job, alert rules)
  --max-locks: locks given their own series, ${DEFAULT_MAX_LOCKS} when not given; the rest are summed under lock="${OTHER_LOCKS}"
  exit codes: 0 done, 1 failed (cannot connect, no such path), 2 bad arguments, 3 --strict and an error-level anomaly`,
  options: OPTIONS,
  connects: true,
  failureExit: 1,
  parse({ values, positionals, connection }): LocksArgs {
    const options: AnalyzeOptions = {};
    if (values['no-server-watches']) options.serverWatches = false;
    if (values['admin-port'] !== undefined) options.adminPort = integerOf(values['admin-port'], '--admin-port', 1, 65535);
    if (values['held-too-long'] !== undefined) options.heldTooLongMs = numberOf(values['held-too-long'], '--held-too-long', 'a number of seconds') * 1000;
    if (values['max-queues'] !== undefined) options.maxQueues = integerOf(values['max-queues'], '--max-queues', 1, Number.MAX_SAFE_INTEGER);
    // The session and request timers (and the session timeout sent as an int32 of ms) hold at most 24.8 days.
    const timeoutMs = values.timeout === undefined ? 15000 : Math.max(1000, secondsOf(values.timeout, '--timeout', 0, MAX_TIMER_MS));
    const watch: NonNullable<LocksArgs['watch']> = {};
    if (values.for !== undefined) watch.forMs = durationOf(values.for, '--for', 1000, MAX_WATCH_MS);
    if (values.record !== undefined) watch.record = values.record;
    if (values['record-limit'] !== undefined) watch.recordLimitBytes = Math.round(numberOf(values['record-limit'], '--record-limit', 'a size in MiB') * MIB);
    if (values.trace !== undefined) watch.trace = values.trace;
    if (values.metrics !== undefined) watch.metricsAt = listenAddressOf(values.metrics);
    if (values['max-locks'] !== undefined) watch.maxLocks = integerOf(values['max-locks'], '--max-locks', 1, MAX_METRICS_LOCKS);
    const json = !!values.json;
    const strict = !!values.strict;
    const replay = values.replay;
    const watching = !!values.watch;
    if (replay !== undefined) {
      if (positionals.length > 0 || watching || watch.forMs !== undefined || watch.record !== undefined || watch.metricsAt !== undefined) throw new UsageError(`--replay reads a recording: no connect string, path, --watch, --for, --record or --metrics\n${usageText(USAGE)}`);
      return { connectString: '', path: '/', json, strict, timeoutMs, connection, options, replay, watch };
    }
    if (!watching && (watch.forMs !== undefined || watch.record !== undefined || watch.trace !== undefined || watch.metricsAt !== undefined)) throw new UsageError('--for, --record, --trace and --metrics go with --watch');
    if (watch.maxLocks !== undefined && watch.metricsAt === undefined) throw new UsageError('--max-locks goes with --metrics');
    if (watch.recordLimitBytes !== undefined && watch.record === undefined) throw new UsageError('--record-limit goes with --record');
    if (watch.recordLimitBytes !== undefined && watch.recordLimitBytes < 4096) throw new UsageError('--record-limit takes at least 0.004 MiB (4 KiB)');
    if (positionals.length !== 2) throw new UsageError(`expected <connectString> <path>\n${usageText(USAGE)}`);
    return {
      connectString: checkedConnectString(positionals[0]), path: checkedPath(positionals[1], true), json, strict, timeoutMs,
      connection, options, ...(watching ? { watch } : {}),
    };
  },
  reaches: (parsed) => (parsed.replay === undefined ? [parsed.connectString] : []),
  async run(parsed, { out, say, session: newSession }) {
    if (parsed.replay !== undefined) {
      try {
        return await runReplay(parsed.replay, { json: parsed.json, trace: parsed.watch?.trace }, out, say);
      } catch (error) {
        // A bad recording (RecordingFormatError) and a file that cannot be read both say why in one line.
        say(`${parsed.replay}: ${(error as Error).message}`);
        return 1;
      }
    }
    // Listening first: a port in use is told before anything connects.
    let served: { metrics: LockMetrics; server: MetricsServer } | undefined;
    if (parsed.watch?.metricsAt) {
      const metrics = new LockMetrics({ maxLocks: parsed.watch.maxLocks });
      try {
        served = { metrics, server: await MetricsServer.listen(parsed.watch.metricsAt, metrics) };
      } catch (error) {
        say((error as Error).message);
        return 1;
      }
      say(`metrics on ${served.server.url}; at most ${metrics.maxLocks} locks get their own series, the rest are summed under lock="${OTHER_LOCKS}"`);
    }
    try {
      return await watchOrAnalyse(parsed, { out, say, session: newSession }, served?.metrics);
    } finally {
      served?.server.close();
    }
  },
});

/** The analysis once, or the watch (serving `metrics` when given). */
async function watchOrAnalyse(parsed: LocksArgs, { out, say, session: newSession }: CommandContext, metrics?: LockMetrics): Promise<number> {
  const { timeoutMs } = parsed;
  const sessionLikeTheFirst = () => newSession({
    connectString: parsed.connectString, sessionTimeoutMs: Math.max(4000, timeoutMs), requestTimeoutMs: timeoutMs, ...parsed.connection,
  });
  const session = sessionLikeTheFirst();
  await session.open();
  if (parsed.watch) {
    const options = { ...parsed.options, serverTimeoutMs: Math.min(timeoutMs, 5000) };
    return await runWatch(session, { ...parsed.watch, path: parsed.path, json: parsed.json, options, metrics }, { out, say }, sessionLikeTheFirst);
  }
  const analysis = await analyzeLocks(session, parsed.path, { ...parsed.options, serverTimeoutMs: Math.min(timeoutMs, 5000) });
  if (parsed.json) out.json(analysis);
  else out.text(formatAnalysis(analysis));
  const errors = analysis.anomalies.concat(analysis.queues.flatMap((q) => q.anomalies)).filter((a) => a.severity === 'error');
  return parsed.strict && errors.length > 0 ? 3 : 0;
}
