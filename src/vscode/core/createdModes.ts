// The mode of every node created in this window, per connection: ZooKeeper 3.8 reports ephemeralOwner 0 for
// container and TTL nodes, so their kind cannot be read back from a Stat. Keyed by path and czxid, so a node
// deleted and created again by someone else is not mistaken for ours.
import type { CreateMode } from '../../zk/write';
import type { NodeKind, ZnodeStat } from '../../zk/stat';

export class CreatedModes {
  private readonly byConnection = new Map<string, Map<string, { mode: CreateMode; czxid: bigint }>>();

  remember(connectionId: string, path: string, mode: CreateMode, stat: Pick<ZnodeStat, 'czxid'>): void {
    let nodes = this.byConnection.get(connectionId);
    if (!nodes) this.byConnection.set(connectionId, nodes = new Map());
    nodes.set(path, { mode, czxid: stat.czxid });
  }

  mode(connectionId: string, path: string, stat: Pick<ZnodeStat, 'czxid'>): CreateMode | undefined {
    const known = this.byConnection.get(connectionId)?.get(path);
    return known && known.czxid === stat.czxid ? known.mode : undefined;
  }

  /** The kind to show for a node this window created as a container or TTL node; undefined otherwise. */
  kind(connectionId: string, path: string, stat: Pick<ZnodeStat, 'czxid'>): NodeKind | undefined {
    const mode = this.mode(connectionId, path, stat);
    return mode === 'container' ? 'container' : mode === 'ttl' || mode === 'ttlSequential' ? 'ttl' : undefined;
  }
}
