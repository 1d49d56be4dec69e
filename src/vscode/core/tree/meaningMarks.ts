// What known systems' nodes mean (src/zk/meaning), for the tree's description, icon and tooltip. Listing a node
// never reads its children's data: a child is decoded when its data was already read (Show Details, the decoded
// view, a preview) or, for at most READS_PER_PARENT children of one parent whose path alone looks like a known
// system's (mightHaveMeaning) and whose data is small, read once here when the tree draws it. A wide node of
// 100,000 children costs at most that many small reads, and a node no system claims costs none.
import { decodeMeaning, Meaning, mightHaveMeaning } from '../../../zk/meaning';
import type { ZkSession } from '../../../zk/session/session';
import type { Translate } from '../../../zk/tree/znodePresentation';
import type { ZnodeNode } from '../../../zk/tree/treeNodes';

const READS_PER_PARENT = 50;
const MAX_DATA_BYTES = 256 * 1024;
const MAX_REMEMBERED = 20000;

const parentOf = (path: string) => path.slice(0, Math.max(1, path.lastIndexOf('/')));

interface Known { mzxid: bigint; meaning: Meaning | undefined }

export class MeaningMarks {
  private readonly known = new Map<string, Map<string, Known>>();
  private readonly readsByParent = new Map<string, Map<string, number>>();
  private readonly reading = new Set<string>();

  /** `changed` hears a path whose meaning became known: that node is drawn again. */
  constructor(private readonly t: Translate, private readonly changed: (connectionId: string, path: string) => void) {}

  /** The node's meaning if known for its current version; may start one bounded read (see the file's comment). */
  get(node: ZnodeNode, session: ZkSession | undefined): Meaning | undefined {
    const known = this.known.get(node.connectionId)?.get(node.path);
    if (known && known.mzxid === node.stat.mzxid) return known.meaning;
    // No data (Solr's live nodes, Dubbo's registrations): the Stat already says what a read would return.
    if (node.stat.dataLength === 0 && mightHaveMeaning(node.path)) {
      const meaning = decodeMeaning(node.path, new Uint8Array(), this.t);
      this.store(node.connectionId, node.path, { mzxid: node.stat.mzxid, meaning });
      return meaning;
    }
    // A node that changed since is read again within the budget it already had.
    if (session) this.maybeRead(node, session, known !== undefined);
    return known?.meaning;
  }

  /** Data read elsewhere (details, decoded view): decoded now, drawn again if its meaning changed. */
  remember(connectionId: string, path: string, mzxid: bigint, data: Uint8Array): Meaning | undefined {
    const meaning = decodeMeaning(path, data, this.t);
    const before = this.known.get(connectionId)?.get(path);
    this.store(connectionId, path, { mzxid, meaning });
    if (before?.meaning?.summary !== meaning?.summary || before?.meaning?.icon !== meaning?.icon) this.changed(connectionId, path);
    return meaning;
  }

  clear(connectionId: string): void {
    this.known.delete(connectionId);
    this.readsByParent.delete(connectionId);
  }

  private store(connectionId: string, path: string, entry: Known): void {
    let byPath = this.known.get(connectionId);
    if (!byPath) this.known.set(connectionId, byPath = new Map());
    if (byPath.size >= MAX_REMEMBERED) byPath.clear();
    byPath.set(path, entry);
  }

  private maybeRead(node: ZnodeNode, session: ZkSession, again: boolean): void {
    const key = `${node.connectionId}\u0000${node.path}`;
    if (this.reading.has(key) || node.stat.dataLength > MAX_DATA_BYTES || !mightHaveMeaning(node.path)) return;
    let reads = this.readsByParent.get(node.connectionId);
    if (!reads) this.readsByParent.set(node.connectionId, reads = new Map());
    const parent = parentOf(node.path);
    const used = reads.get(parent) ?? 0;
    if (!again) {
      if (used >= READS_PER_PARENT) return;
      reads.set(parent, used + 1);
    }
    this.reading.add(key);
    session.getData(node.path).then(
      ({ data, stat }) => this.remember(node.connectionId, node.path, stat.mzxid, data),
      () => undefined, // gone or not readable: the node is shown as it is
    ).finally(() => this.reading.delete(key));
  }
}
