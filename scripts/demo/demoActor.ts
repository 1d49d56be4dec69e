// The life of one demo actor (a lock participant, the service instance): it repeats a step until stopped, naps
// until woken, and says once whether it got started; a step that fails later is logged and tried again.
import { setTimeout as sleep } from 'node:timers/promises';

export const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Subclasses give the step, call markReady() once it got far enough, and close their sessions on stop. */
export abstract class DemoActor {
  protected stopped = false;
  private napWake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readyResolve!: () => void;
  private readyReject!: (error: unknown) => void;
  private isReady = false;
  /** Resolves once the actor has done its first useful step (see markReady). */
  readonly ready: Promise<void>;

  constructor(readonly id: string, protected readonly log: (line: string) => void) {
    this.ready = new Promise((resolve, reject) => { this.readyResolve = resolve; this.readyReject = reject; });
    this.ready.catch(() => undefined);
  }

  start(): Promise<void> {
    this.loop = this.run();
    return this.ready;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.interrupt();
    this.closeSessions(); // pending calls fail, so the loop ends
    if (this.loop) await Promise.race([this.loop, sleep(2000)]);
  }

  protected abstract step(): Promise<void>;

  protected abstract closeSessions(): void;

  protected markReady(): void {
    this.isReady = true;
    this.readyResolve();
  }

  /** Sleeps until `ms` passed (Infinity: forever), interrupt() or stop(). */
  protected nap(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(() => this.interrupt(), ms) : undefined;
      this.napWake = () => { if (timer) clearTimeout(timer); resolve(); };
    });
  }

  protected interrupt(): void {
    const wake = this.napWake;
    this.napWake = undefined;
    wake?.();
  }

  /** Cleans up after a failed step, before the next one. */
  protected recover(): void { /* nothing by default */ }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.step();
      } catch (error) {
        if (this.stopped) break;
        if (!this.isReady) { this.readyReject(error); this.stopped = true; this.closeSessions(); break; }
        this.log(`${this.id}: ${message(error)}; retrying`);
        this.recover();
        await sleep(1000);
      }
    }
  }
}
