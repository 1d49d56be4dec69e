// Import, step 1 (dry run): reads every target node once (pipelined, bounded) and says what importing would do
// to each — create it, change its data, or leave it alone — before anything is written. Nothing is written here.
import { isZkError } from '../errors';
import * as ops from '../protocol/operations';
import * as writes from '../protocol/writes';
import type { ZkSession } from '../session/session';
import { mapBounded } from '../timeouts';
import { checkRequestSize, checkTarget, GuardOptions } from '../write/guard';
import { Refusal, serverFailure, WriteFailure } from '../write/outcome';
import { AclEntry } from '../protocol/writes';
import { isPermissionsProblem, parsePermissions } from '../write/aclFormat';
import { decodeData, ExportDocument, ExportedNode } from './exportFormat';

export type ImportAction = 'create' | 'update' | 'unchanged' | 'skip';

export interface ImportEntry {
  /** The target path (relocated under `targetRoot` when given). */
  path: string;
  action: ImportAction;
  data: Buffer;
  /** For `update`: the version seen, so the write fails (badVersion) if the node changes before execution. */
  version?: number;
  /** For `skip`: why (ephemeral in the export, invalid or protected path, data too large, unreadable). */
  reason?: Refusal | { code: 'ephemeral' } | WriteFailure;
  /** With `applyAcls`: the exported ACL differs from the node's (or the node is created): set after every write. */
  acl?: { from?: AclEntry[]; to: AclEntry[]; aversion: number };
}

export interface ImportPlan {
  sourceRoot: string;
  targetRoot: string;
  /** In the export's order (parents first). */
  entries: ImportEntry[];
  counts: Record<ImportAction, number>;
  /** The dry run could not finish (connection lost, ...): do not execute. */
  error?: WriteFailure;
  cancelled: boolean;
}

export interface ImportPlanOptions {
  /** Put the export's root here instead of where it was exported from. */
  targetRoot?: string;
  window?: number;
  signal?: AbortSignal;
  onProgress?: (progress: { checked: number; total: number }) => void;
  guard?: GuardOptions;
  /** Re-apply the exported ACLs (`acl` of each node) where they differ from the target's. */
  applyAcls?: boolean;
}

/** The exported ACL as entries; undefined when the export has none for the node or a permission letter is unknown. */
export function exportedAcl(node: ExportedNode): AclEntry[] | undefined {
  if (!node.acl?.length) return undefined;
  const entries: AclEntry[] = [];
  for (const a of node.acl) {
    const perms = parsePermissions(a.perms);
    if (isPermissionsProblem(perms) || typeof a.scheme !== 'string' || typeof a.id !== 'string') return undefined;
    entries.push({ scheme: a.scheme, id: a.id, perms });
  }
  return entries;
}

const sameAcl = (a: readonly AclEntry[], b: readonly AclEntry[]) => a.length === b.length &&
  a.every((x) => b.some((y) => x.scheme === y.scheme && x.id === y.id && x.perms === y.perms));

export function relocate(path: string, sourceRoot: string, targetRoot: string): string {
  if (sourceRoot === targetRoot) return path;
  const rest = path.slice(sourceRoot === '/' ? 0 : sourceRoot.length);
  if (targetRoot === '/') return rest === '' ? '/' : rest;
  return rest === '/' ? targetRoot : targetRoot + rest;
}

export async function planImport(session: ZkSession, doc: ExportDocument, options: ImportPlanOptions = {}): Promise<ImportPlan> {
  const targetRoot = options.targetRoot ?? doc.root;
  const guard = options.guard ?? { readOnly: false };
  const plan: ImportPlan = {
    sourceRoot: doc.root, targetRoot, entries: [], cancelled: false,
    counts: { create: 0, update: 0, unchanged: 0, skip: 0 },
  };
  const rootProblem = checkTarget(targetRoot, { allowRoot: true });
  let checked = 0;
  await mapBounded(doc.nodes, options.window ?? 256, async (node, index) => {
    if (plan.error || plan.cancelled) return;
    if (options.signal?.aborted) {
      plan.cancelled = true;
      return;
    }
    const path = relocate(node.path, doc.root, targetRoot);
    const data = decodeData(node);
    const entry: ImportEntry = { path, action: 'skip', data };
    plan.entries[index] = entry;
    // The target root itself may be "/" (its data is never changed); everything else must be writable.
    const refusal = rootProblem ?? (path === '/' ? { code: 'protectedPath' as const } : checkTarget(path)) ??
      checkRequestSize(writes.createBody(session.channel, { path, data, acl: writes.OPEN_ACL, flags: 0 }).length, data.length, guard);
    if (node.ephemeral) entry.reason = { code: 'ephemeral' };
    else if (refusal) entry.reason = refusal;
    else {
      try {
        const current = await session.request(ops.getData(session.channel, path), 'getData', path);
        entry.action = current.data.equals(data) ? 'unchanged' : 'update';
        entry.version = current.stat.version;
        const wanted = options.applyAcls ? exportedAcl(node) : undefined;
        if (wanted) {
          const now = await session.request(writes.getAcl(session.channel, path), 'getACL', path);
          if (!sameAcl(now.acl, wanted)) entry.acl = { from: now.acl, to: wanted, aversion: now.stat.aversion };
        }
      } catch (error) {
        const wanted = options.applyAcls ? exportedAcl(node) : undefined;
        if (isZkError(error, 'noNode')) {
          entry.action = 'create';
          // Created open, then given its ACL once every node is written (a closed parent would refuse its children).
          if (wanted && !sameAcl(wanted, writes.OPEN_ACL)) entry.acl = { to: wanted, aversion: 0 };
        }
        else if (isZkError(error, 'noAuth')) entry.reason = serverFailure(error, 'getData', path);
        else plan.error = serverFailure(error, 'getData', path);
      }
    }
    checked++;
    options.onProgress?.({ checked, total: doc.nodes.length });
  });
  plan.entries = plan.entries.filter((e) => e !== undefined);
  for (const entry of plan.entries) plan.counts[entry.action]++;
  return plan;
}
