// `zooscope locks <connectString> <path> [--json]`: the lock analysis for terminals and CI. Exit codes: 0 done,
// 1 failed (cannot connect, no such path), 2 bad arguments, 3 with --strict when an error-level anomaly exists.
import { analyzeLocks, AnalyzeOptions } from '../zk/analysis';
import { checkPath } from '../zk/paths';
import { ZkSession } from '../zk/session';
import { formatAnalysis } from './locksFormat';

export const locksUsage = `usage: zooscope locks <connectString> <path> [--json] [--admin-port <port>] [--held-too-long <seconds>]
                      [--max-queues <n>] [--no-server-watches] [--timeout <seconds>] [--strict]`;

interface LocksArgs {
  connectString: string;
  path: string;
  json: boolean;
  strict: boolean;
  timeoutSeconds: number;
  options: AnalyzeOptions;
}

function parseArgs(args: string[]): LocksArgs | string {
  const positional: string[] = [];
  const options: AnalyzeOptions = {};
  let json = false;
  let strict = false;
  let timeoutSeconds = 15;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const number = (name: string): number | string => {
      const value = Number(args[++i]);
      return Number.isFinite(value) && value >= 0 ? value : `${name} needs a number`;
    };
    let n: number | string;
    switch (arg) {
      case '--json': json = true; break;
      case '--strict': strict = true; break;
      case '--no-server-watches': options.serverWatches = false; break;
      case '--admin-port': if (typeof (n = number(arg)) === 'string') return n; options.adminPort = n; break;
      case '--held-too-long': if (typeof (n = number(arg)) === 'string') return n; options.heldTooLongMs = n * 1000; break;
      case '--max-queues': if (typeof (n = number(arg)) === 'string') return n; options.maxQueues = Math.max(1, Math.floor(n)); break;
      case '--timeout': if (typeof (n = number(arg)) === 'string') return n; timeoutSeconds = Math.max(1, n); break;
      default:
        if (arg.startsWith('--')) return `unknown option ${arg}`;
        positional.push(arg);
    }
  }
  if (positional.length !== 2) return 'expected <connectString> <path>';
  const [connectString, path] = positional;
  const problem = checkPath(path);
  if (problem) return `bad path ${JSON.stringify(path)}: ${problem.code}`;
  return { connectString, path, json, strict, timeoutSeconds, options };
}

export async function runLocks(args: string[]): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`zooscope locks: ${parsed}\n${locksUsage}\n`);
    return 2;
  }
  const timeoutMs = parsed.timeoutSeconds * 1000;
  let session: ZkSession;
  try {
    session = new ZkSession({ connectString: parsed.connectString, sessionTimeoutMs: Math.max(4000, timeoutMs), requestTimeoutMs: timeoutMs });
  } catch (error) {
    process.stderr.write(`zooscope locks: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    await session.open();
    const analysis = await analyzeLocks(session, parsed.path, { ...parsed.options, serverTimeoutMs: Math.min(timeoutMs, 5000) });
    process.stdout.write(parsed.json ? JSON.stringify(analysis, null, 2) + '\n' : formatAnalysis(analysis));
    const errors = analysis.anomalies.concat(analysis.queues.flatMap((q) => q.anomalies)).filter((a) => a.severity === 'error');
    return parsed.strict && errors.length > 0 ? 3 : 0;
  } catch (error) {
    process.stderr.write(`zooscope locks: ${(error as Error).message}\n`);
    return 1;
  } finally {
    session.close();
  }
}
