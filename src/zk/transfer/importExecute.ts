// Import, step 2: applies a dry-run plan — creates (parents first: one session's requests are applied in order)
// and data updates at the version the dry run saw — pipelined with a bounded window. Idempotent: a node that
// already holds the wanted data counts as done whatever the plan said, so running the same plan again after a
// lost connection finishes the job without duplicating or overwriting anything.
import { isZkError } from '../errors';
import * as ops from '../protocol/operations';
import * as writes from '../protocol/writes';
import type { ZkSession } from '../session/session';
import { mapBounded } from '../timeouts';
import { checkWritable, GuardOptions } from '../write/guard';
import { isIndeterminate, isSessionGone, refused, serverFailure, WriteFailure } from '../write/outcome';
import type { ImportEntry, ImportPlan } from './importPlan';

export interface ImportReport {
  created: string[];
  updated: string[];
  /** Already held the wanted data (left alone by the plan, or done by an earlier, interrupted run). */
  unchanged: string[];
  /** Skipped by the plan (with its reason there). */
  skipped: number;
  /** Nodes given their exported ACL (plans made with `applyAcls`). */
  aclsSet: string[];
  /** Changed by someone else since the dry run (badVersion; nodeExists with other data), or refused by the server. */
  failed: WriteFailure[];
  /** Entries not applied, or without an answer, because the run was interrupted or cancelled: run it again. */
  remaining: number;
  cancelled: boolean;
  interrupted?: WriteFailure;
}

export interface ImportExecuteOptions {
  window?: number;
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number }) => void;
}

export async function executeImport(session: ZkSession, plan: ImportPlan, guard: GuardOptions, options: ImportExecuteOptions = {}): Promise<{ ok: true; report: ImportReport } | { ok: false; failure: WriteFailure }> {
  const refusal = checkWritable(guard) ?? (plan.error || plan.cancelled ? { code: 'incompletePlan' as const } : undefined);
  if (refusal) return refused('import', plan.targetRoot, refusal);
  const report: ImportReport = { created: [], updated: [], unchanged: [], skipped: 0, aclsSet: [], failed: [], remaining: 0, cancelled: false };
  const total = plan.entries.length;
  let done = 0;
  const stopped = () => report.interrupted !== undefined || report.cancelled;

  /** Whether `path` holds `data` now (after a nodeExists or badVersion: maybe our own earlier write). */
  const holds = async (path: string, data: Buffer) => {
    try {
      return (await session.request(ops.getData(session.channel, path), 'getData', path)).data.equals(data);
    } catch {
      return false;
    }
  };

  const apply = async (entry: ImportEntry) => {
    if (entry.action === 'skip') return void report.skipped++;
    if (entry.action === 'unchanged') return void report.unchanged.push(entry.path);
    if (options.signal?.aborted) report.cancelled = true;
    if (stopped()) return void report.remaining++;
    const operation = entry.action === 'create' ? 'create' : 'setData';
    try {
      if (entry.action === 'create') {
        await session.request(writes.create(session.channel, { path: entry.path, data: entry.data, acl: writes.OPEN_ACL, flags: 0 }), 'create', entry.path);
        report.created.push(entry.path);
      } else {
        await session.request(writes.setData(session.channel, entry.path, entry.data, entry.version ?? -1), 'setData', entry.path);
        report.updated.push(entry.path);
      }
    } catch (error) {
      const failure = serverFailure(error, operation, entry.path);
      if (isIndeterminate(failure) || isSessionGone(failure)) {
        report.interrupted ??= failure;
        report.remaining++;
      } else if (report.interrupted) {
        // Sent after the connection came back, behind a write that was lost: the next run settles it.
        report.remaining++;
      } else if (isZkError(error, 'nodeExists', 'badVersion') && await holds(entry.path, entry.data)) {
        report.unchanged.push(entry.path);
      } else report.failed.push(failure);
    }
    options.onProgress?.({ done: ++done, total });
  };

  await mapBounded(plan.entries, Math.max(1, options.window ?? 256), apply);
  // ACLs last: every node exists and holds its data by now, and a parent closed by its ACL no longer matters.
  const written = new Set([...report.created, ...report.updated, ...report.unchanged]);
  const withAcl = plan.entries.filter((e) => e.acl && written.has(e.path));
  await mapBounded(withAcl, Math.max(1, options.window ?? 256), async (entry) => {
    if (!entry.acl || stopped()) return void report.remaining++;
    try {
      await session.request(writes.setAcl(session.channel, entry.path, entry.acl.to, entry.acl.aversion), 'setACL', entry.path);
      report.aclsSet.push(entry.path);
    } catch (error) {
      const failure = serverFailure(error, 'setACL', entry.path);
      if (isIndeterminate(failure) || isSessionGone(failure)) {
        report.interrupted ??= failure;
        report.remaining++;
      } else report.failed.push(failure);
    }
  });
  return { ok: true, report };
}
