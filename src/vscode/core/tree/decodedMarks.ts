// What known systems' nodes mean (src/zk/decoders), for the tree's description, icon and tooltip. Listing a node
// never reads its children's data: a child is decoded when its data was already read (Show Details, the decoded
// view, a preview) or, for at most READS_PER_PARENT children of one parent whose path alone looks like a known
// system's (mightDecode) and whose data is small, read once here when the tree draws it. A wide node of
// 100,000 children costs at most that many small reads, and a node no system claims costs none.
// Related nodes a decoder asks for (a Patroni member's lag needs the leader's status) are read once for all the
// children of one parent, out of the same budget, and again once after each listing of that parent.
import { decodeNode, Decoded, DecodeContext, decodeContextPaths, mightDecode, readDecodeContext, sessionContextRead } from '../../../zk/decoders';
import type { ZkSession } from '../../../zk/session/session';
import type { Translate } from '../../../zk/tree/znodePresentation';
import type { ZnodeNode } from '../../../zk/tree/treeNodes';

const READS_PER_PARENT = 50;
const MAX_DATA_BYTES = 256 * 1024;
const MAX_REMEMBERED = 20000;

const parentOf = (path: string) => path.slice(0, Math.max(1, path.lastIndexOf('/')));

/** `data` is kept only for a node whose meaning uses related nodes: it is decoded again when they are read again. */
interface Known { mzxid: bigint; decoded: Decoded | undefined; data?: Uint8Array }

/** The related nodes' data for the children of one parent; `fresh` until the parent is listed again. */
interface ParentContext { values: DecodeContext; fresh: boolean; reading: boolean; charged: boolean }

export class DecodedMarks {
  private readonly known = new Map<string, Map<string, Known>>();
  private readonly readsByParent = new Map<string, Map<string, number>>();
  private readonly contexts = new Map<string, Map<string, ParentContext>>();
  private readonly reading = new Set<string>();

  /** `changed` hears a path whose meaning became known: that node is drawn again. */
  constructor(private readonly t: Translate, private readonly changed: (connectionId: string, path: string) => void) {}

  /** The node's meaning if known for its current version; may start bounded reads (see the file's comment). */
  get(node: ZnodeNode, session: ZkSession | undefined): Decoded | undefined {
    const known = this.known.get(node.connectionId)?.get(node.path);
    // Before the node's own read, so a wide parent still has budget for what all its children share.
    if (session && mightDecode(node.path)) this.maybeReadContext(node.connectionId, node.path, session);
    if (known && known.mzxid === node.stat.mzxid) return known.decoded;
    // No data (Solr's live nodes, Dubbo's registrations): the Stat already says what a read would return.
    if (node.stat.dataLength === 0 && mightDecode(node.path)) {
      const decoded = this.decode(node.connectionId, node.path, new Uint8Array());
      this.store(node.connectionId, node.path, { mzxid: node.stat.mzxid, decoded });
      return decoded;
    }
    // A node that changed since is read again within the budget it already had.
    if (session) this.maybeRead(node, session, known !== undefined);
    return known?.decoded;
  }

  /**
   * Data read elsewhere (details, decoded view), with the related nodes read there too: decoded now, drawn again if
   * its meaning changed.
   */
  remember(connectionId: string, path: string, mzxid: bigint, data: Uint8Array, context?: DecodeContext): Decoded | undefined {
    if (context && context.size > 0) {
      const parent = this.contextOf(connectionId, parentOf(path));
      parent.values = context;
      parent.fresh = true;
    }
    const decoded = this.decode(connectionId, path, data);
    const before = this.known.get(connectionId)?.get(path);
    this.store(connectionId, path, { mzxid, decoded, ...(decodeContextPaths(path).length ? { data } : {}) });
    if (before?.decoded?.summary !== decoded?.summary || before?.decoded?.icon !== decoded?.icon) this.changed(connectionId, path);
    return decoded;
  }

  /** The parent's children were listed (again): what they share is read again when one of them is drawn. */
  listed(connectionId: string, parentPath: string): void {
    const context = this.contexts.get(connectionId)?.get(parentPath);
    if (context) context.fresh = false;
  }

  clear(connectionId: string): void {
    this.known.delete(connectionId);
    this.readsByParent.delete(connectionId);
    this.contexts.delete(connectionId);
  }

  private decode(connectionId: string, path: string, data: Uint8Array): Decoded | undefined {
    return decodeNode(path, data, this.t, this.contexts.get(connectionId)?.get(parentOf(path))?.values);
  }

  private store(connectionId: string, path: string, entry: Known): void {
    let byPath = this.known.get(connectionId);
    if (!byPath) this.known.set(connectionId, byPath = new Map());
    if (byPath.size >= MAX_REMEMBERED) byPath.clear();
    byPath.set(path, entry);
  }

  private contextOf(connectionId: string, parentPath: string): ParentContext {
    let byParent = this.contexts.get(connectionId);
    if (!byParent) this.contexts.set(connectionId, byParent = new Map());
    let context = byParent.get(parentPath);
    if (!context) byParent.set(parentPath, context = { values: new Map(), fresh: false, reading: false, charged: false });
    return context;
  }

  /** Takes `count` reads from the parent's budget; false when they do not fit. */
  private charge(connectionId: string, parentPath: string, count: number): boolean {
    let reads = this.readsByParent.get(connectionId);
    if (!reads) this.readsByParent.set(connectionId, reads = new Map());
    const used = reads.get(parentPath) ?? 0;
    if (used + count > READS_PER_PARENT) return false;
    reads.set(parentPath, used + count);
    return true;
  }

  /** The related nodes of `path`'s decoders, read once for all its siblings (the path pattern names the same ones). */
  private maybeReadContext(connectionId: string, path: string, session: ZkSession): void {
    const paths = decodeContextPaths(path);
    if (paths.length === 0) return;
    const parentPath = parentOf(path);
    const context = this.contextOf(connectionId, parentPath);
    if (context.fresh || context.reading) return;
    // Read again after a listing within the budget it already had, as a changed node is.
    if (!context.charged && !this.charge(connectionId, parentPath, paths.length)) return;
    context.charged = true;
    context.reading = true;
    readDecodeContext(path, sessionContextRead(session)).then((values) => {
      context.values = values;
      context.fresh = true;
      this.decodeChildrenAgain(connectionId, parentPath);
    }, () => undefined).finally(() => { context.reading = false; });
  }

  /** The parent's children whose data is known, decoded with the related nodes just read; changed ones drawn again. */
  private decodeChildrenAgain(connectionId: string, parentPath: string): void {
    const byPath = this.known.get(connectionId);
    if (!byPath) return;
    for (const [path, entry] of byPath) {
      if (!entry.data || parentOf(path) !== parentPath) continue;
      const decoded = this.decode(connectionId, path, entry.data);
      // Stored even when the line reads the same: the tooltip's exact figures may differ.
      byPath.set(path, { ...entry, decoded });
      if (decoded?.summary !== entry.decoded?.summary || decoded?.icon !== entry.decoded?.icon) this.changed(connectionId, path);
    }
  }

  private maybeRead(node: ZnodeNode, session: ZkSession, again: boolean): void {
    const key = `${node.connectionId}\u0000${node.path}`;
    if (this.reading.has(key) || node.stat.dataLength > MAX_DATA_BYTES || !mightDecode(node.path)) return;
    if (!again && !this.charge(node.connectionId, parentOf(node.path), 1)) return;
    this.reading.add(key);
    session.getData(node.path).then(
      ({ data, stat }) => this.remember(node.connectionId, node.path, stat.mzxid, data),
      () => undefined, // gone or not readable: the node is shown as it is
    ).finally(() => this.reading.delete(key));
  }
}
