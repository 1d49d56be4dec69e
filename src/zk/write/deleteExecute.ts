// Step 2 of a recursive delete: executes a confirmed plan, deepest first, in multi batches. Only the plan's
// nodes are deleted, each at the version the preview saw (unless told otherwise). A node that cannot go (it gained
// a child, changed, or we lack permission) is reported with its reason and its ancestors are left alone; a node
// someone else already deleted counts as done. After a lost connection the report says so, and running the same
// plan again finishes the job: nodes already gone are recognized in one pipelined round of exists per batch.
import { ErrorCode, ZkError } from '../errors';
import { parentPath } from '../paths';
import { multi, MultiOp } from '../protocol/multi';
import * as ops from '../protocol/operations';
import type { ZkSession } from '../session/session';
import type { DeletePlan } from './deletePlan';
import { checkTarget, checkWritable, DEFAULT_MAX_REQUEST_BYTES, GuardOptions } from './guard';
import { refused, serverFailure, WriteFailure } from './outcome';

export interface DeleteExecution {
  root: string;
  planned: number;
  deleted: string[];
  /** Gone before we got to them (someone else, or our own batch applied before a lost connection). */
  alreadyGone: string[];
  /** What could not be deleted and why (notEmpty with newChildren, badVersion, noAuth, childNotDeleted, ...). */
  notDeleted: WriteFailure[];
  /** Plan nodes not attempted, or whose batch got no answer: run the plan again to finish them. */
  remaining: number;
  cancelled: boolean;
  /** The lost connection / expired session / timeout that stopped the run. */
  interrupted?: WriteFailure;
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number }) => void;
  /** Most deletes per multi (default 500; also kept well under jute.maxbuffer). */
  batchSize?: number;
  /** Delete each node only at the version the preview saw (default true). */
  checkVersions?: boolean;
}

const MAX_NEW_CHILDREN = 100;
/** Bytes a delete op takes in a multi besides its path: MultiHeader (4+1+4), path length (4), version (4). */
const OP_OVERHEAD = 17;

type Op = { path: string; version: number };

export async function executeDeletePlan(session: ZkSession, plan: DeletePlan, guard: GuardOptions, options: ExecuteOptions = {}): Promise<{ ok: true; report: DeleteExecution } | { ok: false; failure: WriteFailure }> {
  const refusal = checkWritable(guard) ?? checkTarget(plan.root) ?? (plan.complete ? undefined : { code: 'incompletePlan' as const });
  if (refusal) return refused('delete', plan.root, refusal);
  const report: DeleteExecution = { root: plan.root, planned: plan.count, deleted: [], alreadyGone: [], notDeleted: [], remaining: 0, cancelled: false };
  const planned = new Set(plan.paths);
  /** Plan nodes that must stay because something below them stays: the child that blocks each. */
  const blocked = new Map<string, string>();
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const maxBytes = Math.floor((guard.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES) / 2);
  const checkVersions = options.checkVersions ?? true;
  const total = plan.paths.length;

  const keep = (path: string, child: string) => {
    const parent = parentPath(path);
    if (parent !== undefined && planned.has(parent) && !blocked.has(parent)) blocked.set(parent, child);
  };
  const leaveAlone = (failure: WriteFailure) => {
    report.notDeleted.push(failure);
    keep(failure.path, failure.path);
  };

  let index = 0;
  while (index < total) {
    if (options.signal?.aborted) {
      report.cancelled = true;
      break;
    }
    const batch: Op[] = [];
    let bytes = 0;
    while (index < total && batch.length < batchSize && bytes < maxBytes) {
      const path = plan.paths[index];
      const version = checkVersions ? plan.versions[index] : -1;
      index++;
      const child = blocked.get(path);
      if (child !== undefined) leaveAlone({ code: 'childNotDeleted', child, operation: 'delete', path });
      else {
        batch.push({ path, version });
        bytes += OP_OVERHEAD + Buffer.byteLength(path);
      }
    }
    const lost = await runBatch(session, batch, planned, blocked, report, leaveAlone);
    if (lost) {
      report.interrupted = lost.failure;
      report.remaining = lost.undone + (total - index);
      break;
    }
    options.onProgress?.({ done: report.deleted.length + report.alreadyGone.length + report.notDeleted.length, total });
  }
  if (report.cancelled) report.remaining = total - index;
  return { ok: true, report };
}

/** Deletes one batch, dropping the ops that cannot succeed until the rest goes through. */
async function runBatch(
  session: ZkSession, batch: Op[], planned: Set<string>, blocked: Map<string, string>, report: DeleteExecution,
  leaveAlone: (failure: WriteFailure) => void,
): Promise<{ failure: WriteFailure; undone: number } | undefined> {
  while (batch.length > 0) {
    let reply;
    try {
      const request: MultiOp[] = batch.map((op) => ({ type: 'delete', path: op.path, version: op.version }));
      reply = await session.request(multi(session.channel, request), 'multi', batch[0].path);
    } catch (error) {
      return { failure: serverFailure(error, 'delete', batch[0].path), undone: batch.length };
    }
    if (reply.ok) {
      for (const op of batch) report.deleted.push(op.path);
      return undefined;
    }
    const at = reply.results.findIndex((r) => !r.ok && r.err !== 0 && r.err !== ErrorCode.runtimeInconsistency);
    const culprit = batch[Math.max(0, at)];
    const err = at >= 0 && !reply.results[at].ok ? (reply.results[at] as { err: number }).err : ErrorCode.systemError;
    if (err === ErrorCode.noNode) {
      // Gone already: find every gone node of the batch in one pipelined round, not one multi per node.
      let present: boolean[];
      try {
        present = await Promise.all(batch.map((op) => session.request(ops.exists(session.channel, op.path), 'exists', op.path).then((s) => s !== undefined)));
      } catch (error) {
        return { failure: serverFailure(error, 'delete', culprit.path), undone: batch.length };
      }
      const left = batch.filter((op, i) => {
        if (!present[i]) report.alreadyGone.push(op.path);
        return present[i];
      });
      if (left.length === batch.length) leaveAlone(serverFailure(ZkError.fromCode(err, 'delete', culprit.path), 'delete', culprit.path));
      batch = left.length === batch.length ? batch.filter((op) => op !== culprit) : left;
      continue;
    }
    const failure = serverFailure(ZkError.fromCode(err, 'delete', culprit.path), 'delete', culprit.path);
    if (err === ErrorCode.notEmpty) failure.newChildren = await newChildrenOf(session, culprit.path, planned);
    leaveAlone(failure);
    batch = batch.filter((op) => op !== culprit);
    // Its ancestors later in this batch must stay too.
    for (let path = parentPath(culprit.path), child = culprit.path; path !== undefined && blocked.has(path); child = path, path = parentPath(path)) {
      const i = batch.findIndex((op) => op.path === path);
      if (i < 0) break;
      batch.splice(i, 1);
      leaveAlone({ code: 'childNotDeleted', child, operation: 'delete', path });
    }
  }
  return undefined;
}

/** Children of `path` that the plan does not know: created after the preview, to be left alone and reported. */
async function newChildrenOf(session: ZkSession, path: string, planned: Set<string>): Promise<string[]> {
  try {
    const { children } = await session.getChildren(path);
    const prefix = path === '/' ? '/' : `${path}/`;
    return children.map((name) => prefix + name).filter((child) => !planned.has(child)).slice(0, MAX_NEW_CHILDREN);
  } catch {
    return [];
  }
}
