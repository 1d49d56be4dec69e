// The locks of one connection, held on a ZooKeeper session of their own: browsing reconnects, expiries and
// closes never cost a lock, and closing the manager closes that session (its ephemeral nodes vanish at once),
// which releases everything. After the lock session expires or is lost, the next acquire opens a new one.
import { EventEmitter } from 'node:events';
import * as os from 'node:os';
import { isZkError, ZkError } from '../errors';
import { checkPath } from '../paths';
import { SessionOptions, SessionState, ZkSession } from '../session/session';
import { ConventionDetection, detectConvention } from './conventionDetection';
import { LockPathSurvey, surveyLockPath } from './lockPathSurvey';
import type { ConventionId } from './conventions';
import { LockHandle } from './lockHandle';
import { QueueLock } from './queueLock';
import type { AcquireOptions, LockSnapshot } from './types';
import { UnfairElection } from './unfairElection';

export interface LockManagerEvents {
  /** Any change of any lock of this manager. */
  change: [LockSnapshot];
  /** A lock was asked for again by this holder while live: reported, not queued twice. */
  repeated: [LockSnapshot];
  /** The lock session's state (connected, suspended, lost, expired, closed). */
  session: [SessionState];
}

export class LockManager extends EventEmitter<LockManagerEvents> {
  private session: ZkSession | undefined;
  private opening: Promise<ZkSession> | undefined;
  private readonly live = new Map<string, LockHandle>();
  /** The convention each lock path was last joined with, so that the next attempt creates its node first. */
  private readonly knownConventions = new Map<string, ConventionId>();
  private closed = false;

  constructor(private readonly sessionOptions: SessionOptions) {
    super();
  }

  /** The lock session's id (0x-hex) while there is one. */
  get sessionId(): string | undefined { return this.session?.sessionId; }
  get sessionState(): SessionState | 'none' { return this.session?.state ?? 'none'; }

  /** The dedicated lock session, for diagnostics (its server, watches, notifications); do not close it directly. */
  get lockSession(): ZkSession | undefined { return this.session; }

  /** Live attempts (acquiring, waiting, held, suspended). */
  get locks(): LockHandle[] { return [...this.live.values()]; }

  /** Opens the lock session now (acquire() does it when needed). */
  async open(signal?: AbortSignal): Promise<void> {
    await this.ensureSession(signal);
  }

  /**
   * Starts taking the lock at `path` and returns its handle at once (subscribe to its events, or await
   * `handle.whenHeld()`). If this manager already has a live attempt on `path`, that handle comes back and a
   * `repeated` event says so: the same holder is never queued twice.
   */
  async acquire(path: string, options: AcquireOptions = {}): Promise<LockHandle> {
    const problem = checkPath(path);
    if (problem || path === '/') throw new ZkError('badArguments', 'lock', path);
    const existing = this.live.get(path);
    if (existing && !existing.isFinal) {
      existing.noteRepeatedRequest();
      return existing;
    }
    // The session is shared by every lock of this manager: a cancelled attempt does not cancel its opening (which
    // has its own deadline); the attempt itself ends as `cancelled` right after.
    const session = await this.ensureSession();
    const data = options.data ?? Buffer.from(`zooscope@${os.hostname()} pid ${process.pid}`);
    const mode = options.mode ?? 'exclusive';
    const handle: LockHandle = mode === 'unfairElection'
      ? new UnfairElection(session, path, { data, timeoutMs: options.timeoutMs, signal: options.signal })
      : new QueueLock(session, path, {
        mode, data, convention: options.convention ?? 'auto', timeoutMs: options.timeoutMs, signal: options.signal,
        positionRefreshMs: options.positionRefreshMs ?? 0, knownConventions: this.knownConventions,
      });
    this.live.set(path, handle);
    handle.on('change', (snapshot) => {
      if (handle.isFinal && this.live.get(path) === handle) this.live.delete(path);
      this.emit('change', snapshot);
    });
    handle.on('repeated', (snapshot) => this.emit('repeated', snapshot));
    handle.start();
    return handle;
  }

  /** What the queue at `path` holds, to tell the user before joining (see AcquireOptions.convention). */
  async detectConvention(path: string): Promise<ConventionDetection> {
    const session = await this.ensureSession();
    try {
      return detectConvention((await session.getChildren(path)).children);
    } catch (error) {
      if (isZkError(error, 'noNode')) return { status: 'empty', others: 0 };
      throw error;
    }
  }

  /** What `path` holds beyond its lock nodes (folders, queues below), to ask the user before creating anything. */
  async surveyPath(path: string): Promise<LockPathSurvey> {
    return surveyLockPath(await this.ensureSession(), path);
  }

  /** Releases everything by closing the lock session (the server deletes its ephemeral nodes at once). */
  close(): void {
    this.closed = true;
    this.session?.close();
    this.session = undefined;
  }

  private async ensureSession(signal?: AbortSignal): Promise<ZkSession> {
    if (this.closed) throw new ZkError('closed', 'lock');
    if (this.session?.isLive) return this.session;
    this.opening ??= this.openSession(signal).finally(() => { this.opening = undefined; });
    return this.opening;
  }

  private async openSession(signal?: AbortSignal): Promise<ZkSession> {
    const session = new ZkSession(this.sessionOptions);
    session.on('state', (state: SessionState) => {
      this.emit('session', state);
      // Expired or out of contact for a whole session timeout: the locks are lost (each handle says so); the
      // next acquire starts a new session.
      if ((state === 'expired' || state === 'lost') && this.session === session) {
        this.session = undefined;
        setImmediate(() => session.close());
      }
    });
    await session.open(signal);
    if (this.closed) {
      session.close();
      throw new ZkError('closed', 'lock');
    }
    this.session = session;
    return session;
  }
}
