// Reads a live subtree for a comparison or a copy: per node its data (null kept apart from empty), its ACL when
// wanted, and its children's names only when its Stat says it has some. Many nodes a request with multiRead
// (3.6+, readLiveBatched); node by node on older servers: then most nodes are leaves, two requests, not three,
// pipelined with at most `window` nodes in flight, parents before children. Replies about one node come in the
// order they were sent, so Stats that disagree between them mean the node was written meanwhile.
import { DepthFirstPaths } from '../search/depthFirstPaths';
import { getDataNullable } from '../protocol/nullableData';
import * as ops from '../protocol/operations';
import { AclEntry, getAcl } from '../protocol/writes';
import type { ZkSession } from '../session/session';
import { nodeKind, ZnodeStat } from '../stat';
import { readLiveTreeBatched } from './readLiveBatched';
import { relativePath, TreeSnapshot } from './snapshot';
import { ReadOptions, sameStat, SubtreeRead } from './subtreeRead';

export async function readLiveTree(session: ZkSession, root: string, options: ReadOptions = {}): Promise<TreeSnapshot> {
  if (options.multiRead ?? true) {
    const batched = await readLiveTreeBatched(session, root, options);
    if (batched !== 'unimplemented') return batched;
  }
  // A server that answered `unimplemented` closes the connection right after: a read that went out meanwhile
  // fails with connectionLoss before anything was read, and goes again on the next connection.
  for (let tries = 1; ; tries++) {
    const snapshot = await readLiveTreeSingly(session, root, options);
    if (tries >= 3 || snapshot.error?.code !== 'connectionLoss' || snapshot.nodes.size > 0 || !session.isLive) return snapshot;
  }
}

function readLiveTreeSingly(session: ZkSession, root: string, options: ReadOptions): Promise<TreeSnapshot> {
  const window = Math.max(1, options.window ?? 256);
  const wantAcl = options.acls ?? true;
  const channel = session.channel;
  const order = new DepthFirstPaths(root);
  let inFlight = 0;

  return new Promise<TreeSnapshot>((resolve) => {
    const run = new SubtreeRead(root, options, session, () => inFlight, resolve);
    const { snapshot } = run;

    const read = async (path: string) => {
      const data = getDataNullable(channel, path, false);
      const acl: Promise<{ acl: AclEntry[]; stat: ZnodeStat } | undefined> = wantAcl ? getAcl(channel, path) : Promise.resolve(undefined);
      acl.catch(() => undefined); // settled through the await below; never unhandled
      const { data: bytes, stat } = await data;
      const children = stat.numChildren > 0 ? await ops.getChildren2(channel, path) : undefined;
      const aclReply = await acl;
      if (run.stopped) return;
      const relative = relativePath(path, root);
      if ((children && !sameStat(children.stat, stat)) || (aclReply && !sameStat(aclReply.stat, stat))) snapshot.changed.add(relative);
      snapshot.nodes.set(relative, { data: bytes, acl: aclReply?.acl, kind: nodeKind(stat), stat });
      if (!run.withinBounds(path, children?.children.length ?? 0, stat.dataLength)) return;
      if (children) order.add(path, children.children);
    };

    const pump = () => {
      if (run.ended) return;
      while (!run.stopped && inFlight < window) {
        const path = order.next();
        if (path === undefined) break;
        inFlight++;
        read(path).catch((error: unknown) => run.failed(path, error)).finally(() => {
          inFlight--;
          run.replied();
          pump();
        });
      }
      run.progress();
      if (inFlight === 0) run.finish();
    };
    pump();
  });
}
