// The Ensemble view: per saved connection, each server's health as the servers report it (AdminServer, else
// four-letter words). Refreshed on a timer only while the view is visible; a connection is asked only once
// its element has been expanded.
import type { PreparedTls } from '../../zk/security/tlsSettings';
import type { Dialer } from '../../zk/tunnel/dialer';
import * as vscode from 'vscode';
import { getEnsembleStatus, ServerStatus } from '../../zk/servers/ensembleStatus';
import { ConfigMember, EnsembleConfig, ensembleMembers } from '../../zk/servers/ensembleConfig';
import { isConnectStringProblem, parseConnectString } from '../../zk/connectString';
import type { ConnectionStore } from '../core/connectionStore';
import { log } from '../common/log';
import { adminPortOf, ensembleRefreshMs } from '../core/settings';
import {
  connectionItem, detailItem, details, EnsembleConnectionNode, EnsembleDetailNode, EnsembleNode, EnsembleServerNode, serverItem,
} from './ensembleItems';
import { literalTreeItem } from '../common/literalTreeItem';

const t = vscode.l10n.t;

interface Fetched {
  at: number;
  statuses?: ServerStatus[];
  /** Members `/zookeeper/config` lists without a client address: known, not askable. */
  unaskable?: ConfigMember[];
  /** Members `/zookeeper/config` lists that the connect string does not name, and the user did not allow: not asked. */
  unnamed?: ConfigMember[];
  error?: string;
}

/** The membership a connection's live session reads from `/zookeeper/config`; undefined when not connected. */
export type ConfigReader = (connectionId: string) => Promise<EnsembleConfig | undefined>;

/** Which of the members the connect string does not name may be asked (see unnamedMembers.ts); `mayAsk`: the user may be asked. */
export type UnnamedMembersPolicy = (connectionId: string, connectionName: string, unnamed: readonly ConfigMember[], mayAsk: boolean) => Promise<string[]>;

export class EnsembleProvider implements vscode.TreeDataProvider<EnsembleNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EnsembleNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly roots = new Map<string, EnsembleConnectionNode>();
  private readonly fetched = new Map<string, Fetched>();
  private readonly inFlight = new Map<string, Promise<Fetched>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private abort = new AbortController();
  /** Counts timer refreshes (tests check that a hidden view does not poll). */
  refreshCount = 0;

  /**
   * `readConfig`: the ensemble's membership through the live session; `tlsOf`: the connection's TLS settings, so
   * the servers are asked over TLS/HTTPS like the session connects; `dialerOf`: the way to its servers (through
   * its SSH bastion, when it has one).
   */
  constructor(
    private readonly store: ConnectionStore,
    private readonly readConfig: ConfigReader = () => Promise.resolve(undefined),
    private readonly tlsOf: (connectionId: string) => Promise<PreparedTls | undefined> = () => Promise.resolve(undefined),
    private readonly dialerOf: (connectionId: string) => Promise<Dialer | undefined> = () => Promise.resolve(undefined),
    private readonly allowUnnamed: UnnamedMembersPolicy = () => Promise.resolve([]),
  ) {
    this.subscriptions.push(store.onDidChange(() => { this.fetched.clear(); this.changed.fire(undefined); }));
  }

  /** Starts the refresh timer while `view` is visible, stops it when hidden. */
  attach(view: vscode.TreeView<EnsembleNode>): vscode.Disposable {
    const update = () => this.setPolling(view.visible);
    update();
    return view.onDidChangeVisibility(update);
  }

  get polling(): boolean {
    return this.timer !== undefined;
  }

  setPolling(on: boolean): void {
    if (on && !this.timer) {
      this.timer = setInterval(() => void this.refresh(false), ensembleRefreshMs());
    } else if (!on && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Asks the servers of every connection shown again; `byUser`: the user asked (a timer's refresh raises no dialog). */
  async refresh(byUser = true): Promise<void> {
    this.refreshCount++;
    await Promise.all([...this.fetched.keys()].map(async (id) => {
      await this.fetch(id, true, byUser);
      this.changed.fire(this.rootFor(id));
    }));
  }

  rootFor(connectionId: string): EnsembleConnectionNode {
    let root = this.roots.get(connectionId);
    if (!root) {
      root = new EnsembleConnectionNode(connectionId);
      this.roots.set(connectionId, root);
    }
    return root;
  }

  getTreeItem(node: EnsembleNode): vscode.TreeItem {
    return literalTreeItem(this.buildTreeItem(node));
  }

  private buildTreeItem(node: EnsembleNode): vscode.TreeItem {
    if (node instanceof EnsembleConnectionNode) return connectionItem(node, this.store.get(node.connectionId));
    if (node instanceof EnsembleServerNode) return serverItem(node);
    return detailItem(node);
  }

  async getChildren(node?: EnsembleNode): Promise<EnsembleNode[]> {
    if (!node) return this.store.list().map((c) => this.rootFor(c.id));
    if (node instanceof EnsembleServerNode) return details(node);
    if (!(node instanceof EnsembleConnectionNode)) return [];
    const result = await this.fetch(node.connectionId, false, true);
    if (result.error) return [new EnsembleDetailNode(node, t('Cannot ask the servers'), result.error, 'error', 'error')];
    return [
      ...(result.statuses ?? []).map((s) => new EnsembleServerNode(node, s)),
      ...(result.unaskable ?? []).map((m) => new EnsembleDetailNode(node, t('server.{0} {1}:{2}', m.id, m.host, m.quorumPort),
        t('in /zookeeper/config without a client address: not asked'), 'question')),
      ...(result.unnamed ?? []).map((m) => new EnsembleDetailNode(node, t('server.{0} {1}', m.id, m.client ?? m.host),
        t('in /zookeeper/config, not in the connect string: not asked'), 'question')),
    ];
  }

  getParent(node: EnsembleNode): EnsembleNode | undefined {
    return node instanceof EnsembleConnectionNode ? undefined : node.parent;
  }

  private fetch(connectionId: string, fresh: boolean, byUser: boolean): Promise<Fetched> {
    const cached = this.fetched.get(connectionId);
    if (cached && !fresh) return Promise.resolve(cached);
    let pending = this.inFlight.get(connectionId);
    if (!pending) {
      pending = this.ask(connectionId, byUser).finally(() => this.inFlight.delete(connectionId));
      this.inFlight.set(connectionId, pending);
    }
    return pending;
  }

  private async ask(connectionId: string, byUser: boolean): Promise<Fetched> {
    const saved = this.store.get(connectionId);
    let result: Fetched;
    if (!saved) result = { at: Date.now(), error: t('No such connection.') };
    else {
      try {
        // Members beyond the connect string, where the servers keep a membership (3.5+; empty in standalone).
        const config = await this.readConfig(connectionId).catch(() => undefined);
        const parsed = parseConnectString(saved.connectString);
        const servers = isConnectStringProblem(parsed) ? [] : parsed.servers.map((s) => `${s.host}:${s.port}`);
        const allowed = await this.allowUnnamed(connectionId, saved.name, ensembleMembers(servers, config).unnamed, byUser);
        const { members, withoutClient, unnamed } = ensembleMembers(servers, config, allowed);
        const tls = await this.tlsOf(connectionId);
        const dialer = await this.dialerOf(connectionId);
        const statuses = await getEnsembleStatus(saved.connectString, { adminPort: adminPortOf(saved), timeoutMs: 3000, signal: this.abort.signal, members, tls, dialer });
        result = { at: Date.now(), statuses, unaskable: withoutClient, unnamed };
      } catch (error) {
        log().warn(`ensemble ${saved.name}: ${String(error)}`);
        result = { at: Date.now(), error: error instanceof Error ? error.message : String(error) };
      }
    }
    this.fetched.set(connectionId, result);
    return result;
  }

  dispose(): void {
    this.setPolling(false);
    this.abort.abort();
    this.abort = new AbortController();
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}
