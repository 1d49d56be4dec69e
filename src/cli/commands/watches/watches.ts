// `zooscope watches <connectString> [--json] [--top <n>] [--compare <saved.json>]`: the watch census of the
// ensemble (issue 35). Every member named in the connect string is asked, one at a time, with read-only commands
// only. Exit codes: 0 done (every member listed its watches), 1 a member would not (the rest is still shown) or
// the census failed, 2 bad arguments.
import * as fs from 'node:fs';
import { censusOfSession, compareCensuses, DEFAULT_LISTING_MS, DEFAULT_TOP, readSavedCensus, WatchCensus } from '../../../zk/census';
import { checkedConnectString, checkedPath, integerOf, secondsOf, UsageError } from '../../args';
import { defineCommand, usageText, type CommandContext } from '../../command';
import { listenAddressOf } from '../../metricsServer';
import type { ZkSession } from '../../../zk/session/session';
import { censusMetricsServer, watchCensuses, type CensusWatch } from './watchLoop';

const DEFAULT_INTERVAL_S = 60;
import type { ConnectionSettings } from '../../connectionOptions';
import { costText, formatCensus, formatComparison } from './format';

const USAGE = `zooscope watches <connectString> [--json] [--top <n>] [--compare <saved.json>] [--admin-port <port>]
                 [--locks-under <path>] [--deadline <seconds>] [--timeout <seconds>] [security options]
zooscope watches <connectString> --watch [--interval <seconds>] [--metrics <host:port>] [--json] [--top <n>] […]`;

const MAX_TOP = 10_000;

const OPTIONS = {
  'json': {},
  'top': { takes: `a whole number from 1 to ${MAX_TOP}` },
  'compare': { takes: 'a file saved from zooscope watches --json' },
  'admin-port': { takes: 'a whole number from 1 to 65535' },
  'locks-under': { takes: 'a znode path' },
  'deadline': { takes: 'a number of seconds' },
  'timeout': { takes: 'a number of seconds' },
  'watch': {},
  'interval': { takes: 'a number of seconds' },
  'metrics': { takes: 'host:port, :port or port (loopback unless a host is given)' },
} as const;

interface WatchesArgs {
  connectString: string;
  json: boolean;
  top: number;
  compare?: { file: string; census: WatchCensus };
  adminPort?: number;
  locksUnder?: string;
  listingTimeoutMs: number;
  timeoutMs: number;
  connection: ConnectionSettings;
  watch?: CensusWatch;
}

export const watchesCommand = defineCommand({
  name: 'watches',
  summary: 'the watch census: who watches what on every member, the hidden child watches, herd risk per lock queue, leaks',
  usage: USAGE,
  details: `  data watches are listed by each member (wchp, or its AdminServer's watches_by_path); child watches (getChildren)
    are listed by none: they are derived as mntr's watch_count less the listed data watches
  members are asked one at a time; the members' watch counts are said first when the listing is big
  --top: sessions and paths listed (default ${DEFAULT_TOP}); save with a larger --top for a finer --compare later
  --compare: a census saved with --json; the sessions and paths whose watches grew since, the most first
  --admin-port: the members' AdminServer port (default 8080); the four-letter words where it does not answer
  --locks-under: where lock queues are looked for the herd risk (default /)
  --deadline: each member's whole listing must arrive within this (default ${DEFAULT_LISTING_MS / 1000} s)
  --watch: a census every --interval seconds (default ${DEFAULT_INTERVAL_S}; never two at once) until Ctrl-C, a line each
  --metrics: with --watch, serves the last census at /metrics for Prometheus (watches per member, the --top sessions,
    paths and lock queues at herd risk as bounded series; censuses taken and failed); loopback unless a host is given
  exit codes: 0 done, 1 a member would not list its watches (the others are still shown) or the census failed, 2 bad arguments`,
  options: OPTIONS,
  connects: true,
  failureExit: 1,
  parse({ values, positionals, connection }): WatchesArgs {
    const top = values.top === undefined ? DEFAULT_TOP : integerOf(values.top, '--top', 1, MAX_TOP);
    const adminPort = values['admin-port'] === undefined ? undefined : integerOf(values['admin-port'], '--admin-port', 1, 65535);
    const locksUnder = values['locks-under'] === undefined ? undefined : checkedPath(values['locks-under'], true);
    const listingTimeoutMs = values.deadline === undefined ? DEFAULT_LISTING_MS : secondsOf(values.deadline, '--deadline', 100, 3_600_000);
    const timeoutMs = values.timeout === undefined ? 15000 : Math.max(1000, secondsOf(values.timeout, '--timeout', 0, 600_000));
    if (positionals.length !== 1) throw new UsageError(`expected <connectString>\n${usageText(USAGE)}`);
    if (!values.watch && (values.interval !== undefined || values.metrics !== undefined)) throw new UsageError('--interval and --metrics go with --watch');
    if (values.watch && values.compare !== undefined) throw new UsageError('--compare compares one census: leave out --watch');
    const watch: CensusWatch | undefined = values.watch ? {
      intervalMs: values.interval === undefined ? DEFAULT_INTERVAL_S * 1000 : secondsOf(values.interval, '--interval', 1000, 86_400_000),
      metricsAt: values.metrics === undefined ? undefined : listenAddressOf(values.metrics), json: !!values.json, top,
    } : undefined;
    let compare: WatchesArgs['compare'];
    if (values.compare !== undefined) {
      // Read before connecting: a wrong file is a usage error, not a census thrown away.
      let text: string;
      try {
        text = fs.readFileSync(values.compare, 'utf8');
      } catch (error) {
        throw new UsageError(`--compare ${values.compare}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      try {
        compare = { file: values.compare, census: readSavedCensus(text) };
      } catch (error) {
        throw new UsageError(`--compare ${values.compare}: ${(error as Error).message}`);
      }
    }
    return {
      connectString: checkedConnectString(positionals[0]), json: !!values.json, top, compare, adminPort, locksUnder,
      listingTimeoutMs, timeoutMs, connection, watch,
    };
  },
  reaches: (parsed) => [parsed.connectString],
  async run(parsed, { out, say, session: newSession }) {
    const served = parsed.watch ? await censusMetricsServer(parsed.watch, say) : undefined;
    try {
      const session = newSession({
        connectString: parsed.connectString, sessionTimeoutMs: Math.max(4000, parsed.timeoutMs), requestTimeoutMs: parsed.timeoutMs, ...parsed.connection,
      });
      await session.open();
      if (parsed.watch) {
        return await watchCensuses(session, {
          top: parsed.top, adminPort: parsed.adminPort, locksUnder: parsed.locksUnder, listingTimeoutMs: parsed.listingTimeoutMs,
          answerTimeoutMs: Math.min(parsed.timeoutMs, 5000),
        }, parsed.watch, served?.metrics, { out, say });
      }
      return await censusOnce(session, parsed, { out, say });
    } finally {
      served?.server.close();
    }
  },
});

async function censusOnce(session: ZkSession, parsed: WatchesArgs, { out, say }: Pick<CommandContext, 'out' | 'say'>): Promise<number> {
  const census = await censusOfSession(session, {
    top: parsed.top, adminPort: parsed.adminPort, locksUnder: parsed.locksUnder, listingTimeoutMs: parsed.listingTimeoutMs,
    answerTimeoutMs: Math.min(parsed.timeoutMs, 5000),
    beforeListing: (costs) => {
      const cost = costText(costs);
      if (cost) say(cost);
      return true;
    },
  });
  if (!census) return 1;
  const comparison = parsed.compare && compareCensuses(parsed.compare.census, census);
  if (parsed.json) out.json(comparison ? { ...census, compare: comparison } : census);
  else out.text([formatCensus(census), ...(comparison ? ['', formatComparison(comparison)] : [])].join('\n'));
  return census.complete ? 0 : 1;
}
