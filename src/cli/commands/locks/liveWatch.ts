// The live part of `zooscope locks --watch`: a lock monitor on the session feeds the recorder (followMonitor); an
// expired session is replaced by a new one (a gap in the history) when the command can open one, and any other end
// of the session stops the watch. `--for` counts from the first complete look at the queues, so a slow connect does
// not eat the window. "watching" is printed once what happens from then on is recorded exactly.
import { LockMonitor } from '../../../zk/analysis';
import type { AnalyzeOptions } from '../../../zk/analysis';
import type { LockAnalysis } from '../../../shared/lockAnalysis';
import { visibleText } from '../../../shared/visibleText';
import { followMonitor, LockRecorder } from '../../../zk/history';
import type { ZkSession } from '../../../zk/session/session';
import type { CommandContext } from '../../command';

/** Between attempts to open a new session after one expired. */
const RENEW_RETRY_MS = 1000;

/** What the live part needs of the command's arguments. */
export interface LiveWatchArgs {
  path: string;
  json: boolean;
  forMs?: number;
  options: AnalyzeOptions;
}

export class LiveWatch {
  /** When the watch began: its first complete look (or when it was made, if none came). */
  startedAt = Date.now();
  /** How the last session ended, when that ended the watch. */
  sessionEnded: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private firstLook = true;
  private following: { leave: () => void } | undefined;
  private readonly renewed: ZkSession[] = [];
  private announced = false;
  private lastLook: LockAnalysis | undefined;

  /**
   * `stop` ends the watch; `stopping` tells whether it was. `newSession`: a fresh session like the first (not yet
   * open); without it, expiry ends the watch.
   */
  constructor(
    private readonly recorder: LockRecorder,
    private readonly args: LiveWatchArgs,
    private readonly context: Pick<CommandContext, 'out' | 'say'>,
    private readonly stop: () => void,
    private readonly stopping: () => boolean,
    private readonly newSession?: () => ZkSession,
  ) {}

  /** Follows the queues through `session` (until it ends, or is replaced). */
  follow(session: ZkSession): void {
    const monitor = new LockMonitor(session, this.args.path, this.args.options);
    const stopFirst = monitor.onUpdate((analysis) => {
      stopFirst();
      this.firstLookOf(analysis);
    });
    const stopLooks = monitor.onUpdate((analysis) => {
      this.lastLook = analysis;
      // Without persistent watches the reads are all there is: recorded exactly from the first look.
      if (session.watches.persistent === false) this.announce();
    });
    const unfollow = followMonitor(session, monitor, this.recorder, Date.now, () => this.announce());
    const onState = (state: string) => this.sessionState(state);
    session.on('state', onState);
    this.following = {
      leave: () => {
        session.off('state', onState);
        stopLooks();
        unfollow();
        monitor.dispose();
      },
    };
    monitor.start();
  }

  /** Stops following, and closes the sessions this watch opened. */
  close(): void {
    clearTimeout(this.timer);
    this.following?.leave();
    for (const s of this.renewed) s.close();
  }

  private firstLookOf(analysis: LockAnalysis): void {
    // With a renewed session, its first look ends the gap the expiry began (a no-op for the first session).
    this.recorder.gapEnded(analysis.takenAt);
    if (!this.firstLook) return;
    this.firstLook = false;
    this.startedAt = analysis.takenAt;
    if (this.args.forMs !== undefined) this.timer = setTimeout(this.stop, this.args.forMs);
  }

  private sessionState(state: string): void {
    if (state === 'expired' && this.newSession) {
      void this.renew(this.newSession);
      return;
    }
    // A session that ended cannot see again: stop with the gap on record.
    if (state !== 'expired' && state !== 'closed' && state !== 'authFailed') return;
    this.sessionEnded ??= state;
    this.stop();
  }

  /** A new session in place of the expired one, tried again until one opens or the watch stops. */
  private async renew(newSession: () => ZkSession): Promise<void> {
    this.following?.leave();
    this.following = undefined;
    this.context.say('the session expired; going on with a new session (the history has a gap)');
    while (!this.stopping()) {
      const next = newSession();
      this.renewed.push(next);
      try {
        await next.open();
      } catch {
        next.close();
        // The servers may still be out of reach: try again shortly, until stopped.
        await new Promise((resolve) => setTimeout(resolve, RENEW_RETRY_MS));
        continue;
      }
      if (!this.stopping()) this.follow(next);
      return;
    }
  }

  /**
   * "watching" says that what happens from now on is recorded exactly: once the recorder is synced with the
   * server's events (a change before that may have come before its watch, and is only bounded), or at the first
   * look on a server without persistent watches (the reads are all there is).
   */
  private announce(): void {
    if (this.announced || !this.lastLook) return;
    this.announced = true;
    const participants = this.lastLook.queues.reduce((n, q) => n + q.participants.length, 0);
    if (!this.args.json) this.context.out.text(`watching ${visibleText(this.args.path)}: ${this.lastLook.queues.length} queue(s), ${participants} participant(s); Ctrl-C ends`);
  }
}
