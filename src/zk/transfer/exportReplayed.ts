// A tree rebuilt from a server's logs (serverLogs/treeAtMoment.ts) in the export format, so the past can be read,
// compared and imported like any export. Nodes go out one at a time, parents first, as a live export writes them.
import { replayedStat, type ReplayedNode } from '../serverLogs/replayedTree';
import { nodeKind } from '../stat';
import { formatPermissions } from '../write/aclFormat';
import { closing, encodeData, exportStat, opening, type ExportedNode } from './exportFormat';

export { replayedStat };

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
