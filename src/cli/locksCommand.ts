// `zooscope locks <connectString> <path> [--json]`: the lock analysis for terminals and CI. Exit codes: 0 done,
// 1 failed (cannot connect, no such path), 2 bad arguments, 3 with --strict when an error-level anomaly exists.
// Digest credentials: --digest <user> with the password in ZOOSCOPE_DIGEST_PASSWORD, or ZOOSCOPE_DIGEST=user:password.
import { analyzeLocks, AnalyzeOptions } from '../zk/analysis';
import { isZkError } from '../zk/errors';
import { SessionOptions, ZkSession } from '../zk/session/session';
import { checkedConnectString, checkedPath, CREDENTIALS_HINT, integerOf, numberOf, secondsOf, UsageError } from './args';
import { MAX_TIMER_MS } from '../zk/timeouts';
import { formatAnalysis } from './locksFormat';
import type { Output } from './output';
import { SecurityArgs } from './securityArgs';

export const locksUsage = `usage: zooscope locks <connectString> <path> [--json] [--admin-port <port>] [--held-too-long <seconds>]
                      [--max-queues <n>] [--no-server-watches] [--timeout <seconds>] [--strict] [--digest <user>]
                      [--tls] [--tls-ca <file>] [--tls-cert <file> --tls-key <file> | --tls-pfx <file>]
                      [--tls-no-server-name-check] [--tls-pin-sha256 <fingerprint>] [--sasl-user <name> | --kerberos]`;

interface LocksArgs {
  connectString: string;
  path: string;
  json: boolean;
  strict: boolean;
  timeoutMs: number;
  digest: string[];
  security: Pick<SessionOptions, 'tls' | 'sasl' | 'ssh'>;
  options: AnalyzeOptions;
}

function parseArgs(args: string[], env: NodeJS.ProcessEnv): LocksArgs {
  const positional: string[] = [];
  const options: AnalyzeOptions = {};
  let json = false;
  let strict = false;
  let timeoutMs = 15000;
  const security = new SecurityArgs();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    switch (arg) {
      case '--json': json = true; break;
      case '--strict': strict = true; break;
      case '--no-server-watches': options.serverWatches = false; break;
      case '--admin-port': options.adminPort = integerOf(args[++i], arg, 1, 65535); break;
      case '--held-too-long': options.heldTooLongMs = numberOf(args[++i], arg, 'a number of seconds') * 1000; break;
      case '--max-queues': options.maxQueues = integerOf(args[++i], arg, 1, Number.MAX_SAFE_INTEGER); break;
      // The session and request timers (and the session timeout sent as an int32 of ms) hold at most 24.8 days.
      case '--timeout': timeoutMs = Math.max(1000, secondsOf(args[++i], arg, 0, MAX_TIMER_MS)); break;
      default: {
        const last = security.take(args, i);
        if (last !== undefined) {
          i = last;
          break;
        }
        if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
        positional.push(arg);
      }
    }
  }
  if (positional.length !== 2) throw new UsageError(`expected <connectString> <path>\n${locksUsage}`);
  const { digest, tls, sasl, ssh } = security.sessionOptions(env);
  return {
    connectString: checkedConnectString(positional[0]), path: checkedPath(positional[1], true), json, strict, timeoutMs,
    digest: digest ?? [], security: { tls, sasl, ssh }, options,
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
  const { timeoutMs } = parsed;
  const session = new ZkSession({
    connectString: parsed.connectString, sessionTimeoutMs: Math.max(4000, timeoutMs), requestTimeoutMs: timeoutMs, digest: parsed.digest,
    ...parsed.security,
  });
  try {
    await session.open();
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
