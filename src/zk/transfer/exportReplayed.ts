// A tree rebuilt from a server's logs (serverLogs/treeAtMoment.ts) in the export format, so the past can be read,
// compared and imported like any export. Nodes go out one at a time, parents first, as a live export writes them.
import type { ReplayedNode } from '../serverLogs/replayedTree';
import { clientEphemeralOwner, nodeKind, type ZnodeStat } from '../stat';
import { formatPermissions } from '../write/aclFormat';
import { closing, encodeData, exportStat, opening, type ExportedNode } from './exportFormat';

/**
 * A replayed node's stat as a server sends it to a client (DataNode.copyStat), so the past compares with a live
 * export field for field: the two derived fields derived, a container's or TTL node's owner mark hidden, and the
 * cversion told as changes, not creates (the tree stores creates; every create but the children still there had
 * its delete).
 */
export function replayedStat(node: ReplayedNode): ZnodeStat {
  const numChildren = node.children.size;
  return {
    ...node.stat, ephemeralOwner: clientEphemeralOwner(node.stat.ephemeralOwner), cversion: node.stat.cversion * 2 - numChildren,
    dataLength: node.data?.length ?? 0, numChildren,
  };
}

export function exportedReplayedNode(path: string, node: ReplayedNode): ExportedNode {
  const stat = replayedStat(node);
  const exported: ExportedNode = { path, ...encodeData(node.data ?? Buffer.alloc(0)) };
  if (nodeKind(stat) === 'ephemeral') exported.ephemeral = true;
  exported.acl = node.acl.map((a) => ({ scheme: a.scheme, id: a.id, perms: formatPermissions(a.perms) }));
  exported.stat = exportStat(stat);
  return exported;
}

/** Writes the export of the nodes (parents first) through `write`; `at` is the moment they are of. */
export function writeReplayedExport(root: string, nodes: Iterable<{ path: string; node: ReplayedNode }>, at: Date, write: (chunk: string) => void): number {
  let count = 0;
  write(opening(root, at));
  for (const { path, node } of nodes) write((count++ === 0 ? '' : ',\n') + JSON.stringify(exportedReplayedNode(path, node)));
  write(closing());
  return count;
}
