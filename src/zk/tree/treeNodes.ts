// Tree elements are plain objects (no fetching here): the provider keeps one instance per connection and path so
// that refresh events and reveal find the element VS Code already knows.
import type { ZnodeStat } from '../stat';

export class ConnectionNode {
  readonly kind = 'connection';
  readonly path = '/';
  /** `generation`: bumped when the user disconnects, so the root shows collapsed (a new tree item id). */
  constructor(readonly connectionId: string, readonly generation = 0) {}
}

/**
 * The root of a tree rebuilt from the servers' logs as it was at a moment: read-only, browsed like a connection.
 * Its `connectionId` is its own (never a saved connection's), so nothing live is ever reached through it.
 */
export class PastRootNode extends ConnectionNode {
  constructor(pastId: string, readonly of: PastTreeOrigin) {
    super(pastId);
  }
}

/** What a past tree is of: the saved connection, the subtree kept, and the moment (the zxid and its time). */
export interface PastTreeOrigin {
  connectionId: string;
  connectionName: string;
  root: string;
  zxid: bigint;
  /** The leader's time of that zxid (ms), when the logs hold it. */
  time?: number;
}

export class ZnodeNode {
  /** On the prototype, not in each of a wide node's 100,000 elements. */
  get kind(): 'znode' {
    return 'znode';
  }

  constructor(
    readonly connectionId: string,
    readonly path: string,
    readonly name: string,
    public stat: ZnodeStat,
    readonly parent: ConnectionNode | ZnodeNode,
  ) {}
}

export class ShowMoreNode {
  readonly kind = 'more';
  constructor(readonly parent: ConnectionNode | ZnodeNode, readonly remaining: number, readonly pageSize: number) {}
}

export class MessageNode {
  readonly kind = 'message';
  constructor(readonly parent: ConnectionNode | ZnodeNode, readonly text: string, readonly severity: 'info' | 'warning' | 'error') {}
}

/** A node that stands for a znode path (the connection node stands for `/`). */
export type PathNode = ConnectionNode | ZnodeNode;
export type TreeNode = PathNode | ShowMoreNode | MessageNode;

export function isPathNode(node: unknown): node is PathNode {
  return node instanceof ConnectionNode || node instanceof ZnodeNode;
}
