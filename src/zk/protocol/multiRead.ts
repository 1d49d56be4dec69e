// multiRead (opcode 22, ZooKeeper 3.6+): several getData / getChildren reads in one request, framed like multi
// (MultiHeader + request record per op, closed by a header with done=true). Unlike multi, each op answers on its
// own: one node's noNode or noAuth is that op's error result, the others still carry their data. A server
// before 3.6 answers the whole request with `unimplemented` (and then closes the connection).
import type { ZnodeStat } from '../stat';
import { ERROR_TYPE, forEachMultiResult } from './multiReply';
import { OpCode } from './opcodes';
import type { RawChannel } from './rawChannel';
import { readStat } from './statReader';

export type ReadOp = { type: 'getData'; path: string } | { type: 'getChildren'; path: string };

export type ReadOpResult =
  /** data null: the node was created without data, as getDataNullable tells it apart from empty. */
  | { ok: true; type: 'getData'; path: string; data: Buffer | null; stat: ZnodeStat }
  /** Names only: multiRead's getChildren carries no Stat. */
  | { ok: true; type: 'getChildren'; path: string; children: string[] }
  | { ok: false; path: string; err: number };

const opCodeOf = (op: ReadOp) => (op.type === 'getData' ? OpCode.getData : OpCode.getChildren);

/**
 * The serialized multiRead request record: no watches are set. Written into one buffer sized first (a plan sends
 * 100,000 paths: a JuteWriter would allocate five small buffers per op and copy them all again).
 */
export function multiReadBody(channel: Pick<RawChannel, 'serverPath'>, ops: readonly ReadOp[]): Buffer {
  const paths = ops.map((op) => channel.serverPath(op.path));
  const HEADER = 9; // type, done, err
  let size = HEADER;
  for (const path of paths) size += HEADER + 4 + Buffer.byteLength(path) + 1;
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  const header = (type: number, done: boolean) => {
    at = body.writeInt32BE(type, at);
    at = body.writeUInt8(done ? 1 : 0, at);
    at = body.writeInt32BE(-1, at);
  };
  ops.forEach((op, i) => {
    header(opCodeOf(op), false);
    const length = body.write(paths[i], at + 4, 'utf8');
    body.writeInt32BE(length, at);
    at += 4 + length;
    at = body.writeUInt8(0, at); // watch
  });
  header(-1, true);
  return body;
}

/** The per-op results of a multiRead reply, in the order of `ops`. */
export function readMultiReadReply(ops: readonly ReadOp[], reply: Buffer): ReadOpResult[] {
  const results: ReadOpResult[] = [];
  forEachMultiResult(reply, (type, i, reader) => {
    const path = ops[i]?.path ?? '';
    switch (type) {
      case ERROR_TYPE: results.push({ ok: false, path, err: reader.int() }); break;
      case OpCode.getData: {
        const data = reader.buffer();
        // A copy: the reply's buffer is dropped, the snapshot keeps only what each node holds.
        results.push({ ok: true, type: 'getData', path, data: data === null ? null : Buffer.from(data), stat: readStat(reader) });
        break;
      }
      case OpCode.getChildren: results.push({ ok: true, type: 'getChildren', path, children: reader.vector((r) => r.string()) }); break;
      default: throw new RangeError(`multiRead: unexpected result type ${type} for op ${i}`);
    }
  });
  if (results.length !== ops.length) throw new RangeError(`multiRead: ${results.length} results for ${ops.length} ops`);
  return results;
}

/** Sends one multiRead. Rejects with the server's code when it refuses the whole request (`unimplemented`), or with `replyTooLarge`. */
export async function multiRead(channel: RawChannel, ops: readonly ReadOp[]): Promise<ReadOpResult[]> {
  // Many nodes' data: a reply too long for the channel fails alone, and the caller asks again in smaller parts.
  const reply = await channel.send(OpCode.multiRead, multiReadBody(channel, ops), 'multiRead', ops[0]?.path, { failsAloneIfTooLarge: true });
  return readMultiReadReply(ops, reply);
}
