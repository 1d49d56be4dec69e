// Deleting several selected nodes (each without children) in one go: deepest first, pipelined with a bounded
// window (one session's requests are applied in order, so a child selected with its parent goes first).
import { isZkError } from '../errors';
import * as writes from '../protocol/writes';
import type { ZkSession } from '../session/session';
import { mapBounded } from '../timeouts';
import { checkTarget, checkWritable, GuardOptions } from './guard';
import { serverFailure, WriteFailure } from './outcome';

export interface DeleteTarget {
  path: string;
  /** The version the node must still have; -1 or undefined: any. */
  version?: number;
}

export interface DeleteManyReport {
  deleted: string[];
  /** Someone else deleted these first: the goal is reached, nothing to report as an error. */
  alreadyGone: string[];
  /** Refused before sending, or failed on the server (notEmpty, badVersion, noAuth, ...). */
  failed: WriteFailure[];
}

export const depthOf = (path: string): number => (path === '/' ? 0 : path.split('/').length - 1);

export async function deleteMany(session: ZkSession, targets: readonly DeleteTarget[], guard: GuardOptions, window: number): Promise<DeleteManyReport> {
  const report: DeleteManyReport = { deleted: [], alreadyGone: [], failed: [] };
  const sendable: DeleteTarget[] = [];
  const seen = new Set<string>();
  for (const target of targets) {
    if (seen.has(target.path)) continue;
    seen.add(target.path);
    const refusal = checkWritable(guard) ?? checkTarget(target.path);
    if (refusal) report.failed.push({ ...refusal, operation: 'delete', path: target.path });
    else sendable.push(target);
  }
  sendable.sort((a, b) => depthOf(b.path) - depthOf(a.path));
  await mapBounded(sendable, window, async (target) => {
    try {
      await session.request(writes.deleteNode(session.channel, target.path, target.version ?? -1), 'delete', target.path);
      report.deleted.push(target.path);
    } catch (error) {
      if (isZkError(error, 'noNode')) report.alreadyGone.push(target.path);
      else report.failed.push(serverFailure(error, 'delete', target.path));
    }
  });
  return report;
}
