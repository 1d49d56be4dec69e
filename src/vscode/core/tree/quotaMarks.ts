// The quotas of each connection (zkCli's /zookeeper/quota/<path>/zookeeper_limits and zookeeper_stats), read in
// one walk of /zookeeper/quota when the tree first draws a node of the connection, and again after a refresh or a
// quota command. The tree marks nodes over a soft limit and shows limits and usage in tooltips.
import type { ZkSession } from '../../../zk/session/session';
import { formatStatsTrack, LIMIT_NODE, QUOTA_ROOT, QuotaInfo, readQuota } from '../../../zk/tree/quota';

/** Every quota under /zookeeper/quota, by the path it limits. */
export async function readAllQuotas(session: ZkSession, maxNodes = 10000): Promise<Map<string, QuotaInfo>> {
  const found = new Map<string, QuotaInfo>();
  const pending = [QUOTA_ROOT];
  let visited = 0;
  while (pending.length > 0 && visited++ < maxNodes) {
    const folder = pending.shift() as string;
    let names: string[];
    try {
      names = (await session.getChildren(folder)).children;
    } catch {
      continue; // gone meanwhile, or not readable
    }
    if (names.includes(LIMIT_NODE)) {
      const path = folder === QUOTA_ROOT ? '/' : folder.slice(QUOTA_ROOT.length);
      const quota = await readQuota(session, path).catch(() => undefined);
      if (quota) found.set(path, quota);
    }
    for (const name of names) if (name !== LIMIT_NODE && name !== 'zookeeper_stats') pending.push(`${folder}/${name}`);
  }
  return found;
}

export class QuotaMarks {
  private readonly quotas = new Map<string, Map<string, QuotaInfo>>();
  private readonly loading = new Map<string, Promise<void>>();

  /** `changed` hears the paths whose quota came, went or moved: only those nodes are drawn again. */
  constructor(private readonly changed: (connectionId: string, paths: string[]) => void) {}

  /** The quota on `path`, if known; starts reading the connection's quotas when they are not known yet. */
  get(connectionId: string, session: ZkSession | undefined, path: string): QuotaInfo | undefined {
    const known = this.quotas.get(connectionId);
    if (!known && session) void this.load(connectionId, session);
    return known?.get(path);
  }

  /**
   * Reads the connection's quotas again (after a refresh or a quota change) and redraws the nodes whose quota
   * differs. Redrawing more would cost more than time: VS Code forgets a redrawn subtree's rows until it has them
   * again, and a menu opened on one of them meanwhile loses its node.
   */
  load(connectionId: string, session: ZkSession): Promise<void> {
    const pending = this.loading.get(connectionId);
    if (pending) return pending;
    const work = readAllQuotas(session).then((found) => {
      const before = this.quotas.get(connectionId) ?? new Map<string, QuotaInfo>();
      this.quotas.set(connectionId, found);
      const paths = [...new Set([...before.keys(), ...found.keys()])].filter((path) => quotaText(before.get(path)) !== quotaText(found.get(path)));
      if (paths.length > 0) this.changed(connectionId, paths);
    }, () => undefined).finally(() => this.loading.delete(connectionId));
    this.loading.set(connectionId, work);
    return work;
  }

  clear(connectionId: string): void {
    this.quotas.delete(connectionId);
  }
}

function quotaText(quota: QuotaInfo | undefined): string | undefined {
  return quota && `${formatStatsTrack(quota.limits)} ${formatStatsTrack(quota.usage)}`;
}
