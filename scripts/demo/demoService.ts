// The demo's service instance: one session that registers a plain ephemeral node, as a service would, through
// the product's ZkSession and write layer.
import { ZkSession, SessionOptions } from '../../src/zk/session/session';
import { DemoActor } from './demoActor';
import { DemoWriter } from './demoWriter';

/** A session that registers one plain ephemeral node, like a service instance; a new session after expiry. */
export class DemoService extends DemoActor {
  private session: ZkSession | undefined;

  constructor(id: string, readonly path: string, private readonly data: () => Buffer,
    private readonly sessionOptions: SessionOptions, log: (line: string) => void) {
    super(id, log);
  }

  get sessionId(): string | undefined {
    return this.session?.sessionId;
  }

  protected override closeSessions(): void {
    this.session?.close();
  }

  protected override recover(): void {
    this.session?.close();
    this.session = undefined;
  }

  protected override async step(): Promise<void> {
    const session = new ZkSession(this.sessionOptions);
    this.session = session;
    const ended = () => this.interrupt();
    session.on('state', (state) => {
      if (state === 'expired' || state === 'lost') {
        this.log(`${this.id}: session ${session.sessionId ?? ''} ${state}; registering again`);
        ended();
      }
    });
    await session.open();
    const writer = new DemoWriter(session);
    await writer.ensurePath(this.path.slice(0, this.path.lastIndexOf('/')));
    // Left by an earlier run whose session has not timed out yet: take over once it is gone.
    while (!(await writer.createIfMissing(this.path, this.data(), undefined, 'ephemeral'))) {
      this.log(`${this.id}: ${this.path} exists (an older session); waiting for it to go`);
      this.markReady();
      await this.untilGone(session, this.path);
      if (this.stopped || !session.isLive) return this.recover();
    }
    this.log(`${this.id}: registered ${this.path}`);
    this.markReady();
    await this.nap(Infinity); // until expiry or stop
    if (!this.stopped) this.recover();
  }

  private async untilGone(session: ZkSession, path: string): Promise<void> {
    const gone = this.nap(Infinity);
    const unwatch = await session.watches.watch(path, (event) => { if (event.kind === 'deleted') this.interrupt(); });
    try {
      if (!(await session.exists(path))) this.interrupt();
      await gone;
    } finally {
      unwatch();
    }
  }
}
