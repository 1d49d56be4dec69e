// multi (opcode 14): several writes applied atomically, in order. The request is a sequence of
// (MultiHeader, op record) pairs closed by a MultiHeader with done=true; the answer lists one result per op,
// and when the multi fails every op answers with an error (the op that failed with its own code, the others
// with 0 if they came before it or runtimeInconsistency after it), so the caller learns which op failed.
import { ErrorCode, ZkError } from '../errors';
import type { ZnodeStat } from '../stat';
import { JuteWriter } from './jute';
import { ERROR_TYPE, forEachMultiResult } from './multiReply';
import { OpCode } from './opcodes';
import type { RawChannel } from './rawChannel';
import { readStat } from './statReader';
import { createBody, createOpCode, deleteBody, NullableCreateFields, setDataBody } from './writes';

export type MultiOp =
  | { type: 'delete'; path: string; version: number }
  | { type: 'check'; path: string; version: number }
  | { type: 'setData'; path: string; data: Buffer | null; version: number }
  | ({ type: 'create' } & NullableCreateFields);

export type MultiOpResult =
  | { ok: true; path: string; createdPath?: string; stat?: ZnodeStat }
  /** err: the op's error code; 0 for an op that would have succeeded but was rolled back. */
  | { ok: false; path: string; err: number };

export interface MultiReply {
  /** True when every op was applied. */
  ok: boolean;
  results: MultiOpResult[];
}

function opCodeOf(op: MultiOp): number {
  switch (op.type) {
    case 'delete': return OpCode.delete;
    case 'check': return OpCode.check;
    case 'setData': return OpCode.setData;
    // create2 (or container/TTL): the result carries the Stat, as it does outside a multi.
    case 'create': return createOpCode(op.flags);
  }
}

function opBody(channel: RawChannel, op: MultiOp): Buffer {
  switch (op.type) {
    case 'delete':
    case 'check': return deleteBody(channel, op.path, op.version); // CheckVersionRequest has the same layout
    case 'setData': return setDataBody(channel, op.path, op.data, op.version);
    case 'create': return createBody(channel, op);
  }
}

/** The serialized multi request record; its length is what jute.maxbuffer limits (with the 8-byte header). */
export function multiBody(channel: RawChannel, ops: readonly MultiOp[]): Buffer {
  const parts: Buffer[] = [];
  for (const op of ops) {
    parts.push(new JuteWriter().int(opCodeOf(op)).bool(false).int(-1).toBuffer(), opBody(channel, op));
  }
  parts.push(new JuteWriter().int(-1).bool(true).int(-1).toBuffer());
  return Buffer.concat(parts);
}

function readResults(channel: RawChannel, ops: readonly MultiOp[], reply: Buffer): MultiOpResult[] {
  const results: MultiOpResult[] = [];
  forEachMultiResult(reply, (type, i, reader) => {
    const path = ops[i]?.path ?? '';
    switch (type) {
      case ERROR_TYPE: results.push({ ok: false, path, err: reader.int() }); break;
      case OpCode.create: results.push({ ok: true, path, createdPath: channel.clientPath(reader.string()) }); break;
      case OpCode.create2:
      case OpCode.createContainer:
      case OpCode.createTTL: {
        const createdPath = channel.clientPath(reader.string());
        results.push({ ok: true, path, createdPath, stat: readStat(reader) });
        break;
      }
      case OpCode.setData: results.push({ ok: true, path, stat: readStat(reader) }); break;
      default: results.push({ ok: true, path }); // delete, check: no body
    }
  });
  return results;
}

/**
 * Sends one multi. Resolves with the per-op results whether it was applied or not; rejects only when there is no
 * answer (connection lost, timeout) — then the caller cannot know whether it was applied.
 */
export async function multi(channel: RawChannel, ops: readonly MultiOp[]): Promise<MultiReply> {
  const { err, reply } = await channel.sendForReply(OpCode.multi, multiBody(channel, ops), 'multi', ops[0]?.path);
  if (reply.length === 0) {
    if (err !== 0) throw ZkError.fromCode(err, 'multi', ops[0]?.path);
    return { ok: true, results: ops.map((op) => ({ ok: true, path: op.path })) };
  }
  const results = readResults(channel, ops, reply);
  const ok = err === 0 && results.every((r) => r.ok);
  if (!ok && !results.some((r) => !r.ok && r.err !== 0 && r.err !== ErrorCode.runtimeInconsistency)) {
    // A failure without a culprit op: report the header's code on the first op.
    if (results[0] && !results[0].ok) results[0] = { ok: false, path: results[0].path, err: err || ErrorCode.systemError };
  }
  return { ok, results };
}
