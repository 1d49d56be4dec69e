// The differences between two snapshots, worked out without a server (the re-check of what may have changed
// meanwhile is recheck.ts). Each difference is about one relative path; one node may have several.
import type { AclEntry } from '../protocol/writes';
import type { NodeKind } from '../stat';
import { formatPermissions } from '../write/aclFormat';
import { withoutDigestHashes } from './hiddenDigest';
import { anyGlob, parsePathGlob } from '../pathGlob';
import { NodeSnapshot, sortPaths, TreeSnapshot } from './snapshot';

export type DifferenceKind = 'onlyLeft' | 'onlyRight' | 'data' | 'acl' | 'mode' | 'changed';

/** What a difference shows of a node on one side. */
export interface NodeFacts {
  /** Bytes of data; null when the node has no data at all. */
  dataLength: number | null;
  kind: NodeKind;
  /** ACL entries as `scheme:id:perms`, when read. */
  acl?: string[];
}

export interface Difference {
  /** Relative to each side's root ("/" is the root). */
  path: string;
  kind: DifferenceKind;
  left?: NodeFacts;
  right?: NodeFacts;
  /** A `data` difference: both sides' bytes (null: no data), to show them side by side. */
  data?: { left: Buffer | null; right: Buffer | null };
}

export interface CompareOptions {
  /** Leave ephemeral nodes out on both sides (they belong to sessions). */
  ignoreEphemeral?: boolean;
  ignoreAcls?: boolean;
  /** Globs over relative paths whose data is not compared. */
  ignoreData?: readonly string[];
}

export function aclText(acl: readonly AclEntry[]): string[] {
  return acl.map((a) => `${a.scheme}:${a.id}:${formatPermissions(a.perms)}`).sort();
}

export function factsOf(node: NodeSnapshot): NodeFacts {
  return { dataLength: node.data === null ? null : node.data.length, kind: node.kind, ...(node.acl ? { acl: aclText(node.acl) } : {}) };
}

function sameData(left: Buffer | null, right: Buffer | null, nullIsEmpty: boolean): boolean {
  if (left === null || right === null) {
    if (nullIsEmpty) return (left?.length ?? 0) === (right?.length ?? 0);
    return left === right;
  }
  return left.equals(right);
}

function sameAclText(left: string[], right: string[]): boolean {
  // Where the server hid a digest hash on either side, the entries can only be compared by user and permissions.
  if ([...left, ...right].some((entry) => /^digest:[^:]*:x:/.test(entry))) [left, right] = [withoutDigestHashes(left), withoutDigestHashes(right)];
  return left.length === right.length && left.every((entry, i) => entry === right[i]);
}

/**
 * Differences in path order. An export cannot tell null data from empty data, so they count as equal when either
 * side is an export. ACLs are compared only where both sides know them.
 */
export function diffSnapshots(left: TreeSnapshot, right: TreeSnapshot, options: CompareOptions = {}): Difference[] {
  const skipData = anyGlob((options.ignoreData ?? []).map(parsePathGlob));
  const nullIsEmpty = left.source === 'export' || right.source === 'export';
  const kept = (node: NodeSnapshot | undefined) => node && !(options.ignoreEphemeral && node.kind === 'ephemeral') ? node : undefined;
  const paths = new Set([...left.nodes.keys(), ...right.nodes.keys()]);
  const differences: Difference[] = [];
  for (const path of sortPaths(paths)) {
    const l = kept(left.nodes.get(path));
    const r = kept(right.nodes.get(path));
    if (!l && !r) continue;
    if (!r) {
      differences.push({ path, kind: 'onlyLeft', left: factsOf(l!) });
      continue;
    }
    if (!l) {
      differences.push({ path, kind: 'onlyRight', right: factsOf(r) });
      continue;
    }
    const facts = { left: factsOf(l), right: factsOf(r) };
    if (!skipData(path) && !sameData(l.data, r.data, nullIsEmpty)) differences.push({ path, kind: 'data', ...facts, data: { left: l.data, right: r.data } });
    if (!options.ignoreAcls && facts.left.acl && facts.right.acl && !sameAclText(facts.left.acl, facts.right.acl)) {
      differences.push({ path, kind: 'acl', ...facts });
    }
    if (l.kind !== r.kind) differences.push({ path, kind: 'mode', ...facts });
  }
  return differences;
}
