// Live lock clients for the ZooScope demo: several ZooKeeper sessions queue on a Curator-style and a
// kazoo-style lock (one holder, the rest waiting on their predecessor), and a "demo-service" session owns
// a plain ephemeral node. Holders release now and then and queue again, so the queues visibly move.
// The queues are ZooScope's own lock recipe (src/zk/locks) forced to Curator's and kazoo's naming conventions,
// one LockManager (one session) per participant, so they are real Curator and kazoo queues to those libraries.
//
//   node out/scripts/demo/lockClients.js <connectString> [--root /zooscope-demo] [--hold-min-ms 20000] [--hold-max-ms 40000]
//
// Runs until SIGINT/SIGTERM/SIGHUP, then closes its sessions (their ephemeral nodes go with them).
import { parseArgs } from 'node:util';
import { ConventionId, LockHandle, LockManager } from '../../src/zk/locks';
import { baseName } from '../../src/zk/paths';
import { SessionOptions } from '../../src/zk/session/session';
import { DemoActor, message } from './demoActor';
import { DemoService } from './demoService';
import { DEMO_ROOT } from './seed';
import { onStopSignal } from '../../test/support/stopSignal';

export type DemoLockName = 'curator' | 'kazoo';

/** The convention each demo lock follows: Curator's InterProcessMutex, kazoo's Lock. */
const CONVENTIONS: Record<DemoLockName, ConventionId> = { curator: 'curator-mutex', kazoo: 'kazoo' };

export interface LockClientsOptions {
  root?: string;
  /** Sessions queued behind the Curator-style holder (3). */
  curatorWaiters?: number;
  /** Sessions queued behind the kazoo-style holder (2). */
  kazooWaiters?: number;
  /** How long a holder keeps the lock before releasing it (uniform in [min, max]; 20–40 s). */
  holdMs?: { min: number; max: number };
  /** Pause between a release and queueing again (3 s), so the shorter queue can be seen. */
  rejoinDelayMs?: number;
  sessionTimeoutMs?: number;
  /** Data of the Curator nodes: Curator writes the client's IP address (127.0.0.1). */
  clientAddress?: string;
  log?: (line: string) => void;
}

type LockTiming = { holdMs: { min: number; max: number }; rejoinDelayMs: number };

export type ParticipantState = 'starting' | 'waiting' | 'holding' | 'resting' | 'idle' | 'stopped';

export interface ParticipantInfo {
  id: string;
  lock: DemoLockName;
  state: ParticipantState;
  /** Our node's name in the queue, while queued or holding. */
  node: string | undefined;
  /** `0x` + hex, as src/zk/stat.ts's sessionIdHex writes it. */
  sessionId: string | undefined;
}

export interface DemoLockClients {
  readonly lockPaths: Record<DemoLockName, string>;
  readonly servicePath: string;
  /** The service's session id (`0x…`), once connected. */
  readonly serviceSessionId: string | undefined;
  describe(): ParticipantInfo[];
  /**
   * Makes the current holder of `lock` release now. With `rejoin: false` it stays out of the queue
   * (its session stays open). Resolves with the released node's name, or undefined if nobody held it.
   */
  releaseHolder(lock: DemoLockName, options?: { rejoin?: boolean }): Promise<string | undefined>;
  /** Closes every session; their ephemeral nodes disappear. */
  stop(): Promise<void>;
}

/** A session that queues on one lock, holds it for a while, releases, and queues again. */
class LockParticipant extends DemoActor {
  state: ParticipantState = 'starting';
  private readonly manager: LockManager;
  private handle: LockHandle | undefined;
  private rejoin = true;
  private releaseRequested = false;
  private released: ((node: string | undefined) => void) | undefined;

  constructor(id: string, readonly lock: DemoLockName, private readonly lockPath: string, private readonly data: Buffer,
    private readonly timing: LockTiming, sessionOptions: SessionOptions, log: (line: string) => void) {
    super(id, log);
    // One manager, one session: each participant is a client of its own, as a separate process would be.
    this.manager = new LockManager(sessionOptions);
  }

  get sessionId(): string | undefined {
    return this.manager.sessionId;
  }

  info(): ParticipantInfo {
    const node = this.handle && !this.handle.isFinal ? this.handle.snapshot.node : undefined;
    return { id: this.id, lock: this.lock, state: this.state, node: node && baseName(node), sessionId: this.sessionId };
  }

  releaseNow(rejoin: boolean): Promise<string | undefined> {
    if (this.state !== 'holding') return Promise.resolve(undefined);
    this.rejoin = rejoin;
    this.releaseRequested = true;
    return new Promise((resolve) => {
      this.released = resolve;
      this.interrupt();
    });
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.state = 'stopped';
  }

  protected override closeSessions(): void {
    this.manager.close();
  }

  protected override async step(): Promise<void> {
    if (!this.rejoin) {
      this.state = 'idle';
      await this.nap(Infinity);
      return;
    }
    this.state = 'waiting';
    const handle = await this.manager.acquire(this.lockPath, { mode: 'exclusive', convention: CONVENTIONS[this.lock], data: this.data });
    this.handle = handle;
    const node = baseName(await queued(handle));
    this.log(`${this.id}: queued as ${node}`);
    this.markReady();
    await handle.whenHeld(); // rejects when the attempt ends otherwise (lost, cancelled by stop())
    if (this.stopped) return;
    this.state = 'holding';
    const { min, max } = this.timing.holdMs;
    const holdMs = min + Math.random() * Math.max(0, max - min);
    this.log(`${this.id}: holds ${this.lockPath} (${node}) for ${Math.round(holdMs / 1000)} s`);
    // The handle reports a loss (session expired, node deleted) at once: stop holding then.
    const onLost = () => this.interrupt();
    handle.once('lost', onLost);
    if (!this.releaseRequested && !handle.isFinal) await this.nap(holdMs);
    handle.off('lost', onLost);
    if (this.stopped) return;
    const lostReason = handle.snapshot.lostReason;
    if (lostReason) throw new Error(`lost ${this.lockPath} (${node}): ${lostReason}`);
    this.releaseRequested = false;
    await handle.release();
    this.handle = undefined;
    this.state = 'resting';
    this.log(`${this.id}: released ${node}`);
    this.settleRelease(node);
    if (this.rejoin) await this.nap(this.timing.rejoinDelayMs);
  }

  protected override recover(): void {
    this.releaseRequested = false;
    this.state = 'resting';
    // Our node may still be queued (e.g. a call timed out): leave the queue before joining again.
    void this.handle?.release().catch(() => undefined);
    this.handle = undefined;
    this.settleRelease(undefined);
  }

  private settleRelease(node: string | undefined): void {
    const released = this.released;
    this.released = undefined;
    released?.(node);
  }
}

/** Our node's full path once the attempt has a place in the queue; rejects if it ends before that. */
function queued(handle: LockHandle): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const snapshot = handle.snapshot;
      if (snapshot.node && (snapshot.state === 'waiting' || snapshot.state === 'held')) {
        handle.off('change', check);
        resolve(snapshot.node);
      } else if (handle.isFinal) {
        handle.off('change', check);
        handle.whenHeld().then(() => reject(new Error(`lock ${handle.path}: ${snapshot.state}`)), reject);
      }
    };
    handle.on('change', check);
    check();
  });
}

/** Starts the demo's lock queues and service session; resolves once every participant is queued. */
export async function startDemoLockClients(connectString: string, options: LockClientsOptions = {}): Promise<DemoLockClients> {
  const root = (options.root ?? DEMO_ROOT).replace(/\/+$/, '');
  const log = options.log ?? (() => undefined);
  const sessionOptions: SessionOptions = { connectString, sessionTimeoutMs: options.sessionTimeoutMs ?? 15000 };
  const timing: LockTiming = {
    holdMs: options.holdMs ?? { min: 20000, max: 40000 },
    rejoinDelayMs: options.rejoinDelayMs ?? 3000,
  };
  const lockPaths: Record<DemoLockName, string> = {
    curator: `${root}/locks/curator-mutex`,
    kazoo: `${root}/locks/kazoo-lock`,
  };
  const servicePath = `${root}/services/api/instance-1`;
  const clientAddress = Buffer.from(options.clientAddress ?? '127.0.0.1');

  const participants: LockParticipant[] = [];
  for (let i = 0; i <= (options.curatorWaiters ?? 3); i++) {
    participants.push(new LockParticipant(`curator-${i + 1}`, 'curator', lockPaths.curator, clientAddress, timing, sessionOptions, log));
  }
  for (let i = 0; i <= (options.kazooWaiters ?? 2); i++) {
    participants.push(new LockParticipant(`kazoo-${i + 1}`, 'kazoo', lockPaths.kazoo, Buffer.from(`worker-${i + 1}`), timing, sessionOptions, log));
  }
  const service = new DemoService('demo-service', servicePath, () => Buffer.from(JSON.stringify({
    name: 'demo-service', host: '127.0.0.1', port: 8080, version: '1.4.2', pid: process.pid, startedAt: new Date().toISOString(),
  }, null, 2)), sessionOptions, log);

  const stopAll = () => Promise.all([service, ...participants].map((s) => s.stop())).then(() => undefined);
  try {
    // One at a time, so the first participant of each lock is its first holder.
    for (const participant of participants) await participant.start();
    await service.start();
  } catch (error) {
    await stopAll();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    lockPaths,
    servicePath,
    get serviceSessionId() { return service.sessionId; },
    describe: () => participants.map((p) => p.info()),
    releaseHolder: (lock, releaseOptions) => {
      const holder = participants.find((p) => p.lock === lock && p.state === 'holding');
      return holder ? holder.releaseNow(releaseOptions?.rejoin ?? true) : Promise.resolve(undefined);
    },
    stop: () => (stopping ??= stopAll()),
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      root: { type: 'string' },
      'hold-min-ms': { type: 'string' },
      'hold-max-ms': { type: 'string' },
    },
  });
  const connectString = positionals[0];
  if (!connectString) {
    console.error('usage: node out/scripts/demo/lockClients.js <connectString> [--root /zooscope-demo] [--hold-min-ms 20000] [--hold-max-ms 40000]');
    process.exit(2);
  }
  const min = Number(values['hold-min-ms'] ?? 20000);
  const max = Number(values['hold-max-ms'] ?? Math.max(min, 40000));
  const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
  // Handlers go in before anything is said or started: a signal that came before them would end the process
  // at once (exit by signal, sessions left to time out), and whoever reads "starting" may signal right away.
  // A start under way finishes first, then the sessions close.
  const stop = onStopSignal((signal) => log(`${signal}: closing sessions`));
  log(`starting lock clients on ${connectString}`);
  const handle = await startDemoLockClients(connectString, { root: values.root, holdMs: { min, max }, log });
  void stop.requested.then(() => handle.stop()).then(() => process.exit(0), () => process.exit(1));
  if (!stop.received) log(`lock clients ready: ${handle.lockPaths.curator}, ${handle.lockPaths.kazoo}, ${handle.servicePath}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`lock clients failed: ${message(error)}`);
    process.exit(1);
  });
}
