// Reads a live subtree as readLive does, but many nodes a request: getData of up to READ_BATCH nodes (and
// getChildren of the parents among those already read) in one multiRead (3.6+), so a 100,000-node subtree takes
// about a thousand round trips instead of 100,000. The window of nodes in flight is shared by a few requests; a
// reply longer than the channel accepts (big nodes) fails alone and its request is asked again in halves, and
// requests get smaller once big nodes were seen. ACLs cannot go in a multiRead: when wanted, each node's getACL
// follows its data, one request each, and its Stat must match the data's. A server that does not know multiRead
// answers the first request (the root alone, sent before anything else) with `unimplemented`: the caller then
// reads node by node.
//
// multiRead's getChildren has no Stat, so a listing is checked against the parent's data Stat instead: the same
// number of names, and no child created after the Stat's pzxid (a child deleted and another created meanwhile).
import { isZkError, ZkError } from '../errors';
import { multiRead, ReadOp, ReadOpResult } from '../protocol/multiRead';
import type { RawChannel } from '../protocol/rawChannel';
import { AclEntry, getAcl } from '../protocol/writes';
import type { ZkSession } from '../session/session';
import { nodeKind, ZnodeStat } from '../stat';
import { Batch, Listing, ReadBatches } from './readBatches';
import { relativePath, TreeSnapshot } from './snapshot';
import { ReadOptions, sameStat, SubtreeRead } from './subtreeRead';

export function readLiveTreeBatched(session: ZkSession, root: string, options: ReadOptions = {}): Promise<TreeSnapshot | 'unimplemented'> {
  return new Promise<TreeSnapshot | 'unimplemented'>((resolve) => new BatchedTreeRead(session, root, options, resolve).pump());
}

/** One batched read: sends what ReadBatches chooses, takes each reply op by op, and reads ACLs after the data. */
class BatchedTreeRead {
  private readonly wantAcl: boolean;
  private readonly nodeWindow: number;
  private readonly channel: RawChannel;
  private readonly batches: ReadBatches;
  private readonly run: SubtreeRead<'unimplemented'>;
  private readonly snapshot: TreeSnapshot;
  private requests = 0;
  private aclsInFlight = 0;

  constructor(session: ZkSession, private readonly root: string, options: ReadOptions, resolve: (result: TreeSnapshot | 'unimplemented') => void) {
    this.wantAcl = options.acls ?? true;
    this.nodeWindow = Math.max(1, options.window ?? 256);
    this.channel = session.channel;
    this.batches = new ReadBatches(root, this.nodeWindow);
    this.run = new SubtreeRead<'unimplemented'>(root, options, session, () => this.requests + this.aclsInFlight, resolve);
    this.snapshot = this.run.snapshot;
  }

  pump(): void {
    const { run, batches } = this;
    if (run.ended) return;
    // The root goes alone and first: a server without multiRead refuses it before anything else is sent.
    // ACL reads count against the window too: each request's nodes ask for theirs when their data is back.
    while (!run.stopped && this.requests < batches.maxRequests && this.aclsInFlight < this.nodeWindow && !batches.awaitingRoot) {
      const batch = batches.next();
      if (batch.ops.length === 0) break;
      this.send(batch);
    }
    run.progress();
    if (this.requests === 0 && this.aclsInFlight === 0) run.finish();
  }

  private send(batch: Batch): void {
    const { ops, listedIn } = batch;
    this.requests++;
    multiRead(this.channel, ops).then((results) => {
      if (this.run.stopped) return;
      this.batches.answered(batch);
      for (let i = 0; i < ops.length && !this.run.stopped; i++) this.take(ops[i], listedIn[i], results[i]);
    }, (error: unknown) => this.requestFailed(batch, error)).finally(() => {
      this.requests--;
      this.run.replied();
      this.pump();
    });
  }

  /** The whole request was refused: a server without multiRead, a reply too long for the channel, or the rest. */
  private requestFailed(batch: Batch, error: unknown): void {
    if (this.batches.awaitingRoot && isZkError(error, 'unimplemented')) return this.run.finish('unimplemented');
    if (isZkError(error, 'replyTooLarge') && batch.ops.length > 1) return this.batches.retryInHalves(batch);
    this.run.failed(batch.ops[0].path, error, 'multiRead');
  }

  private take(op: ReadOp, listing: Listing | undefined, result: ReadOpResult): void {
    const { run, snapshot, root } = this;
    const path = op.path;
    if (!result.ok) return run.failed(path, ZkError.fromCode(result.err, op.type, path), op.type);
    if (result.type === 'getData') {
      // A child newer than its parent's listing Stat: the listing is not the one that Stat describes.
      if (listing && result.stat.czxid > listing.pzxid) snapshot.changed.add(relativePath(listing.parent, root));
      if (this.wantAcl) this.readAcl(path, result.data, result.stat);
      else this.keep(path, result.data, result.stat);
      return;
    }
    const parent = snapshot.nodes.get(relativePath(path, root))!;
    if (result.children.length !== parent.stat!.numChildren) snapshot.changed.add(relativePath(path, root));
    if (!run.withinBounds(path, result.children.length, 0)) return;
    this.batches.listed(path, result.children, parent.stat!.pzxid);
  }

  private readAcl(path: string, data: Buffer | null, stat: ZnodeStat): void {
    this.aclsInFlight++;
    getAcl(this.channel, path).then((reply) => {
      if (this.run.stopped) return;
      if (!sameStat(reply.stat, stat)) this.snapshot.changed.add(relativePath(path, this.root));
      this.keep(path, data, stat, reply.acl);
    }, (error: unknown) => this.run.failed(path, error, 'getACL')).finally(() => {
      this.aclsInFlight--;
      this.run.replied();
      this.pump();
    });
  }

  private keep(path: string, data: Buffer | null, stat: ZnodeStat, acl?: AclEntry[]): void {
    this.batches.sawData(stat.dataLength);
    this.snapshot.nodes.set(relativePath(path, this.root), { data, acl, kind: nodeKind(stat), stat });
    if (!this.run.withinBounds(path, 0, stat.dataLength)) return;
    if (stat.numChildren > 0) this.batches.toBeListed(path, stat);
  }
}
