// Copy and mirror, step 2: applies a plan in batched `multi` requests (each batch all or nothing), several in
// flight at once: one session's requests are applied in order, so a batch's parents were created by an earlier
// one. A batch the server refuses (a node changed since the plan: badVersion, nodeExists) is applied again op by
// op so only what changed is left out. Creates and data first, then a mirror's deletes (children first), then
// ACLs. After a lost connection nothing more is sent: plan and run again to finish (the new plan lists only
// what is left).
import { ErrorCode, ZkError } from '../errors';
import { multi, MultiOp } from '../protocol/multi';
import type { RawChannel } from '../protocol/rawChannel';
import * as writes from '../protocol/writes';
import type { ZkSession } from '../session/session';
import { mapBounded } from '../timeouts';
import { checkWritable, DEFAULT_MAX_REQUEST_BYTES, GuardOptions, REQUEST_HEADER_BYTES } from '../write/guard';
import { isIndeterminate, isSessionGone, refused, serverFailure, WriteFailure } from '../write/outcome';
import type { CopyPlan, CopyStep } from './copyPlan';

export interface CopyReport {
  created: number;
  updated: number;
  deleted: number;
  aclsSet: number;
  /** Refused because the node changed since the plan (badVersion, nodeExists, noNode) or by the server. */
  failed: WriteFailure[];
  /** Not applied (or no answer) because the run was interrupted or cancelled: plan and run again. */
  remaining: number;
  cancelled: boolean;
  interrupted?: WriteFailure;
}

export interface CopyExecuteOptions {
  /** Ops per multi (default 1000; fewer when the request would exceed the server's limit). */
  batchSize?: number;
  /** multi requests in flight (default 8). */
  window?: number;
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number }) => void;
}

const OPERATION: Record<CopyStep['action'], string> = { create: 'create', setData: 'setData', delete: 'delete', setAcl: 'setACL' };

function opOf(step: CopyStep): MultiOp {
  switch (step.action) {
    case 'create': return { type: 'create', path: step.path, data: step.data, acl: writes.OPEN_ACL, flags: writes.CreateFlags.persistent };
    case 'setData': return { type: 'setData', path: step.path, data: step.data, version: step.version };
    case 'delete': return { type: 'delete', path: step.path, version: step.version };
    case 'setAcl': throw new Error('setACL is not a multi op');
  }
}

/**
 * The bytes one op adds to a multi request: its 9-byte MultiHeader and its record (jute: 4-byte lengths before
 * strings and buffers), counted rather than serialized twice.
 */
export function copyOpBytes(channel: Pick<RawChannel, 'serverPath'>, step: CopyStep): number {
  const path = 4 + Buffer.byteLength(channel.serverPath(step.path));
  const data = (d: Buffer | null) => 4 + (d?.length ?? 0);
  switch (step.action) {
    case 'create': return 9 + path + data(step.data) + 4 + writes.OPEN_ACL.reduce((n, a) => n + 12 + Buffer.byteLength(a.scheme) + Buffer.byteLength(a.id), 0) + 4;
    case 'setData': return 9 + path + data(step.data) + 4;
    case 'delete': return 9 + path + 4;
    case 'setAcl': return 0;
  }
}

/** Consecutive batches of at most `size` ops whose multi request fits in `maxBytes`. */
function batches(session: ZkSession, steps: CopyStep[], size: number, maxBytes: number): CopyStep[][] {
  const result: CopyStep[][] = [];
  let current: CopyStep[] = [];
  let bytes = 0;
  // Each op costs its record plus a 9-byte MultiHeader; the closing header is 9 more.
  for (const step of steps) {
    const opBytes = copyOpBytes(session.channel, step);
    if (current.length > 0 && (current.length >= size || REQUEST_HEADER_BYTES + 9 + bytes + opBytes > maxBytes)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(step);
    bytes += opBytes;
  }
  if (current.length > 0) result.push(current);
  return result;
}

export async function executeCopy(session: ZkSession, plan: CopyPlan, guard: GuardOptions, options: CopyExecuteOptions = {}): Promise<{ ok: true; report: CopyReport } | { ok: false; failure: WriteFailure }> {
  const refusal = checkWritable(guard) ?? (plan.problem ? { code: 'incompletePlan' as const } : undefined);
  if (refusal) return refused(plan.mirror ? 'mirror' : 'copy', plan.targetRoot, refusal);
  const report: CopyReport = { created: 0, updated: 0, deleted: 0, aclsSet: 0, failed: [], remaining: 0, cancelled: false };
  const total = plan.writes.length + plan.deletes.length + plan.aclChanges.length;
  let done = 0;
  const progress = (n: number) => options.onProgress?.({ done: (done += n), total });
  const stopped = () => {
    if (options.signal?.aborted) report.cancelled = true;
    return report.cancelled || report.interrupted !== undefined;
  };
  const applied = (step: CopyStep) => {
    if (step.action === 'create') report.created++;
    else if (step.action === 'setData') report.updated++;
    else if (step.action === 'delete') report.deleted++;
    else report.aclsSet++;
  };
  const failedWith = (error: unknown, step: CopyStep) => {
    const failure = serverFailure(error, OPERATION[step.action], step.path);
    if (isIndeterminate(failure) || isSessionGone(failure)) {
      report.interrupted ??= failure;
      report.remaining++;
    } else if (report.interrupted) report.remaining++; // behind a lost write: the next run settles it
    else report.failed.push(failure);
  };

  const one = async (step: CopyStep) => {
    if (stopped()) return void report.remaining++;
    try {
      if (step.action === 'setAcl') await session.request(writes.setAcl(session.channel, step.path, step.acl, step.aversion), 'setACL', step.path);
      else {
        const reply = await session.request(multi(session.channel, [opOf(step)]), OPERATION[step.action], step.path);
        const result = reply.results[0];
        if (!reply.ok && result && !result.ok) throw ZkError.fromCode(result.err || ErrorCode.systemError, OPERATION[step.action], step.path);
      }
      applied(step);
    } catch (error) {
      failedWith(error, step);
    }
    progress(1);
  };

  let retries: Promise<void> = Promise.resolve();
  const batch = async (steps: CopyStep[]) => {
    if (stopped()) return void (report.remaining += steps.length);
    try {
      const reply = await session.request(multi(session.channel, steps.map(opOf)), 'multi', steps[0].path);
      if (reply.ok) {
        steps.forEach(applied);
        return progress(steps.length);
      }
    } catch (error) {
      // No answer: whether the batch was applied is unknown; a new plan will tell.
      const failure = serverFailure(error, 'multi', steps[0].path);
      if (isIndeterminate(failure) || isSessionGone(failure)) {
        report.interrupted ??= failure;
        report.remaining += steps.length;
        return;
      }
    }
    // Refused as a whole: each op alone, so one changed node does not hold back the rest. Later batches may have
    // been refused for want of a parent in this one: their ops go after this batch's, in batch order.
    const previous = retries;
    retries = previous.then(() => Promise.all(steps.map(one))).then(() => undefined);
    await retries;
  };

  const size = Math.max(1, options.batchSize ?? 1000);
  const maxBytes = guard.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const window = Math.max(1, options.window ?? 8);
  await mapBounded(batches(session, plan.writes, size, maxBytes), window, batch);
  await mapBounded(batches(session, plan.deletes, size, maxBytes), window, batch);
  await mapBounded(plan.aclChanges, 256, one);
  stopped();
  return { ok: true, report };
}
