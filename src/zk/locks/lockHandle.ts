// One lock attempt's life as events: the state machine every recipe shares (waiting → held → released, and the
// ways out: cancelled, timedOut, lost, failed), how the lock session's state reaches it (suspended = unsure,
// expired/lost = gone), and the waits a recipe needs (until woken, until connected again).
import { EventEmitter } from 'node:events';
import { isZkError, ZkError } from '../errors';
import type { SessionState, ZkSession } from '../session/session';
import { afterDelay } from '../timeouts';
import type { WatchNotification } from '../protocol/rawChannel';
import type { ConventionId } from './conventions';
import { FINAL_STATES, LockError, LockMode, LockSnapshot, LockState, LostReason } from './types';

/** Thrown inside a recipe to end the attempt the way `state` says. */
export class AttemptEnded extends Error {
  constructor(readonly state: 'cancelled' | 'timedOut' | 'lost' | 'released') { super(state); }
}

export interface LockHandleEvents {
  /** Any change of the snapshot (state, position, node waited for). */
  change: [LockSnapshot];
  /** The lock became ours (held or leader). */
  acquired: [LockSnapshot];
  /** The lock is gone for sure; `lostReason` says why. Stop acting as its holder at once. */
  lost: [LockSnapshot];
  /** The same holder asked for this lock again; it was not queued twice. */
  repeated: [LockSnapshot];
}

export abstract class LockHandle extends EventEmitter<LockHandleEvents> {
  protected snap: LockSnapshot;
  /** Why the attempt must end, once decided (checked after every await). */
  protected endReason: AttemptEnded['state'] | undefined;
  /** Whether the lock was ever ours: cancel and timeout no longer apply. */
  protected heldOnce = false;
  private wakePromise: Promise<void> | undefined;
  private wakeResolve: (() => void) | undefined;
  private readonly detach: (() => void)[] = [];
  /** Cancels the acquire timeout (any length: a plain setTimeout above 24.8 days would fire at once). */
  private cancelTimeout: () => void = () => undefined;
  private readonly settledPromise: Promise<LockSnapshot>;
  private settle!: { resolve: (s: LockSnapshot) => void; reject: (e: LockError) => void };

  constructor(protected readonly session: ZkSession, path: string, mode: LockMode, conventionId: ConventionId, timeoutMs?: number, signal?: AbortSignal) {
    super();
    const now = Date.now();
    this.snap = { path, mode, convention: conventionId, state: 'acquiring', since: now, startedAt: now, sessionId: session.sessionId, repeatedRequests: 0 };
    this.settledPromise = new Promise((resolve, reject) => { this.settle = { resolve, reject }; });
    this.settledPromise.catch(() => undefined); // whenHeld() callers see it; an unobserved failure is no crash
    const onState = (s: SessionState) => this.onSessionState(s);
    session.on('state', onState);
    this.detach.push(() => session.off('state', onState));
    this.detach.push(session.onNotification((n) => this.onNotification(n)));
    if (timeoutMs !== undefined) this.cancelTimeout = afterDelay(timeoutMs, () => this.stop('timedOut'));
    if (signal) {
      const onAbort = () => this.stop('cancelled');
      if (signal.aborted) queueMicrotask(onAbort);
      else signal.addEventListener('abort', onAbort, { once: true });
      this.detach.push(() => signal.removeEventListener('abort', onAbort));
    }
  }

  /** A copy of the current facts. */
  get snapshot(): LockSnapshot {
    return { ...this.snap, position: this.snap.position && { ...this.snap.position } };
  }

  get state(): LockState { return this.snap.state; }
  get path(): string { return this.snap.path; }
  get isFinal(): boolean { return FINAL_STATES.has(this.snap.state); }

  /** Resolves once the lock is ours (held or leader); rejects with a LockError if the attempt ends otherwise. */
  whenHeld(): Promise<LockSnapshot> { return this.settledPromise; }

  private running: Promise<void> | undefined;
  private releasing: Promise<void> | undefined;

  /** Starts the recipe (called once by the LockManager; later calls do nothing). */
  start(): void {
    this.running ??= this.run();
  }

  /** Releases a held lock or cancels a pending attempt; resolves when our node is gone. */
  async release(): Promise<void> {
    if (this.isFinal) return;
    if (!this.heldOnce) {
      this.stop('cancelled');
      await this.running;
      return;
    }
    this.releasing ??= this.deleteOwnNode().then(() => this.setState('released'));
    await this.releasing;
  }

  /** The recipe's whole attempt: create, queue, hold; it ends the attempt itself on failure. */
  protected abstract run(): Promise<void>;

  /** Deletes the node that holds the lock (only if it is still ours). */
  protected abstract deleteOwnNode(): Promise<void>;

  /** The same holder asked again: say so, do not queue a second node. */
  noteRepeatedRequest(): void {
    this.snap.repeatedRequests++;
    this.emit('repeated', this.snapshot);
    this.emit('change', this.snapshot);
  }

  // ---- for recipes ----

  // The snapshot is changed in place and copied once per change for every listener: this runs twice per hand-off.
  protected setState(state: LockState, patch: Partial<LockSnapshot> = {}): void {
    if (this.isFinal) return;
    const changed = state !== this.snap.state;
    Object.assign(this.snap, patch);
    this.snap.state = state;
    if (changed) this.snap.since = Date.now();
    const snapshot = this.snapshot;
    if (state === 'held' || state === 'leader') {
      this.heldOnce = true;
      this.cancelTimeout();
      if (changed) this.emit('acquired', snapshot);
      this.settle.resolve(snapshot);
    }
    if (FINAL_STATES.has(state)) this.finish();
    if (state === 'lost') this.emit('lost', snapshot);
    this.emit('change', snapshot);
  }

  protected update(patch: Partial<LockSnapshot>): void {
    if (this.isFinal) return;
    const { position, waitingFor, node } = this.snap;
    Object.assign(this.snap, patch);
    const now = this.snap;
    if (now.waitingFor !== waitingFor || now.node !== node || now.position?.index !== position?.index || now.position?.of !== position?.of) {
      this.emit('change', this.snapshot);
    }
  }

  protected lose(reason: LostReason): void {
    if (this.isFinal) return;
    this.endReason = 'lost';
    this.setState('lost', { lostReason: reason, waitingFor: undefined });
    this.wake();
  }

  protected fail(error: unknown): void {
    const code = error instanceof ZkError ? error.code : error instanceof Error ? error.message : String(error);
    this.setState('failed', { error: code, waitingFor: undefined });
  }

  /** Ends a pending attempt (cancel, timeout); no effect once held. */
  protected stop(reason: 'cancelled' | 'timedOut'): void {
    if (this.isFinal || this.endReason || this.heldOnce) return;
    this.endReason = reason;
    this.wake();
  }

  protected checkEnded(): void {
    if (this.endReason) throw new AttemptEnded(this.endReason);
  }

  /** A promise the next wake() resolves; take it BEFORE arming a watch, so no notification is missed. */
  protected nextWake(): Promise<void> {
    this.wakePromise ??= new Promise((resolve) => { this.wakeResolve = resolve; });
    return this.wakePromise;
  }

  protected wake(): void {
    const resolve = this.wakeResolve;
    this.wakePromise = undefined;
    this.wakeResolve = undefined;
    resolve?.();
  }

  /**
   * Resolves when the session is connected (at once if it is); the attempt's end throws, unless `cleanup` (deleting
   * our node goes on after the attempt ended). The session's end throws sessionExpired.
   */
  protected async untilConnected(cleanup = false): Promise<void> {
    while (this.session.state !== 'connected') {
      if (!cleanup) this.checkEnded();
      if (!this.session.isLive && this.session.state !== 'connecting') throw ZkError.fromCode(-112, 'reconnect', this.snap.path);
      await this.nextWake();
    }
    if (!cleanup) this.checkEnded();
  }

  /** Runs a request again after a connection loss (its answer was lost; the caller makes it safe to repeat). */
  protected async retrying<T>(step: () => Promise<T>, cleanup = false): Promise<T> {
    for (;;) {
      if (!cleanup) this.checkEnded();
      try {
        return await step();
      } catch (error) {
        if (!isZkError(error, 'connectionLoss', 'clientTimeout') || !this.session.isLive) throw error;
        await this.untilConnected(cleanup);
      }
    }
  }

  protected onSessionState(state: SessionState): void {
    if (this.isFinal) return;
    if (state === 'expired') return this.lose('sessionExpired');
    if (state === 'lost') return this.lose('sessionLost');
    if (state === 'closed') {
      // The manager closed the session: ephemeral nodes are gone with it.
      this.endReason = 'released';
      this.setState(this.heldOnce ? 'released' : 'cancelled');
      this.wake();
      return;
    }
    if (state === 'suspended' && this.snap.state !== 'suspended') {
      const from = this.snap.state as LockSnapshot['suspendedFrom'];
      this.setState('suspended', { suspendedFrom: from });
    }
    if (state === 'connected') this.onReconnected();
    this.wake();
  }

  /** After a reconnect: the recipe checks that its node is still its own. */
  protected abstract onReconnected(): void;

  protected abstract onNotification(n: WatchNotification): void;

  /** Ends the attempt's ties to the session and settles whenHeld(). */
  private finish(): void {
    this.cancelTimeout();
    for (const undo of this.detach.splice(0)) undo();
    // Once whenHeld() resolved a rejection has no effect: skip building the error (on the hand-off path).
    if (!this.heldOnce) this.settle.reject(new LockError(this.snapshot));
  }
}
