// The ZooKeeper tree: connections as roots, children loaded lazily a page at a time, kept live by watches on
// expanded nodes only.
import * as vscode from 'vscode';
import { isZkError } from '../../../zk/errors';
import { sequenceNumber } from '../../../zk/tree/naturalOrder';
import { hex, nodeKind } from '../../../zk/stat';
import type { ConnectionManager } from '../connectionManager';
import type { ConnectionStore } from '../connectionStore';
import { LockQueueMarks } from './lockQueueMarks';
import { QuotaMarks } from './quotaMarks';
import { DecodedMarks } from './decodedMarks';
import { log } from '../../common/log';
import { describeError } from '../../common/failureTexts';
import { readAcl } from '../../common/aclText';
import { CreatedModes } from '../createdModes';
import { ConnectionTree, TreeSettings } from '../../../zk/tree/connectionTree';
import type { ChildListing } from '../../../zk/tree/childListing';
import { statTooltip } from './tooltip';
import { connectionItem, messageItem, pastRootItem, pastZnodeItem, showMoreItem, znodeItem } from './treeItems';
import { ConnectionNode, isPathNode, MessageNode, PastRootNode, PathNode, ShowMoreNode, TreeNode, ZnodeNode, type PastTreeOrigin } from '../../../zk/tree/treeNodes';
import type { BrowsedTree } from '../../../zk/tree/browsedTree';
import { PastTree } from '../../../zk/tree/pastTree';
import type { ReplayedTree } from '../../../zk/serverLogs/replayedTree';
import { forgetPastTreeId, newPastTreeId } from '../pastTargets';
import { literalTreeItem } from '../../common/literalTreeItem';
import { treeSettings } from '../settings';

const t = vscode.l10n.t;

export class ZnodeTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly roots = new Map<string, ConnectionNode>();
  private readonly trees = new Map<string, ConnectionTree>();
  /** Trees rebuilt from the servers' logs at a past moment, by their own ids, shown after the connections. */
  private readonly pastTrees = new Map<string, PastTree>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Nodes whose listed children look like a lock queue. */
  readonly lockQueues = new LockQueueMarks();
  /** Modes of the nodes created in this window (containers and TTL nodes look persistent in a 3.8 Stat). */
  readonly createdModes = new CreatedModes();
  /** The quotas of each connection (tooltips, and the mark of nodes over a soft limit). */
  readonly quotaMarks = new QuotaMarks((connectionId, paths) => this.redrawPaths(connectionId, paths));
  /** What known systems' nodes mean (Kafka brokers, Patroni members…): description, icon and tooltip. */
  readonly decodedMarks = new DecodedMarks(t, (connectionId, path) => this.redrawPaths(connectionId, [path]));

  constructor(private readonly store: ConnectionStore, private readonly connections: ConnectionManager) {
    this.subscriptions.push(
      store.onDidChange(() => this.changed.fire(undefined)),
      connections.onDidChange((id) => this.onConnectionChanged(id)),
      connections.onDidRenewSession((id) => this.onConnectionChanged(id, true)),
      // An expanded root would ask for its children again at once, and connect again: show it collapsed.
      connections.onDidDisconnect((id) => {
        this.roots.set(id, new ConnectionNode(id, (this.roots.get(id)?.generation ?? 0) + 1));
        this.changed.fire(undefined);
      }),
    );
  }

  // ---- TreeDataProvider ----

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return literalTreeItem(this.buildTreeItem(node));
  }

  private buildTreeItem(node: TreeNode): vscode.TreeItem {
    if (node instanceof PastRootNode) return pastRootItem(node, this.pastTrees.get(node.connectionId)?.listing('/'));
    if (node instanceof ZnodeNode && this.pastTrees.has(node.connectionId)) return pastZnodeItem(node, this.pastTrees.get(node.connectionId)?.listing(node.path));
    if (node instanceof ConnectionNode) {
      const saved = this.store.get(node.connectionId);
      const live = this.connections.get(node.connectionId);
      const item = connectionItem(node, saved ?? { id: node.connectionId, name: node.connectionId, connectString: '' },
        this.connections.state(node.connectionId), live?.session.serverAddress, live?.session.sessionId,
        this.trees.get(node.connectionId)?.listing('/'));
      return item;
    }
    if (node instanceof ZnodeNode) {
      return znodeItem(node, this.ownSession(node.connectionId), this.trees.get(node.connectionId)?.listing(node.path),
        this.lockQueues.get(node.connectionId, node.path), this.createdModes.kind(node.connectionId, node.path, node.stat),
        this.quotaMarks.get(node.connectionId, this.connections.get(node.connectionId)?.session, node.path),
        this.decodedMarks.get(node, this.connections.get(node.connectionId)?.session));
    }
    if (node instanceof ShowMoreNode) return showMoreItem(node);
    return messageItem(node);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return [...this.store.list().map((saved) => this.rootFor(saved.id)), ...[...this.pastTrees.values()].map((tree) => tree.root)];
    if (!isPathNode(node)) return [];
    const past = this.pastTrees.get(node.connectionId);
    if (past) return this.listedChildren(past, node).catch((error) => [new MessageNode(node, describeError(error), 'error')]);
    const live = this.connections.get(node.connectionId) ?? (await this.connections.connect(node.connectionId));
    if (!live) return [new MessageNode(node, t('Not connected. Use "Connect" to try again.'), 'warning')];
    const tree = this.treeFor(node.connectionId);
    if (!tree) return [];
    try {
      return await this.listedChildren(tree, node, (listing, entries) => {
        this.decodedMarks.listed(node.connectionId, node.path);
        // Redraw the node itself when its children turn out to look like a lock queue (or stop to).
        if (node instanceof ZnodeNode && !listing.filter && this.lockQueues.update(node.connectionId, node.path, entries.map((e) => e.name))) {
          setTimeout(() => this.changed.fire(node), 0);
        }
      });
    } catch (error) {
      if (isZkError(error, 'noNode')) {
        tree.collapse(node.path);
        if (node instanceof ZnodeNode) setTimeout(() => this.changed.fire(node.parent), 0);
        return [new MessageNode(node, t('{0} no longer exists.', node.path), 'warning')];
      }
      return [new MessageNode(node, describeError(error), 'error')];
    }
  }

  /** The shown page of a node's children, a "show more" row after it, or why none is shown (a filter's miss). */
  private async listedChildren(tree: BrowsedTree, node: PathNode, listed?: (listing: ChildListing<ZnodeNode>, entries: ZnodeNode[]) => void): Promise<TreeNode[]> {
    const listing = await tree.openListing(node);
    const entries = await listing.entries();
    listed?.(listing, entries);
    const nodes: TreeNode[] = [...entries];
    if (listing.hasMore) nodes.push(new ShowMoreNode(node, listing.matching - nodes.length, this.settings().pageSize));
    if (nodes.length === 0 && listing.filter) nodes.push(new MessageNode(node, t('No children match "{0}".', listing.filter.text), 'info'));
    return nodes;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node instanceof ConnectionNode ? undefined : node.parent;
  }

  async resolveTreeItem(item: vscode.TreeItem, node: TreeNode): Promise<vscode.TreeItem> {
    if (!(node instanceof ZnodeNode)) return item;
    const past = this.pastTrees.get(node.connectionId);
    if (past) {
      const acl = past.replayed.node(node.path)?.acl;
      item.tooltip = statTooltip(node.path, node.stat, sequenceNumber(node.name) !== undefined, undefined, false, { acl: acl && { entries: acl } });
      return literalTreeItem(item);
    }
    const live = this.connections.get(node.connectionId);
    const owner = nodeKind(node.stat) === 'ephemeral' ? hex(node.stat.ephemeralOwner) : undefined;
    // The ACL is read here, on hover (one getACL next to the owner lookup), never with the listing.
    const [client, acl] = await Promise.all([
      owner && live ? live.directory.clientAddress(owner).catch(() => undefined) : undefined,
      live ? readAcl(live.session, node.path).catch(() => undefined) : undefined,
    ]);
    const own = owner !== undefined && owner === live?.session.sessionId;
    item.tooltip = statTooltip(node.path, node.stat, sequenceNumber(node.name) !== undefined, client, own,
      { kind: this.createdModes.kind(node.connectionId, node.path, node.stat), acl, quota: this.quotaMarks.get(node.connectionId, live?.session, node.path),
        decoded: this.decodedMarks.get(node, live?.session) });
    return literalTreeItem(item);
  }

  // ---- used by commands and the view ----

  rootFor(connectionId: string): ConnectionNode {
    let root = this.roots.get(connectionId);
    if (!root) {
      root = new ConnectionNode(connectionId);
      this.roots.set(connectionId, root);
    }
    return root;
  }

  treeFor(connectionId: string): ConnectionTree | undefined {
    const live = this.connections.get(connectionId);
    if (!live) return undefined;
    let tree = this.trees.get(connectionId);
    if (!tree || tree.session !== live.session) {
      tree?.dispose();
      tree = new ConnectionTree(this.rootFor(connectionId), live.session, () => this.settings(), (n) => this.changed.fire(n), (m) => log().warn(m));
      this.trees.set(connectionId, tree);
    }
    return tree;
  }

  /** The tree a root's elements come from: a live connection's (once it has one) or a past moment's. */
  browsedTree(id: string): BrowsedTree | undefined {
    return this.pastTrees.get(id) ?? this.treeFor(id);
  }

  /** Shows a tree rebuilt at a past moment as a root of its own; answers its root. */
  openPast(origin: PastTreeOrigin, replayed: ReplayedTree): PastRootNode {
    const root = new PastRootNode(newPastTreeId(), origin);
    this.pastTrees.set(root.connectionId, new PastTree(root, replayed, () => this.settings()));
    this.changed.fire(undefined);
    return root;
  }

  pastTree(id: string): PastTree | undefined {
    return this.pastTrees.get(id);
  }

  closePast(id: string): void {
    const tree = this.pastTrees.get(id);
    if (!tree) return;
    tree.dispose();
    this.pastTrees.delete(id);
    forgetPastTreeId(id);
    this.changed.fire(undefined);
  }

  /** Re-reads a node (or a whole connection) and redraws it. */
  async refresh(node: PathNode): Promise<void> {
    if (this.pastTrees.has(node.connectionId)) return this.changed.fire(node);
    const tree = this.treeFor(node.connectionId);
    const session = this.connections.get(node.connectionId)?.session;
    if (session) void this.quotaMarks.load(node.connectionId, session);
    try {
      await tree?.refresh(node.path);
    } catch (error) {
      if (!isZkError(error, 'noNode')) throw error;
    }
    this.changed.fire(node);
  }

  refreshAll(): void {
    for (const tree of this.trees.values()) tree.dispose();
    this.trees.clear();
    this.changed.fire(undefined);
  }

  /** Redraws the nodes at `paths` that the tree shows (the others are drawn when they are shown). */
  private redrawPaths(connectionId: string, paths: string[]): void {
    const tree = this.trees.get(connectionId);
    for (const path of paths) {
      const node = tree?.nodeAt(path);
      if (node) this.changed.fire(node);
    }
  }

  redraw(node?: TreeNode): void {
    this.changed.fire(node);
  }

  onCollapsed(node: TreeNode): void {
    if (!isPathNode(node)) return;
    (this.pastTrees.get(node.connectionId) ?? this.trees.get(node.connectionId))?.collapse(node.path);
    // VS Code keeps a collapsed element's children and shows them again on expand without asking: announce a change
    // so it forgets them, and the next expand lists what the server has then (the watch was dropped with the collapse).
    this.changed.fire(node);
  }

  settings(): TreeSettings {
    return treeSettings();
  }

  private ownSession(connectionId: string): bigint | undefined {
    const id = this.connections.get(connectionId)?.session.sessionId;
    return id ? BigInt(id) : undefined;
  }

  private onConnectionChanged(id: string, renewed = false): void {
    const live = this.connections.get(id);
    const tree = this.trees.get(id);
    if (tree && (!live || renewed || tree.session !== live.session)) {
      this.quotaMarks.clear(id);
      this.decodedMarks.clear(id);
      tree.dispose();
      this.trees.delete(id);
    }
    this.changed.fire(this.rootFor(id));
  }

  dispose(): void {
    for (const tree of this.trees.values()) tree.dispose();
    for (const id of [...this.pastTrees.keys()]) this.closePast(id);
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}
