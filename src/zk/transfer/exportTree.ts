// Exports a subtree as the JSON described in exportFormat.ts, streamed: each node is written as the pipelined
// crawl reads it (parents before children), so memory holds the crawl's frontier, not the tree.
import { crawl, CrawlOptions, CrawlSummary } from '../search/crawl';
import type { ZkSession } from '../session/session';
import { getAcl } from '../protocol/writes';
import { nodeKind } from '../stat';
import { formatPermissions } from '../write/aclFormat';
import { closing, encodeData, ExportedNode, exportStat, opening } from './exportFormat';

export interface ExportSummary {
  nodes: number;
  /** Ephemeral nodes written (marked; import skips them). */
  ephemeral: number;
  /** The walk: unreadable (noAuth) and vanished nodes are missing from the file; `complete` says if it is whole. */
  crawl: CrawlSummary;
  complete: boolean;
}

export type ExportOptions = Pick<CrawlOptions, 'window' | 'signal' | 'onProgress' | 'stallTimeoutMs'>;

/**
 * Writes the export of `root` through `write` (called synchronously with consecutive chunks; e.g. fs.writeSync
 * to a file, or push to an array). The text is a complete JSON document even when the walk stops early; check
 * `complete` before trusting it as a backup.
 */
export async function exportSubtree(session: ZkSession, root: string, write: (chunk: string) => void, options: ExportOptions = {}): Promise<ExportSummary> {
  let nodes = 0;
  let ephemeral = 0;
  write(opening(root, new Date()));
  // Each node's ACL is asked as the crawl finds it (pipelined on the session); nodes are written in crawl order
  // (parents first) once their ACL is in.
  let written: Promise<void> = Promise.resolve();
  const summary = await crawl(session, root, ({ path, stat, data }) => {
    const node: ExportedNode = { path, ...encodeData(data ?? Buffer.alloc(0)) };
    if (nodeKind(stat) === 'ephemeral') {
      node.ephemeral = true;
      ephemeral++;
    }
    node.stat = exportStat(stat);
    const acl = session.request(getAcl(session.channel, path), 'getACL', path)
      .then((reply) => reply.acl.map((a) => ({ scheme: a.scheme, id: a.id, perms: formatPermissions(a.perms) })), () => undefined);
    written = written.then(async () => {
      const entries = await acl;
      if (entries) node.acl = entries;
      write((nodes++ === 0 ? '' : ',\n') + JSON.stringify(node));
    });
  }, { ...options, wantData: (_, stat) => stat.dataLength > 0 });
  await written;
  write(closing());
  const complete = !summary.cancelled && !summary.error && summary.unreadableCount === 0;
  return { nodes, ephemeral, crawl: summary, complete };
}
