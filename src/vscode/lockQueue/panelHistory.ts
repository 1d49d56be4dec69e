// The lock history of one panel: a LockRecorder fed by the panel's monitor while it runs (followMonitor), or a
// recording opened from a file (a replay). Sends the webview the timeline (src/zk/history/timeline.ts) and the
// contention figures over the window it asks for, at most every `minIntervalMs` and less often when the history is
// big (a send never takes more than about a twentieth of the time).
import * as vscode from 'vscode';
import { toJsonText, type AnomalyMark, type HistoryWindow, type HostMessage } from '../../shared/lockQueueMessages';
import { anomalyKey, type LockAnalysis } from '../../shared/lockAnalysis';
import type { LockMonitor } from '../../zk/analysis';
import { followMonitor, LockHistory, lockFigures, LockRecorder, timelineData, TimelineData } from '../../zk/history';
import type { ZkSession } from '../../zk/session/session';
import { participantBounds } from '../../zk/history/figureBounds';

export interface PanelHistoryOptions {
  /** A loaded recording (replay); a new one records. */
  history?: LockHistory;
  live: boolean;
  /** The end of open intervals: the clock while live, the recording's last record in a replay. */
  now?: () => number;
  minIntervalMs?: number;
}

const MAX_ANOMALY_MARKS = 10_000;

export class PanelHistory implements vscode.Disposable {
  readonly recorder: LockRecorder;
  private figuresWindow: HistoryWindow | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;
  private costMs = 0;
  private lastSent: TimelineData | undefined;
  private disposed = false;
  /** Anomalies as they appeared, at most MAX_ANOMALY_MARKS (the oldest go first), and those present now. */
  private readonly anomalyMarks: AnomalyMark[] = [];
  private presentAnomalies = new Set<string>();
  private readonly sent = new vscode.EventEmitter<TimelineData>();
  /** Every timeline sent (or built for a webview not ready yet): what the webview draws. */
  readonly onDidSend = this.sent.event;

  constructor(private readonly post: (message: HostMessage) => void, private readonly options: PanelHistoryOptions) {
    this.recorder = new LockRecorder(options.history);
    this.recorder.onEvent(() => this.schedule());
  }

  get history(): LockHistory {
    return this.recorder.history;
  }

  get live(): boolean {
    return this.options.live;
  }

  /** The timeline last sent. */
  get timeline(): TimelineData | undefined {
    return this.lastSent;
  }

  /** Where open intervals end now. */
  now(): number {
    return (this.options.now ?? Date.now)();
  }

  /**
   * Records what `monitor` sees until the returned function is called; the time before (the panel hidden, the
   * monitor restarted) is a gap, ended by the first analysis of this monitor.
   */
  follow(session: ZkSession, monitor: LockMonitor): () => void {
    // The recorded window starts with the first monitor (a panel restored hidden records nothing until shown).
    this.history.startedAt ??= this.now();
    let gapOpen = this.history.gaps.some((g) => g.to === undefined && g.lock === undefined);
    // Subscribed before followMonitor's listener: the gap ends before that analysis is observed (as bounds).
    const endGap = monitor.onUpdate((analysis) => {
      if (!gapOpen) return;
      gapOpen = false;
      this.recorder.gapEnded(analysis.takenAt);
    });
    const unfollow = followMonitor(session, monitor, this.recorder);
    return () => {
      endGap();
      unfollow();
      // Until a monitor runs again nothing is seen.
      this.recorder.gapStarted(this.now());
    };
  }

  /** Marks each anomaly of `analysis` that was not there in the analysis before (`title` localizes it). */
  noteAnomalies(analysis: LockAnalysis, title: (key: string) => string): void {
    const present = new Set<string>();
    const all = [...analysis.anomalies.map((a) => ({ a, lock: undefined as string | undefined })), ...analysis.queues.flatMap((q) => q.anomalies.map((a) => ({ a, lock: q.path })))];
    let added = false;
    for (const { a, lock } of all) {
      const key = anomalyKey(a);
      present.add(key);
      if (this.presentAnomalies.has(key)) continue;
      this.anomalyMarks.push({ at: analysis.takenAt, ...(lock ? { lock } : {}), severity: a.severity, title: title(key) });
      added = true;
    }
    if (this.anomalyMarks.length > MAX_ANOMALY_MARKS) this.anomalyMarks.splice(0, this.anomalyMarks.length - MAX_ANOMALY_MARKS);
    this.presentAnomalies = present;
    if (added) this.schedule();
  }

  /** Anomalies marked so far. */
  get anomalies(): readonly AnomalyMark[] {
    return this.anomalyMarks;
  }

  /** The figures the webview wants: over `window`, or the whole history. */
  setFiguresWindow(window: HistoryWindow | undefined): void {
    this.figuresWindow = window;
    this.postFigures();
  }

  /** Sends the timeline and figures now (a new webview holds nothing). */
  sendNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const started = Date.now();
    const data = timelineData(this.history);
    this.lastSent = data;
    this.post({ type: 'timeline', seq: ++this.seq, timelineJson: toJsonText(data), live: this.live, now: this.now(), anomalies: this.anomalyMarks });
    this.postFigures();
    this.costMs = Date.now() - started;
    this.sent.fire(data);
  }

  private postFigures(): void {
    const figures = lockFigures(this.history, this.figuresWindow, this.now());
    const bounds = participantBounds(this.history, this.figuresWindow, this.now());
    this.post({ type: 'figures', figuresJson: toJsonText(figures), ...(this.figuresWindow ? { window: this.figuresWindow } : {}), participantBounds: bounds });
  }

  private schedule(): void {
    if (this.timer || this.disposed) return;
    const delay = Math.max(this.options.minIntervalMs ?? 500, this.costMs * 20);
    this.timer = setTimeout(() => this.sendNow(), delay);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sent.dispose();
  }
}
