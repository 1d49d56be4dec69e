// One side of a comparison or copy read from an export file (src/zk/transfer/exportFormat.ts). An export cannot
// tell null data from empty data (both are written as ""), nor container or TTL nodes from persistent ones; a
// node exported without its ACL has none here (not compared).
import { decodeData, ExportDocument, exportedAcl } from '../transfer';
import { emptySnapshot, relativePath, TreeSnapshot } from './snapshot';

/** The export's nodes at or below `root` (default: the export's own root). */
export function snapshotOfExport(doc: ExportDocument, root = doc.root): TreeSnapshot {
  const snapshot = emptySnapshot('export', root);
  const prefix = root === '/' ? '/' : `${root}/`;
  for (const node of doc.nodes) {
    if (node.path !== root && !node.path.startsWith(prefix)) continue;
    snapshot.nodes.set(relativePath(node.path, root), {
      data: decodeData(node),
      acl: exportedAcl(node),
      kind: node.ephemeral ? 'ephemeral' : 'persistent',
    });
  }
  snapshot.rootMissing = !snapshot.nodes.has('/');
  return snapshot;
}
