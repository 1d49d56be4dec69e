// What every lock-history integration test sets up: a session of ours, a LockMonitor over a root and a LockRecorder
// following the session's events, as the panel runs them; and the questions the tests ask of the recording.
import { LockMonitor } from '../../../src/zk/analysis/index';
import { followMonitor, HistoryInterval, LockRecorder } from '../../../src/zk/history/index';
import { ZkSession } from '../../../src/zk/session/session';
import { eventually } from '../waiting';

export type MonitorOptions = ConstructorParameters<typeof LockMonitor>[2];

export class RecordedLocks {
  readonly recorder = new LockRecorder();
  /** What the monitor reported failing, for a failure's message. */
  readonly monitorErrors: string[] = [];
  /** Whether the monitor has looked once. */
  looked = false;

  private constructor(readonly session: ZkSession, readonly monitor: LockMonitor) {}

  /** Opens a session on `connectString` and starts recording the locks under `root`. */
  static async start(connectString: string, root: string, options: MonitorOptions): Promise<RecordedLocks> {
    const session = new ZkSession({ connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 20000 });
    await session.open();
    const recorded = new RecordedLocks(session, new LockMonitor(session, root, options));
    recorded.monitor.onUpdate(() => { recorded.looked = true; });
    recorded.monitor.onError((error) => recorded.monitorErrors.push(error.message));
    followMonitor(session, recorded.monitor, recorded.recorder);
    recorded.monitor.start();
    return recorded;
  }

  /** Once the event watch is set and the full read after it is in: from then on every create and delete is followed. */
  following(timeoutMs = 30000): Promise<void> {
    return eventually(() => this.recorder.followingEvents.synced, timeoutMs, 'the recorder following the events');
  }

  intervalsOf(lock: string): HistoryInterval[] {
    return [...this.recorder.history.intervals()].filter((i) => i.lock === lock);
  }

  /** `lock`'s holds in the order they began. */
  holdsOf(lock: string): HistoryInterval[] {
    return this.intervalsOf(lock).filter((i) => i.kind === 'hold').sort((x, y) => x.start - y.start || x.id - y.id);
  }

  /** The hold of the node at `nodePath` (its lock's path and its name). */
  holdOf(nodePath: string): HistoryInterval | undefined {
    return [...this.recorder.history.closed, ...this.recorder.history.open.values()]
      .find((i) => i.kind === 'hold' && `${i.lock}/${i.node}` === nodePath);
  }

  /** `nodePath`'s hold once it has ended and the recorder has told how (no longer awaited). */
  async decidedHold(nodePath: string, what: string, timeoutMs = 60000): Promise<HistoryInterval> {
    await eventually(() => {
      const hold = this.holdOf(nodePath);
      return !!hold && hold.end !== undefined && !this.recorder.awaitsEnd(hold);
    }, timeoutMs, what);
    return this.holdOf(nodePath) as HistoryInterval;
  }

  /** What is open, the gaps and the monitor's errors: what the next look at a failure needs. */
  diagnosis(): string {
    const open = [...this.recorder.history.open.values()].map((i) => `${i.kind} ${i.lock}/${i.node}`).join(', ');
    return `open ${open}; gaps ${JSON.stringify(this.recorder.history.gaps)}; monitor errors ${JSON.stringify(this.monitorErrors)}`;
  }

  close(): void {
    this.monitor.dispose();
    this.session.close();
  }
}
