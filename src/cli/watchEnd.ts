// The end of a command that runs until stopped (`locks --watch`, `watches --watch`): a signal (Ctrl-C, kill, the
// terminal closed), a reader gone from stdout, or the command itself.
import type { Output } from './output';

/** The watch's end: asked by a signal, a reader gone from stdout, `--for`, a failure or the session's end. */
export class WatchEnd {
  /** Resolves at the end. */
  readonly reached: Promise<void>;
  private ended = false;
  private resolve: () => void = () => undefined;
  private readonly signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

  constructor(out: Output) {
    this.reached = new Promise<void>((resolve) => { this.resolve = resolve; });
    for (const signal of this.signals) process.once(signal, this.now);
    out.onClosed(this.now);
  }

  readonly now = (): void => {
    this.ended = true;
    this.resolve();
  };

  get asked(): boolean {
    return this.ended;
  }

  /** Signals are the process's again. */
  dispose(): void {
    for (const signal of this.signals) process.off(signal, this.now);
  }
}
