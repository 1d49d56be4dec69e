// Exports a subtree as the JSON described in exportFormat.ts, streamed: each node is written as the pipelined
// crawl reads it (parents before children), so memory holds the crawl's frontier, not the tree.
import { crawl, CrawlOptions, CrawlSummary } from '../search/crawl';
import type { ZkSession } from '../session';
import { nodeKind } from '../stat';
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
  const summary = await crawl(session, root, ({ path, stat, data }) => {
    const node: ExportedNode = { path, ...encodeData(data ?? Buffer.alloc(0)) };
    if (nodeKind(stat) === 'ephemeral') {
      node.ephemeral = true;
      ephemeral++;
    }
    node.stat = exportStat(stat);
    write((nodes++ === 0 ? '' : ',\n') + JSON.stringify(node));
  }, { ...options, wantData: (_, stat) => stat.dataLength > 0 });
  write(closing());
  const complete = !summary.cancelled && !summary.error && summary.unreadableCount === 0;
  return { nodes, ephemeral, crawl: summary, complete };
}
