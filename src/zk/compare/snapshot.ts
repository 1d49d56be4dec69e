// What one side of a comparison or copy holds: every node of a subtree by its path relative to the subtree's root
// ("/" is the root itself, "/a/b" below it), read from a live server or from an export file.
import type { ErrorName } from '../errors';
import type { AclEntry } from '../protocol/writes';
import { NodeKind, ZnodeStat } from '../stat';

export interface NodeSnapshot {
  /** null: created without data (zkCli's `create /x`), which is not the same as zero-length data. */
  data: Buffer | null;
  /** Undefined when not read (ACLs ignored) or not known (an export written without it). */
  acl?: AclEntry[];
  /** What the server says: container and TTL nodes look persistent to clients of 3.5.4+ servers. */
  kind: NodeKind;
  /** Live sides only: the Stat read with the data, for version checks and the re-check. */
  stat?: ZnodeStat;
}

export type SideSource = 'live' | 'export';

export interface TreeSnapshot {
  source: SideSource;
  /** The absolute path of the subtree's root on its side. */
  root: string;
  /** Live sides keep the order read, where every parent comes before its children (see parentsFirst). */
  nodes: Map<string, NodeSnapshot>;
  /** The root did not exist (everything is on the other side only). */
  rootMissing: boolean;
  /** Relative paths seen changing while they were read (vanished after being listed, or Stats that moved between replies). */
  changed: Set<string>;
  /** Relative paths this session may not read (noAuth): the comparison is not whole. */
  unreadable: string[];
  cancelled: boolean;
  /** Why the read stopped before the end (connection lost, ...). */
  error?: { code: ErrorName; operation: string; path: string };
}

export function emptySnapshot(source: SideSource, root: string): TreeSnapshot {
  return { source, root, nodes: new Map(), rootMissing: false, changed: new Set(), unreadable: [], cancelled: false };
}

/** Whether the snapshot holds the whole subtree as it was (nothing unreadable, changing, cut short). */
export function isWhole(snapshot: TreeSnapshot): boolean {
  return !snapshot.cancelled && !snapshot.error && snapshot.unreadable.length === 0 && snapshot.changed.size === 0;
}

/** `/app/a/b` under `/app` → `/a/b`; the root itself → `/`. */
export function relativePath(path: string, root: string): string {
  if (root === '/') return path;
  const rest = path.slice(root.length);
  return rest === '' ? '/' : rest;
}

/** The inverse of relativePath. */
export function absolutePath(relative: string, root: string): string {
  if (root === '/') return relative;
  return relative === '/' ? root : root + relative;
}

/** Orders relative paths parents first, siblings by name (a pre-order walk). */
export function comparePaths(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] !== bs[i]) return as[i] < bs[i] ? -1 : 1;
  }
  return as.length - bs.length;
}

/**
 * The order of `sort(comparePaths)` without splitting paths on every comparison (100,000 paths: 1.7 million
 * comparisons). Each "/" becomes NUL, which sorts below every character and is never in a ZooKeeper path, so a
 * plain string comparison ends a name before any longer name it starts.
 */
export function sortPaths(paths: Iterable<string>): string[] {
  const keyed = Array.from(paths, (path) => ({ path, key: path.replace(/\//g, '\u0000') }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => entry.path);
}

/**
 * The snapshot's paths with every parent before its children: a live read already has them so (a node's children
 * are listed only once it is kept), an export is sorted. Saves sorting 100,000 paths where order is all that matters.
 */
export function parentsFirst(snapshot: TreeSnapshot): Iterable<string> {
  return snapshot.source === 'live' ? snapshot.nodes.keys() : sortPaths(snapshot.nodes.keys());
}

/** parentsFirst with each path's node: a live read's entries as they are, without a lookup per path. */
export function entriesParentsFirst(snapshot: TreeSnapshot): Iterable<[string, NodeSnapshot]> {
  if (snapshot.source === 'live') return snapshot.nodes.entries();
  return sortPaths(snapshot.nodes.keys()).map((path) => [path, snapshot.nodes.get(path)!]);
}

/** `items` ordered by their paths as sortPaths orders them (for showing; reversed: children before parents). */
export function inPathOrder<T extends { path: string }>(items: readonly T[], reversed = false): T[] {
  const byPath = new Map<string, T[]>();
  for (const item of items) {
    const same = byPath.get(item.path);
    if (same) same.push(item);
    else byPath.set(item.path, [item]);
  }
  const paths = sortPaths(byPath.keys());
  if (reversed) paths.reverse();
  return paths.flatMap((path) => byPath.get(path)!);
}
