// The 11 fields of a znode's Stat, kept exact: zxids and the ephemeral owner are 64-bit, so they are bigints.
// protocol/statReader.ts reads them off the wire.

export interface ZnodeStat {
  czxid: bigint;
  mzxid: bigint;
  ctime: number;
  mtime: number;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  dataLength: number;
  numChildren: number;
  pzxid: bigint;
}

export type NodeKind = 'persistent' | 'ephemeral' | 'container' | 'ttl';

/**
 * Long.MIN_VALUE: the ephemeralOwner ZooKeeper stores for container nodes. Servers since 3.5.4 hide these marks
 * from clients (the Stat they send says 0 for containers and TTL nodes, measured on 3.8.0), so `nodeKind` can
 * tell them only on older servers; the VS Code layer remembers the mode of the nodes it created itself.
 */
export const CONTAINER_OWNER = 0x8000000000000000n;
/** The top byte a TTL node's ephemeralOwner carries (EphemeralType's extended mark); the low bits are the TTL. */
export const TTL_MARK = 0xff00000000000000n;

export function nodeKind(stat: Pick<ZnodeStat, 'ephemeralOwner'>): NodeKind {
  const owner = stat.ephemeralOwner;
  if (owner === 0n) return 'persistent';
  if (owner === CONTAINER_OWNER) return 'container';
  if ((owner & TTL_MARK) === TTL_MARK) return 'ttl';
  return 'ephemeral';
}

/** What a server tells clients of an owner (DataNode.copyStat): a session's id, but 0 for containers and TTL nodes. */
export function clientEphemeralOwner(owner: bigint): bigint {
  return nodeKind({ ephemeralOwner: owner }) === 'ephemeral' ? owner : 0n;
}

/** The time-to-live in ms of a TTL node (the low 56 bits of its ephemeralOwner). */
export function ttlMillis(stat: Pick<ZnodeStat, 'ephemeralOwner'>): number | undefined {
  return nodeKind(stat) === 'ttl' ? Number(stat.ephemeralOwner & ~TTL_MARK) : undefined;
}

/** `0x` + hex, unpadded, as ZooKeeper's own tools print zxids and session ids. */
export function hex(value: bigint): string {
  return '0x' + BigInt.asUintN(64, value).toString(16);
}

/** A session id given as a Buffer (node-zookeeper-client) or bigint, as exact hex. */
export function sessionIdHex(id: Buffer | bigint): string {
  return hex(typeof id === 'bigint' ? id : id.readBigUInt64BE(0));
}
