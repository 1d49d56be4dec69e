// Live lock clients for the ZooScope demo: several ZooKeeper sessions queue on a Curator-style and a
// kazoo-style lock (one holder, the rest waiting on their predecessor), and a "demo-service" session owns
// a plain ephemeral node. Holders release now and then and queue again, so the queues visibly move.
//
//   node out/scripts/demo/lockClients.js <connectString> [--root /zooscope-demo] [--hold-min-ms 20000] [--hold-max-ms 40000]
//
// Runs until SIGINT/SIGTERM, then closes its sessions (their ephemeral nodes go with them).
import { parseArgs } from 'node:util';
import { curatorMutex, kazooLock, LockContender, LockFlavor } from './lockRecipe';
import {
  close, connect, create, CreateMode, ensurePath, Exception, isZkError, sessionIdHex, ZkClient,
} from './zk';
import { DEMO_ROOT } from './seed';

export type DemoLockName = 'curator' | 'kazoo';

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
  /** How often a holder checks that its node is still there and still its own (5 s). */
  holderCheckMs?: number;
  sessionTimeoutMs?: number;
  /** Data of the Curator nodes: Curator writes the client's IP address (127.0.0.1). */
  clientAddress?: string;
  log?: (line: string) => void;
}

type LockTiming = { holdMs: { min: number; max: number }; rejoinDelayMs: number; checkMs: number };

export type ParticipantState = 'starting' | 'waiting' | 'holding' | 'resting' | 'idle' | 'stopped';

export interface ParticipantInfo {
  id: string;
  lock: DemoLockName;
  state: ParticipantState;
  /** Our node's name in the queue, while queued or holding. */
  node: string | undefined;
  /** `0x` + 16 hex digits. */
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One ZooKeeper session that reconnects after expiry and can nap until woken. */
abstract class DemoSession {
  protected client: ZkClient | undefined;
  protected stopped = false;
  private expired = false;
  /** Set by a subclass that no longer trusts its session: the loop replaces it before the next step. */
  protected renewSession = false;
  private napWake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readyResolve!: () => void;
  private readyReject!: (error: unknown) => void;
  private isReady = false;
  /** Resolves once the session has done its first useful step (see markReady). */
  readonly ready: Promise<void>;

  constructor(readonly id: string, protected readonly connectString: string,
    protected readonly sessionTimeoutMs: number, protected readonly log: (line: string) => void) {
    this.ready = new Promise((resolve, reject) => { this.readyResolve = resolve; this.readyReject = reject; });
    this.ready.catch(() => undefined);
  }

  get sessionId(): string | undefined {
    return this.client ? sessionIdHex(this.client.getSessionId()) : undefined;
  }

  start(): Promise<void> {
    this.loop = this.run();
    return this.ready;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.interrupt();
    const client = this.client;
    this.client = undefined;
    if (client) await close(client); // pending calls fail with connection loss, so the loop ends
    if (this.loop) await Promise.race([this.loop, sleep(2000)]);
  }

  protected abstract step(): Promise<void>;

  protected onInterrupt(): void { /* subclasses cancel their pending waits */ }

  protected markReady(): void {
    this.isReady = true;
    this.readyResolve();
  }

  /** Sleeps until `ms` passed (Infinity: forever), interrupt(), stop() or session expiry. */
  protected nap(ms: number): Promise<void> {
    if (this.stopped || this.expired || this.renewSession) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(() => this.interrupt(), ms) : undefined;
      this.napWake = () => { if (timer) clearTimeout(timer); resolve(); };
    });
  }

  protected interrupt(): void {
    const wake = this.napWake;
    this.napWake = undefined;
    wake?.();
    this.onInterrupt();
  }

  private async openSession(): Promise<void> {
    const client = await connect(this.connectString, { sessionTimeoutMs: this.sessionTimeoutMs });
    if (this.stopped) { await close(client); return; }
    this.expired = false;
    client.on('expired', () => {
      if (this.client !== client) return;
      this.expired = true;
      this.log(`${this.id}: session ${sessionIdHex(client.getSessionId())} expired; reconnecting`);
      this.interrupt();
    });
    this.client = client;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (!this.client || this.expired || this.renewSession) {
          if (this.client) { const old = this.client; this.client = undefined; old.close(); }
          this.renewSession = false;
          await this.openSession();
          continue;
        }
        await this.step();
      } catch (error) {
        if (this.stopped) break;
        if (!this.isReady) { this.readyReject(error); this.stopped = true; break; }
        this.log(`${this.id}: ${error instanceof Error ? error.message : String(error)}; retrying`);
        await this.recover();
        await sleep(1000);
      }
    }
  }

  protected async recover(): Promise<void> { /* subclasses clean up after a failed step */ }
}

/** A session that queues on one lock, holds it for a while, releases, and queues again. */
class LockParticipant extends DemoSession {
  state: ParticipantState = 'starting';
  private contender: LockContender | undefined;
  private rejoin = true;
  private releaseRequested = false;
  private released: ((node: string | undefined) => void) | undefined;

  constructor(id: string, readonly lock: DemoLockName, connectString: string, private readonly lockPath: string,
    private readonly flavor: LockFlavor, private readonly data: Buffer, private readonly timing: LockTiming,
    sessionTimeoutMs: number, log: (line: string) => void) {
    super(id, connectString, sessionTimeoutMs, log);
  }

  info(): ParticipantInfo {
    return { id: this.id, lock: this.lock, state: this.state, node: this.contender?.nodeName, sessionId: this.sessionId };
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

  protected override onInterrupt(): void {
    if (this.state === 'waiting') this.contender?.cancel();
  }

  protected override async step(): Promise<void> {
    const client = this.client as ZkClient;
    if (!this.rejoin) {
      this.state = 'idle';
      await this.nap(Infinity);
      return;
    }
    const contender = new LockContender(client, this.lockPath, this.flavor, this.data);
    this.contender = contender;
    this.state = 'waiting';
    const node = await contender.enqueue();
    this.log(`${this.id}: queued as ${node}`);
    this.markReady();
    await contender.acquire();
    if (this.stopped) return;
    this.state = 'holding';
    const { min, max } = this.timing.holdMs;
    const holdMs = min + Math.random() * Math.max(0, max - min);
    this.log(`${this.id}: holds ${this.lockPath} (${node}) for ${Math.round(holdMs / 1000)} s`);
    const until = Date.now() + holdMs;
    while (!this.stopped && !this.releaseRequested && Date.now() < until) {
      await this.nap(Math.min(this.timing.checkMs, until - Date.now()));
      if (this.stopped || this.releaseRequested || Date.now() >= until) break;
      // Session expiry means the lock is already lost, even if this client was not told yet.
      if (!(await contender.stillOwned())) {
        this.renewSession = true;
        throw new Error(`lost ${this.lockPath}: ${node} is gone or no longer ours; starting a new session`);
      }
    }
    if (this.stopped) return;
    this.releaseRequested = false;
    await contender.release();
    this.contender = undefined;
    this.state = 'resting';
    this.log(`${this.id}: released ${node}`);
    const released = this.released;
    this.released = undefined;
    released?.(node);
    if (this.rejoin) await this.nap(this.timing.rejoinDelayMs);
  }

  protected override async recover(): Promise<void> {
    this.releaseRequested = false;
    const contender = this.contender;
    this.contender = undefined;
    this.state = 'resting';
    // Our node may still be queued (e.g. a call timed out): leave the queue before joining again.
    if (contender && this.client) await contender.release().catch(() => undefined);
    const released = this.released;
    this.released = undefined;
    released?.(undefined);
  }
}

/** A session that registers one plain ephemeral node, like a service instance. */
class DemoService extends DemoSession {
  constructor(id: string, connectString: string, readonly path: string, private readonly data: () => Buffer,
    sessionTimeoutMs: number, log: (line: string) => void) {
    super(id, connectString, sessionTimeoutMs, log);
  }

  protected override async step(): Promise<void> {
    const client = this.client as ZkClient;
    await ensurePath(client, this.path.slice(0, this.path.lastIndexOf('/')));
    try {
      await create(client, this.path, this.data(), CreateMode.EPHEMERAL);
      this.log(`${this.id}: registered ${this.path}`);
      this.markReady();
      await this.nap(Infinity); // until expiry or stop
    } catch (error) {
      if (!isZkError(error, Exception.NODE_EXISTS)) throw error;
      // Left by an earlier run whose session has not timed out yet: take over once it is gone.
      this.log(`${this.id}: ${this.path} exists (an older session); waiting for it to go`);
      this.markReady();
      await new Promise<void>((resolve, reject) => {
        client.exists(this.path, () => resolve(), (e, stat) => { if (e) reject(e); else if (!stat) resolve(); });
        void this.nap(Infinity).then(resolve);
      });
    }
  }
}

/** Starts the demo's lock queues and service session; resolves once every participant is queued. */
export async function startDemoLockClients(connectString: string, options: LockClientsOptions = {}): Promise<DemoLockClients> {
  const root = (options.root ?? DEMO_ROOT).replace(/\/+$/, '');
  const log = options.log ?? (() => undefined);
  const sessionTimeoutMs = options.sessionTimeoutMs ?? 15000;
  const timing: LockTiming = {
    holdMs: options.holdMs ?? { min: 20000, max: 40000 },
    rejoinDelayMs: options.rejoinDelayMs ?? 3000,
    checkMs: options.holderCheckMs ?? 5000,
  };
  const lockPaths: Record<DemoLockName, string> = {
    curator: `${root}/locks/curator-mutex`,
    kazoo: `${root}/locks/kazoo-lock`,
  };
  const servicePath = `${root}/services/api/instance-1`;
  const clientAddress = Buffer.from(options.clientAddress ?? '127.0.0.1');

  const participants: LockParticipant[] = [];
  for (let i = 0; i <= (options.curatorWaiters ?? 3); i++) {
    participants.push(new LockParticipant(`curator-${i + 1}`, 'curator', connectString, lockPaths.curator, curatorMutex,
      clientAddress, timing, sessionTimeoutMs, log));
  }
  for (let i = 0; i <= (options.kazooWaiters ?? 2); i++) {
    participants.push(new LockParticipant(`kazoo-${i + 1}`, 'kazoo', connectString, lockPaths.kazoo, kazooLock,
      Buffer.from(`worker-${i + 1}`), timing, sessionTimeoutMs, log));
  }
  const service = new DemoService('demo-service', connectString, servicePath, () => Buffer.from(JSON.stringify({
    name: 'demo-service', host: '127.0.0.1', port: 8080, version: '1.4.2', pid: process.pid, startedAt: new Date().toISOString(),
  }, null, 2)), sessionTimeoutMs, log);

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
  const handle = await startDemoLockClients(connectString, { root: values.root, holdMs: { min, max }, log });
  log(`lock clients ready: ${handle.lockPaths.curator}, ${handle.lockPaths.kazoo}, ${handle.servicePath}`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: closing sessions`);
    handle.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`lock clients failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
