// The herd-free sequential recipe behind exclusive locks, read/write locks and fair elections: an
// EPHEMERAL_SEQUENTIAL node named by the queue's convention (with a GUID, so a create whose answer was lost is found
// again), a watch on the ONE node we wait for (never on the children), and a fresh listing after every wake-up.
// Acquiring costs one round trip: the create (parents only after NONODE) with the children read right behind it. A
// waiter watches its predecessor, and its own node while it sleeps (to notice at once when someone else deletes it).
// The watch goes out with a children read behind it: the server answers a session's reads in order, so when the
// predecessor is gone already that listing shows the queue after its deletion (and after a transaction that took our
// node with it), and the attempt goes on without a round trip more.
// The hand-off lists again, as Curator does: the news that our predecessor went may arrive in one read and the news
// that our node went with it (one transaction, e.g. a recursive delete) in the next; only the answer to a request
// sent after the first comes after both, so holding on the news alone could hold a lock that is not ours for a
// moment. A holder's own watch is armed one turn after it holds (a holder that releases at once costs no watch), and
// removed in the same flight as our delete, so a release notifies exactly one watcher.
// A path whose convention this manager already knows is joined create-first and checked from the listing after it;
// an unknown path (or one whose queue changed) is listed before the create, exactly as before.
import { randomUUID } from 'node:crypto';
import { isZkError } from '../errors';
import { baseName, joinPath } from '../paths';
import * as ops from '../protocol/operations';
import * as writes from '../protocol/writes';
import { CreateFlags, OPEN_ACL } from '../protocol/writes';
import { EventType, OpCode, WatcherType } from '../protocol/opcodes';
import { JuteReader } from '../protocol/jute';
import type { WatchNotification } from '../protocol/rawChannel';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';
import { chooseConvention } from './conventionDetection';
import { Contender, convention, ConventionId, LockConvention, NodeIdentity, NodeRole } from './conventions';
import { AttemptEnded, LockHandle } from './lockHandle';
import type { LockMode } from './types';

export interface QueueLockOptions {
  mode: Exclude<LockMode, 'unfairElection'>;
  convention: ConventionId | 'auto';
  data: Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
  positionRefreshMs: number;
  /** Conventions this manager found on lock paths (shared by its attempts): a known path is joined create-first. */
  knownConventions?: Map<string, ConventionId>;
}

/** How many paths' conventions a manager remembers (a lock path is usually one of a handful). */
const KNOWN_CONVENTIONS_MAX = 1000;

class ConventionProblem extends Error {}

/** How our node is named: set together once a convention is adopted. */
interface NodeNaming {
  conv: LockConvention;
  role: NodeRole;
  /** Kept across adoptions: a create whose answer was lost is found again by it. */
  identity: NodeIdentity;
}

export class QueueLock extends LockHandle {
  private naming: NodeNaming | undefined;
  private nodeName: string | undefined;
  private createTried = false;
  /** The node we wait for (full path), while waiting. */
  private watched: string | undefined;
  /** Our own node's watch: asked for, and its answer (never rejects). */
  private ownWatchArmed = false;
  private ownWatchAnswer: Promise<void> | undefined;
  /** Why arming our own node's watch failed while waiting (the queue loop ends the attempt with it). */
  private ownWatchError: unknown;
  /** Set while we delete our own node ourselves: its watch firing then is no loss. */
  private deletingOwn = false;

  constructor(session: ZkSession, path: string, private readonly options: QueueLockOptions) {
    super(session, path, options.mode, options.convention === 'auto' ? 'plain' : options.convention, options.timeoutMs, options.signal);
  }

  private get ownPath(): string | undefined {
    return this.nodeName === undefined ? undefined : joinPath(this.path, this.nodeName);
  }

  protected async run(): Promise<void> {
    try {
      await this.queue(await this.enqueue());
    } catch (error) {
      await this.endAttempt(error);
    }
  }

  /**
   * Puts our node in the queue, named by the queue's convention; returns the children read after the create. A
   * convention we know for this path (or the caller's choice) names the node at once and the listing after the
   * create confirms it; if the queue changed meanwhile, our node is taken back and the path is listed before
   * creating, which is how an unknown path is joined.
   */
  private async enqueue(): Promise<string[]> {
    const forced = this.options.convention === 'auto' ? undefined : this.options.convention;
    const guess = forced ?? this.options.knownConventions?.get(this.path);
    if (guess) {
      this.adopt(guess);
      const children = await this.listChildren((await this.createNode()).listing);
      const choice = chooseConvention(children.filter((name) => name !== this.nodeName), forced);
      if (choice.ok && choice.convention === guess) {
        this.update({ convention: guess, detection: choice.detection });
        return children;
      }
      // Someone else's queue now (or a mixed one): our node must not stay under a name its members misread.
      this.options.knownConventions?.delete(this.path);
      await this.withdraw();
    }
    const children = await this.retrying(() => this.listQueue());
    const choice = chooseConvention(children, forced);
    if (!choice.ok) {
      this.update({ detection: choice.detection });
      throw new ConventionProblem('conventionUnknown');
    }
    this.update({ convention: choice.convention, detection: choice.detection });
    this.adopt(choice.convention);
    if (!forced) this.remember(choice.convention);
    return this.listChildren((await this.createNode()).listing);
  }

  /** Names our node by `id`; a mode that library has no lock for is a conventionMismatch. */
  private adopt(id: ConventionId): void {
    const conv = convention(id);
    const role = conv.roleFor(this.options.mode);
    if (!role) {
      this.update({ convention: id });
      throw new ConventionProblem('conventionMismatch');
    }
    const identity = this.naming?.identity ?? { guid: randomUUID(), sessionId: BigInt(this.session.sessionId ?? '0') };
    this.naming = { conv, role, identity };
  }

  /** The naming adopted; every caller runs after adopt(). */
  private adopted(): NodeNaming {
    if (!this.naming) throw new Error('queue lock: no convention adopted yet');
    return this.naming;
  }

  private remember(id: ConventionId): void {
    const known = this.options.knownConventions;
    if (!known) return;
    known.delete(this.path);
    const oldest = known.keys().next();
    if (known.size >= KNOWN_CONVENTIONS_MAX && !oldest.done) known.delete(oldest.value);
    known.set(this.path, id);
  }

  /** The lock path's children; none when it does not exist yet (createNode makes it). */
  private async listQueue(): Promise<string[]> {
    try {
      return (await this.session.getChildren(this.path)).children;
    } catch (error) {
      if (isZkError(error, 'noNode')) return [];
      throw error;
    }
  }

  /** The children: `pending` (a listing already in flight, or failed: then listed again), or a fresh listing. */
  private async listChildren(pending?: Promise<ops.ChildrenReply>): Promise<string[]> {
    const list = () => this.retrying(() => this.session.getChildren(this.path));
    return (await (pending ? pending.catch(list) : list())).children;
  }

  /**
   * Arms our own node's watch unless it is armed; returns its answer, which never rejects: what it says (lost, an
   * error) is acted on here.
   */
  private watchOwn(): Promise<void> {
    if (this.ownWatchArmed && this.ownWatchAnswer) return this.ownWatchAnswer;
    const path = this.ownPath;
    const answer = this.armOwnWatch().catch((error: unknown) => {
      // An answer about a node we have since taken back (or are deleting) says nothing about the attempt.
      if (error instanceof AttemptEnded || this.isFinal || path !== this.ownPath || this.deletingOwn) return;
      if (isZkError(error, 'sessionExpired')) return this.lose('sessionExpired');
      if (this.heldOnce) return this.fail(error);
      // A waiting attempt ends from its own loop, which deletes our node.
      this.ownWatchError = error;
      this.wake();
    });
    this.ownWatchAnswer = answer;
    return answer;
  }

  /**
   * A holder's own watch, when it did not wait (a waiter armed it already): armed one turn later, so a holder that
   * releases at once costs the server no watch to set and remove. A deletion before then shows in its answer.
   */
  private watchOwnWhileHeld(): void {
    if (this.ownWatchArmed) return;
    setImmediate(() => {
      if (!this.isFinal && !this.deletingOwn && !this.ownWatchArmed) void this.watchOwn();
    });
  }

  private ownWatchDropped(): void {
    this.ownWatchArmed = false;
    this.ownWatchAnswer = undefined;
  }

  /** Takes back a node created under the wrong convention, so that the attempt can create another. */
  private async withdraw(): Promise<void> {
    await this.deleteOwnNode();
    this.deletingOwn = false;
    this.nodeName = undefined;
    this.createTried = false;
    this.update({ node: undefined });
  }

  /**
   * Creates our node. The children read goes out right behind the create, in the same flight: the server answers a
   * session's requests in order, so that listing is read after our node exists and joining costs one round trip.
   * Returns that listing, still in flight (none when the create had to be found again after a lost answer); boxed,
   * as an async function would otherwise wait for it.
   */
  private async createNode(): Promise<{ listing?: Promise<ops.ChildrenReply> }> {
    const { conv, role, identity } = this.adopted();
    const prefixPath = joinPath(this.path, conv.prefix(role, identity));
    const { client } = this.session;
    let listing: Promise<ops.ChildrenReply> | undefined;
    while (this.nodeName === undefined) {
      this.checkEnded();
      // A sequential create is not idempotent: after a lost answer, look for our node before creating another.
      if (this.createTried) {
        this.nodeName = await this.retrying(() => this.findOwnNode());
        if (this.nodeName !== undefined) break;
      }
      this.createTried = true;
      const created = this.session.request(this.sendCreate(prefixPath), 'create', prefixPath);
      listing = this.session.getChildren(this.path);
      listing.catch(() => undefined); // a failed create fails it too; the caller then lists again
      try {
        this.nodeName = baseName(await created);
      } catch (error) {
        listing = undefined;
        if (isZkError(error, 'noNode')) {
          // The parents are made only when missing (Curator's creatingParentsIfNeeded); nothing was created.
          this.createTried = false;
          await this.retrying(() => this.session.libraryCall('mkdirp', this.path, (cb) => client.mkdirp(this.path, cb)));
          continue;
        }
        if (!isZkError(error, 'connectionLoss', 'clientTimeout') || !this.session.isLive) throw error;
        await this.untilConnected();
      }
    }
    this.update({ node: this.ownPath });
    return { listing };
  }

  /** A plain create (opcode 1, as Curator and kazoo send it): the answer is the created path. */
  private async sendCreate(prefixPath: string): Promise<string> {
    const { channel } = this.session;
    const body = writes.createBody(channel, { path: prefixPath, data: this.options.data, acl: OPEN_ACL, flags: CreateFlags.ephemeralSequential });
    const reply = await channel.send(OpCode.create, body, 'create', prefixPath);
    return channel.clientPath(new JuteReader(reply).string());
  }

  private async findOwnNode(): Promise<string | undefined> {
    const children = await this.listQueue();
    const { conv, identity } = this.adopted();
    const byName = children.find((name) => conv.isOwn(name, identity) === true);
    if (byName || children.length === 0 || conv.isOwn(children[0], identity) !== undefined) return byName;
    for (const c of conv.order(children)) {
      const stat = await this.session.exists(joinPath(this.path, c.name));
      if (stat?.ephemeralOwner === identity.sessionId) return c.name;
    }
    return undefined;
  }

  /**
   * Waits our turn: find whom we wait for, watch only that node, and sleep (with our own node watched too); every
   * wake-up lists again (see the header: the listing's answer comes after all news of what woke us).
   */
  private async queue(listing: string[]): Promise<void> {
    const { conv } = this.adopted();
    let queue: Contender[] | undefined = conv.order(listing);
    for (;;) {
      this.checkOwnWatch();
      const woken = this.nextWake();
      queue ??= conv.order(await this.listChildren());
      this.checkOwnWatch();
      const index = queue.findIndex((c) => c.name === this.nodeName);
      if (index < 0) {
        this.lose('nodeDeleted');
        throw new AttemptEnded('lost');
      }
      const position = { index: index + 1, of: queue.length };
      const blocker = conv.blocker(queue, index);
      if (!blocker) {
        this.watched = undefined;
        this.setState(this.options.mode === 'election' ? 'leader' : 'held', { position, waitingFor: undefined });
        this.watchOwnWhileHeld();
        return;
      }
      const watched = joinPath(this.path, blocker.name);
      this.watched = watched;
      const { present, listing: after } = await this.retrying(() => this.watchBlocker(watched));
      this.checkOwnWatch();
      if (!present) {
        // Gone before we could watch it: the listing behind the watch was read after its deletion.
        queue = conv.order(await this.listChildren(after));
        continue;
      }
      // We sleep: from now on someone deleting our node must wake us (the blocker's deletion waits for its answer).
      void this.watchOwn();
      if (this.snap.state === 'waiting') this.update({ position, waitingFor: this.watched });
      else this.setState('waiting', { position, waitingFor: this.watched });
      await this.sleep(woken);
      queue = undefined;
    }
  }

  private checkOwnWatch(): void {
    this.checkEnded();
    if (this.ownWatchError !== undefined) throw this.ownWatchError;
  }

  /** Until woken, or until the position is due for a refresh (not async: no extra hop on the hand-off path). */
  private sleep(woken: Promise<void>): Promise<void> {
    const ms = this.options.positionRefreshMs;
    if (!ms) return woken;
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([woken, new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); })])
      .finally(() => clearTimeout(timer));
  }

  /**
   * Watches the node we wait for, with the children read right behind it in the same flight: when the node is gone
   * already (a holder in a loop often releases before our watch arrives), that listing was read after its deletion,
   * so the queue goes on without another round trip. While the node is there the listing is not used.
   */
  private async watchBlocker(path: string): Promise<{ present: boolean; listing: Promise<ops.ChildrenReply> }> {
    const watched = this.watchNode(path);
    const listing = this.session.getChildren(this.path);
    listing.catch(() => undefined); // unused while the node is there; listChildren lists again after a failure
    return { present: (await watched) !== undefined, listing };
  }

  /** getData with a watch: fires once when the node goes (or changes). Undefined when it is already gone. */
  private async watchNode(path: string): Promise<ZnodeStat | undefined> {
    try {
      return (await this.session.request(ops.getData(this.session.channel, path, true), 'getData', path)).stat;
    } catch (error) {
      if (isZkError(error, 'noNode')) return undefined;
      throw error;
    }
  }

  /** Watches our own node, which also proves it is still ours (our session owns it). */
  private async armOwnWatch(): Promise<void> {
    const path = this.ownPath;
    if (path === undefined) throw new Error('queue lock: own watch asked for before the node exists');
    this.ownWatchArmed = true; // at once: a second caller in the same flight does not arm it again
    const stat = await this.retrying(() => this.watchNode(path)).catch((error: unknown) => {
      if (path === this.ownPath) this.ownWatchDropped();
      throw error;
    });
    // Taken back meanwhile (withdrawn, released): its answer is no news about the attempt.
    if (path !== this.ownPath || this.deletingOwn) return;
    if (!stat || stat.ephemeralOwner !== this.adopted().identity.sessionId) {
      this.ownWatchDropped();
      this.lose(stat ? 'notOwner' : 'nodeDeleted');
      throw new AttemptEnded('lost');
    }
  }

  protected onNotification(n: WatchNotification): void {
    if (this.isFinal) return;
    if (n.path === this.watched) {
      this.wake();
    }
    if (n.path !== this.ownPath) return;
    this.ownWatchDropped();
    if (this.deletingOwn) return;
    if (n.type === EventType.deleted) this.lose('nodeDeleted');
    else if (this.heldOnce) void this.verifyHeld();
    else this.wake();
  }

  protected onReconnected(): void {
    // The server dropped our watches with the old connection (the library restores only its own).
    this.ownWatchDropped();
    if (this.heldOnce && !this.deletingOwn) void this.verifyHeld();
  }

  /**
   * After a reconnect (or a change to our node) while held: still ours, or lost. The same path as every own-node
   * watch (watchOwn acts on a loss or an error), so the watch it arms is remembered and never asked for twice.
   */
  private async verifyHeld(): Promise<void> {
    await this.watchOwn();
    if (!this.isFinal && !this.deletingOwn && this.ownWatchArmed) this.setState(this.options.mode === 'election' ? 'leader' : 'held');
  }

  protected async deleteOwnNode(): Promise<void> {
    this.deletingOwn = true;
    const name = this.nodeName ?? (this.createTried ? await this.retrying(() => this.findOwnNode(), true).catch(() => undefined) : undefined);
    if (name === undefined) return;
    const path = joinPath(this.path, name);
    if (this.ownWatchArmed) {
      // Dropped before the delete, in the same flight: our own delete then notifies only the successor's watch.
      this.ownWatchDropped();
      void this.session.request(ops.removeWatches(this.session.channel, path, WatcherType.data), 'removeWatches', path).catch(() => undefined);
    }
    await this.retrying(() => this.session.request(writes.deleteNode(this.session.channel, path, -1), 'delete', path), true).catch((error: unknown) => {
      // Gone already (or with the session): nothing left to delete.
      if (!isZkError(error, 'noNode', 'sessionExpired', 'connectionLoss', 'clientTimeout', 'closed')) throw error;
    });
  }

  private async endAttempt(error: unknown): Promise<void> {
    if (error instanceof AttemptEnded) {
      if (error.state === 'cancelled' || error.state === 'timedOut') {
        await this.deleteOwnNode().catch(() => undefined);
        this.setState(error.state, { waitingFor: undefined });
      }
      return;
    }
    if (isZkError(error, 'sessionExpired')) return this.lose('sessionExpired');
    if (error instanceof ConventionProblem) {
      this.setState('failed', { error: error.message });
      return;
    }
    await this.deleteOwnNode().catch(() => undefined);
    this.fail(error);
  }
}
