// `zooscope lock <connectString> <path> [--read | --write | --election | --unfair-election] [--timeout <s>]
//  [--hold <s>] [--convention <id>] [--session-timeout <s>]`: takes a lock by hand with the extension's recipe and
// convention detection, and says what happens, one line per event, each starting with a stable word:
//   session <0x…>                              the lock session is open
//   convention <id> recognised|empty|chosen     the rules our node follows (or `<id> unknown|mixed` before failing)
//   waiting position=<i>/<n> for=<node>         queued; repeated whenever the position or the node waited for changes
//   held|leader node=<path> session=<0x…>       ours
//   suspended from=<state>                      connection lost: unsure whether it is still ours
//   released|cancelled|timeout|lost reason=<r>|failed error=<code>
// Holds until --hold seconds have passed, or SIGINT/SIGTERM; then releases. Exit codes: 0 released, 1 error (cannot
// connect, ZooKeeper error), 2 usage, 3 timed out waiting, 4 lost, 5 the queue's convention is unknown or has no
// such lock (choose one with --convention), 6 cancelled by a signal before it was held.
import { ConnectFailure } from '../zk/session';
import { AcquireOptions, CONVENTION_IDS, isConventionId, LockError, LockManager, LockMode, LockSnapshot } from '../zk/locks';

export const EXIT = { released: 0, error: 1, usage: 2, timedOut: 3, lost: 4, convention: 5, cancelled: 6 } as const;

interface LockArgs {
  connectString: string;
  path: string;
  mode: LockMode;
  timeoutMs?: number;
  holdMs?: number;
  convention?: AcquireOptions['convention'];
  sessionTimeoutMs: number;
}

function seconds(text: string | undefined, flag: string): number {
  const value = Number(text);
  if (text === undefined || !Number.isFinite(value) || value < 0) throw new Error(`${flag} needs a number of seconds`);
  return Math.round(value * 1000);
}

export function parseLockArgs(args: string[]): LockArgs {
  const positional: string[] = [];
  let mode: LockMode = 'exclusive';
  const parsed: Partial<LockArgs> = { sessionTimeoutMs: 15000 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    switch (arg) {
      case '--read': mode = 'read'; break;
      case '--write': mode = 'write'; break;
      case '--election': mode = 'election'; break;
      case '--unfair-election': mode = 'unfairElection'; break;
      case '--timeout': parsed.timeoutMs = seconds(args[++i], arg); break;
      case '--hold': parsed.holdMs = seconds(args[++i], arg); break;
      case '--session-timeout': parsed.sessionTimeoutMs = seconds(args[++i], arg); break;
      case '--convention': {
        const id = args[++i];
        if (!id || !isConventionId(id)) throw new Error(`--convention takes one of ${CONVENTION_IDS.join(', ')}`);
        parsed.convention = id;
        break;
      }
      default:
        if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
        positional.push(arg);
    }
  }
  if (positional.length !== 2) throw new Error('expected <connectString> <path>');
  return { ...parsed, connectString: positional[0], path: positional[1], mode } as LockArgs;
}

/** Node names and paths come from ZooKeeper: untrusted text, printed without control characters. */
const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function describe(s: LockSnapshot): string {
  switch (s.state) {
    case 'waiting': return `waiting position=${s.position?.index ?? '?'}/${s.position?.of ?? '?'} for=${clean(s.waitingFor ?? '')}`;
    case 'held': case 'leader': return `${s.state} node=${clean(s.node ?? '')} session=${s.sessionId}`;
    case 'suspended': return `suspended from=${s.suspendedFrom}`;
    case 'lost': return `lost reason=${s.lostReason}`;
    case 'timedOut': return 'timeout';
    case 'failed': return `failed error=${s.error}`;
    case 'released': return `released node=${clean(s.node ?? '')}`;
    default: return s.state;
  }
}

function exitCodeOf(s: LockSnapshot): number {
  switch (s.state) {
    case 'released': return EXIT.released;
    case 'timedOut': return EXIT.timedOut;
    case 'lost': return EXIT.lost;
    case 'cancelled': return EXIT.cancelled;
    default: return s.error === 'conventionUnknown' || s.error === 'conventionMismatch' ? EXIT.convention : EXIT.error;
  }
}

export async function runLock(args: string[]): Promise<number> {
  let options: LockArgs;
  try {
    options = parseLockArgs(args);
  } catch (error) {
    process.stderr.write(`zooscope lock: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const manager = new LockManager({ connectString: options.connectString, sessionTimeoutMs: options.sessionTimeoutMs });
  try {
    await manager.open();
  } catch (error) {
    out(`failed error=${error instanceof ConnectFailure ? `connect:${error.reason}` : (error as Error).message}`);
    manager.close();
    return EXIT.error;
  }
  out(`session ${manager.sessionId}`);
  const handle = await manager.acquire(options.path, {
    mode: options.mode, timeoutMs: options.timeoutMs, convention: options.convention ?? 'auto', positionRefreshMs: 1000,
  });
  let last = '';
  let conventionSaid = false;
  const ended = new Promise<LockSnapshot>((resolve) => {
    handle.on('change', (s) => {
      if (!conventionSaid && (s.node || s.state === 'failed')) {
        conventionSaid = true;
        out(`convention ${s.convention} ${options.convention ? 'chosen' : s.detection?.status ?? 'unknown'}`);
      }
      const line = describe(s);
      if (line !== last && s.state !== 'acquiring') out(line);
      last = line;
      if (handle.isFinal) resolve(s);
    });
  });
  let holdTimer: NodeJS.Timeout | undefined;
  const stop = () => { void handle.release(); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  handle.whenHeld().then(() => {
    if (options.holdMs !== undefined) holdTimer = setTimeout(stop, options.holdMs);
  }, (error: unknown) => {
    if (!(error instanceof LockError)) out(`failed error=${(error as Error).message}`);
  });
  const final = await ended;
  clearTimeout(holdTimer);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  if (final.state === 'failed' && final.detection && final.error === 'conventionUnknown') {
    out(`hint: choose --convention ${CONVENTION_IDS.join('|')}`);
  }
  manager.close();
  return exitCodeOf(final);
}
