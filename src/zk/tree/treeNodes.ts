// Tree elements are plain objects (no fetching here): the provider keeps one instance per connection and path so
// that refresh events and reveal find the element VS Code already knows.
import type { ZnodeStat } from '../stat';

export class ConnectionNode {
  readonly kind = 'connection';
  readonly path = '/';
  /** `generation`: bumped when the user disconnects, so the root shows collapsed (a new tree item id). */
  constructor(readonly connectionId: string, readonly generation = 0) {}
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
