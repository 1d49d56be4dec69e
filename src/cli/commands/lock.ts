// `zooscope lock <connectString> <path> [--read | --write | --election | --unfair-election] [--timeout <s>]
//  [--hold <s>] [--convention <id>] [--session-timeout <s>] [--here] [security options]`: takes a lock by hand with the
// extension's recipe and convention detection, and says what happens, one line per event, each starting with a stable word.
// A path with lock queues below it (a folder of queues) is refused, the queues named, as VS Code offers them
// instead: a node beside them is a lock no client of theirs sees. --here locks that path itself all the same.
//   session <0x…>                              the lock session is open
//   convention <id> recognised|empty|chosen     the rules our node follows (or `<id> unknown|mixed` before failing)
//   waiting position=<i>/<n> for=<node>         queued; repeated whenever the position or the node waited for changes
//   held|leader node=<path> session=<0x…>       ours
//   suspended from=<state>                      connection lost: unsure whether it is still ours
//   released|cancelled|timeout|lost reason=<r>|failed error=<code>
// Holds until --hold seconds have passed, SIGINT/SIGTERM/SIGHUP, or stdout's reader goes away; then releases.
// Digest credentials: --digest <user> with the password in ZOOSCOPE_DIGEST_PASSWORD, or ZOOSCOPE_DIGEST=user:password. Exit codes: 0 released, 1 error (cannot
// connect, ZooKeeper error), 2 usage (or a folder of lock queues without --here), 3 timed out waiting, 4 lost, 5 the queue's convention is unknown or has no
// such lock (choose one with --convention), 6 cancelled by a signal before it was held.
import { ConnectFailure } from '../../zk/session/session';
import { AcquireOptions, CONVENTION_IDS, isConventionId, LockError, LockManager, LockMode, LockSnapshot } from '../../zk/locks';
import { afterDelay, MAX_TIMER_MS } from '../../zk/timeouts';
import { checkedConnectString, checkedPath, CREDENTIALS_HINT, secondsOf, UsageError } from '../args';
import { CommandContext, defineCommand } from '../command';
import type { ConnectionSettings } from '../connectionOptions';

export const EXIT = { released: 0, error: 1, usage: 2, timedOut: 3, lost: 4, convention: 5, cancelled: 6 } as const;

/** After a stop was asked for, how long the release may take before the session is closed under it. */
const RELEASE_GRACE_MS = 5000;

const CONVENTION_TAKES = `one of ${CONVENTION_IDS.join(', ')}`;

const OPTIONS = {
  'read': {},
  'write': {},
  'election': {},
  'unfair-election': {},
  'here': {},
  'timeout': { takes: 'a number of seconds' },
  'hold': { takes: 'a number of seconds' },
  'session-timeout': { takes: 'a number of seconds' },
  'convention': { takes: CONVENTION_TAKES },
} as const;

interface LockArgs {
  connectString: string;
  path: string;
  mode: LockMode;
  timeoutMs?: number;
  holdMs?: number;
  convention?: AcquireOptions['convention'];
  sessionTimeoutMs: number;
  /** Lock the path itself even when lock queues are below it. */
  here: boolean;
  connection: ConnectionSettings;
}

const MODES: [keyof typeof OPTIONS, LockMode][] = [['read', 'read'], ['write', 'write'], ['election', 'election'], ['unfair-election', 'unfairElection']];

export const lockCommand = defineCommand({
  name: 'lock',
  summary: 'takes a lock by hand with the extension\'s recipes and says what happens, one line an event',
  usage: `zooscope lock <connectString> <path> [--read | --write | --election | --unfair-election] [--timeout <seconds>]
              [--hold <seconds>] [--convention <id>] [--session-timeout <seconds>] [--here] [security options]`,
  details: `  --here: lock <path> itself even when lock queues are below it; without it that is refused, exit 2
  --convention: ${CONVENTION_IDS.join(', ')}
  exit codes: 0 released, 1 error, 2 usage, 3 timed out waiting, 4 lost, 5 unknown convention, 6 cancelled`,
  options: OPTIONS,
  connects: true,
  failureExit: EXIT.error,
  parse({ values, positionals, connection }): LockArgs {
    const modes = MODES.filter(([flag]) => values[flag]);
    if (modes.length > 1) throw new UsageError(`give only one of ${MODES.map(([flag]) => `--${flag}`).join(', ')}`);
    const mode = modes[0]?.[1] ?? 'exclusive';
    const convention = values.convention;
    if (convention !== undefined && !isConventionId(convention)) throw new UsageError(`--convention takes ${CONVENTION_TAKES}`);
    const parsed: LockArgs = {
      connectString: '', path: '', mode, here: !!values.here, connection, convention,
      // The lock layer waits with one timer: above 24.8 days it would fire at once.
      timeoutMs: values.timeout === undefined ? undefined : secondsOf(values.timeout, '--timeout', 0, MAX_TIMER_MS),
      // Holds of any length are chained timers; beyond 2^53 ms is not a duration.
      holdMs: values.hold === undefined ? undefined : secondsOf(values.hold, '--hold', 0, Number.MAX_SAFE_INTEGER),
      // Sent as an int32 of ms; below a second ZooKeeper grants two ticks anyway and any pause loses the lock.
      sessionTimeoutMs: values['session-timeout'] === undefined ? 15000 : secondsOf(values['session-timeout'], '--session-timeout', 1000, MAX_TIMER_MS),
    };
    if (positionals.length !== 2) throw new UsageError('expected <connectString> <path>');
    return { ...parsed, connectString: checkedConnectString(positionals[0]), path: checkedPath(positionals[1], false) };
  },
  reaches: (parsed) => [parsed.connectString],
  run: runLock,
});

function describe(s: LockSnapshot): string {
  switch (s.state) {
    case 'waiting': return `waiting position=${s.position?.index ?? '?'}/${s.position?.of ?? '?'} for=${s.waitingFor ?? ''}`;
    case 'held': case 'leader': return `${s.state} node=${s.node ?? ''} session=${s.sessionId}`;
    case 'suspended': return `suspended from=${s.suspendedFrom}`;
    case 'lost': return `lost reason=${s.lostReason}`;
    case 'timedOut': return 'timeout';
    case 'failed': return `failed error=${s.error}`;
    case 'released': return `released node=${s.node ?? ''}`;
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

/** Our node got ZooScope's own name on an empty path: other libraries' clients cannot see it as a contender. */
function emptyPathNote(path: string): string {
  const theirs = CONVENTION_IDS.filter((id) => id !== 'plain').join('|');
  return `note: ${path} held no lock nodes, so ours is named ZooScope's way (<guid>-lock-<seq>): Curator and kazoo `
    + `clients only see nodes named their way and will not wait for this lock; to share it with them, choose --convention ${theirs}`;
}

/** The lock queues below `path` (src/zk/locks/lockPathSurvey, as VS Code asks); none when it cannot be listed (the acquire says why). */
async function queuesBelow(manager: LockManager, path: string): Promise<string[]> {
  try {
    return (await manager.surveyPath(path)).queuesBelow;
  } catch {
    return [];
  }
}

async function runLock(options: LockArgs, { out, say }: CommandContext): Promise<number> {
  const manager = new LockManager({ connectString: options.connectString, sessionTimeoutMs: options.sessionTimeoutMs, ...options.connection });
  // SIGINT/SIGTERM (Ctrl-C, kill), SIGHUP (the terminal closed) and a reader gone from stdout all end the lock:
  // before it is held that cancels the attempt, after that it releases; either way our node is deleted now, not
  // when the session times out. A release that cannot finish (no server) closes the session after a grace.
  let stopRequested = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const connecting = new AbortController();
  let onStop: () => void = () => connecting.abort();
  const stop = () => {
    if (stopRequested) return;
    stopRequested = true;
    onStop();
    graceTimer = setTimeout(() => manager.close(), RELEASE_GRACE_MS);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.once(signal, stop);
  out.onClosed(stop);
  let cancelHold: () => void = () => undefined;
  try {
    try {
      await manager.open(connecting.signal);
    } catch (error) {
      if (stopRequested) {
        out.text('cancelled');
        return EXIT.cancelled;
      }
      out.text(`failed error=${error instanceof ConnectFailure ? `connect:${error.reason}` : (error as Error).message}`);
      // The stable line above names the reason; TLS and SASL failures also need their one-line explanation.
      if (error instanceof ConnectFailure && error.reason !== 'cancelled') say(error.message);
      return EXIT.error;
    }
    out.text(`session ${manager.sessionId}`);
    const queues = options.here ? [] : await queuesBelow(manager, options.path);
    if (queues.length > 0) {
      say(`${options.path} holds lock queues below it (${queues.join(', ')}): a lock node here is one no client of `
        + `theirs sees; lock one of them, or add --here to lock ${options.path} itself`);
      return EXIT.usage;
    }
    const handle = await manager.acquire(options.path, {
      mode: options.mode, timeoutMs: options.timeoutMs, convention: options.convention ?? 'auto', positionRefreshMs: 1000,
    });
    let last = '';
    let conventionSaid = false;
    const ended = new Promise<LockSnapshot>((resolve) => {
      handle.on('change', (s) => {
        if (!conventionSaid && (s.node || s.state === 'failed')) {
          conventionSaid = true;
          out.text(`convention ${s.convention} ${options.convention ? 'chosen' : s.detection?.status ?? 'unknown'}`);
          if (!options.convention && s.detection?.status === 'empty') say(emptyPathNote(options.path));
        }
        const line = describe(s);
        if (line !== last && s.state !== 'acquiring') out.text(line);
        last = line;
        if (handle.isFinal) resolve(s);
      });
    });
    onStop = () => { void handle.release(); };
    if (stopRequested) onStop();
    handle.whenHeld().then(() => {
      if (options.holdMs !== undefined) cancelHold = afterDelay(options.holdMs, stop);
    }, (error: unknown) => {
      if (!(error instanceof LockError)) out.text(`failed error=${(error as Error).message}`);
    });
    const final = await ended;
    if (final.state === 'failed' && final.detection && final.error === 'conventionUnknown') {
      out.text(`hint: choose --convention ${CONVENTION_IDS.join('|')}`);
    }
    if (final.state === 'failed' && final.error === 'noAuth') out.text(`hint: ${CREDENTIALS_HINT}`);
    return exitCodeOf(final);
  } finally {
    cancelHold();
    clearTimeout(graceTimer);
    for (const signal of signals) process.off(signal, stop);
    manager.close();
  }
}
