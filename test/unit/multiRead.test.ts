import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readLiveTree } from '../../src/zk/compare/readLive';
import { ErrorCode, ZkError } from '../../src/zk/errors';
import { multiReadBody, readMultiReadReply, ReadOp } from '../../src/zk/protocol/multiRead';
import { JuteReader, JuteWriter } from '../../src/zk/protocol/jute';
import type { RawChannel } from '../../src/zk/protocol/rawChannel';
import type { ZkSession } from '../../src/zk/session/session';
import type { ZnodeStat } from '../../src/zk/stat';

/** Bytes written by hand (not with JuteWriter) so the framing is checked against the layout itself. */
const int = (n: number) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; };
const bool = (v: boolean) => Buffer.from([v ? 1 : 0]);
const str = (s: string) => Buffer.concat([int(Buffer.byteLength(s)), Buffer.from(s)]);

function statOf(n: number, numChildren = 0): ZnodeStat {
  const zxid = BigInt(n);
  return { czxid: zxid, mzxid: zxid, ctime: 1, mtime: 1, version: 0, cversion: numChildren, aversion: 0, ephemeralOwner: 0n, dataLength: 0, numChildren, pzxid: zxid };
}

function writeStat(writer: JuteWriter, s: ZnodeStat): JuteWriter {
  return writer.long(s.czxid).long(s.mzxid).long(BigInt(s.ctime)).long(BigInt(s.mtime)).int(s.version).int(s.cversion).int(s.aversion)
    .long(s.ephemeralOwner).int(s.dataLength).int(s.numChildren).long(s.pzxid);
}

describe('multiRead framing (opcode 22)', () => {
  test('the request: per op a MultiHeader (type, done=false, err=-1), path under the chroot, watch=false; then done', () => {
    const ops: ReadOp[] = [{ type: 'getData', path: '/a' }, { type: 'getChildren', path: '/b/ç日' }];
    const body = multiReadBody({ serverPath: (p: string) => `/chroot${p}` }, ops);
    const expected = Buffer.concat([
      int(4), bool(false), int(-1), str('/chroot/a'), bool(false),
      int(8), bool(false), int(-1), str('/chroot/b/ç日'), bool(false),
      int(-1), bool(true), int(-1),
    ]);
    assert.deepEqual(body, expected);
  });

  test('the reply: data (null kept apart from empty) with its Stat, names, and one op\'s error beside the others', () => {
    const ops: ReadOp[] = [
      { type: 'getData', path: '/null' }, { type: 'getData', path: '/empty' }, { type: 'getData', path: '/binary' },
      { type: 'getChildren', path: '/parent' }, { type: 'getData', path: '/gone' },
    ];
    const w = new JuteWriter();
    writeStat(w.int(4).bool(false).int(0).buffer(null), statOf(1));
    writeStat(w.int(4).bool(false).int(0).buffer(Buffer.alloc(0)), statOf(2));
    writeStat(w.int(4).bool(false).int(0).buffer(Buffer.from([0, 0xff, 0x80])), statOf(3));
    w.int(8).bool(false).int(0).vector(['x', 'ünï'], (x, s) => x.string(s));
    w.int(-1).bool(false).int(ErrorCode.noNode).int(ErrorCode.noNode);
    w.int(-1).bool(true).int(-1);
    const results = readMultiReadReply(ops, w.toBuffer());
    assert.deepEqual(results, [
      { ok: true, type: 'getData', path: '/null', data: null, stat: statOf(1) },
      { ok: true, type: 'getData', path: '/empty', data: Buffer.alloc(0), stat: statOf(2) },
      { ok: true, type: 'getData', path: '/binary', data: Buffer.from([0, 0xff, 0x80]), stat: statOf(3) },
      { ok: true, type: 'getChildren', path: '/parent', children: ['x', 'ünï'] },
      { ok: false, path: '/gone', err: ErrorCode.noNode },
    ]);
  });

  test('a reply with fewer results than ops is refused, not read as a partial answer', () => {
    const ops: ReadOp[] = [{ type: 'getData', path: '/a' }, { type: 'getData', path: '/b' }];
    const w = writeStat(new JuteWriter().int(4).bool(false).int(0).buffer(null), statOf(1)).int(-1).bool(true).int(-1);
    assert.throws(() => readMultiReadReply(ops, w.toBuffer()), /1 results for 2 ops/);
  });
});

describe('a server without multiRead (before 3.6)', () => {
  /** A tiny pre-3.6 server: answers getData, getChildren2 and getACL from a map; multiRead with unimplemented, then
   * (as a real one does) closes the connection, so the next request fails with connectionLoss. */
  function oldServer(tree: Map<string, { data: Buffer | null; children: string[] }>) {
    const sent: number[] = [];
    let closing = false;
    const stat = (path: string) => statOf(1 + [...tree.keys()].indexOf(path), tree.get(path)!.children.length);
    const channel = {
      serverPath: (p: string) => p,
      clientPath: (p: string) => p,
      send(opCode: number, body: Buffer, operation: string, path?: string): Promise<Buffer> {
        sent.push(opCode);
        if (opCode === 22) {
          closing = true;
          return Promise.reject(ZkError.fromCode(ErrorCode.unimplemented, operation, path));
        }
        if (closing) {
          closing = false;
          return Promise.reject(ZkError.fromCode(ErrorCode.connectionLoss, operation, path));
        }
        const requested = new JuteReader(body).string();
        const node = tree.get(requested);
        if (!node) return Promise.reject(ZkError.fromCode(ErrorCode.noNode, operation, requested));
        const w = new JuteWriter();
        if (opCode === 4) w.buffer(node.data);
        else if (opCode === 12) w.vector(node.children, (x, s) => x.string(s));
        else if (opCode === 6) w.vector([{ perms: 31, scheme: 'world', id: 'anyone' }], (x, a) => x.int(a.perms).string(a.scheme).string(a.id));
        else return Promise.reject(new Error(`unexpected opcode ${opCode}`));
        return Promise.resolve(writeStat(w, stat(requested)).toBuffer());
      },
    } as unknown as RawChannel;
    const session = { channel, requestTimeoutMs: 15000, isLive: true } as unknown as ZkSession;
    return { session, sent };
  }

  test('the read tries multiRead once, then reads node by node (after the closed connection) and gets the same tree', async () => {
    const tree = new Map([
      ['/t', { data: Buffer.from('root'), children: ['a', 'b'] }],
      ['/t/a', { data: null, children: ['c'] }],
      ['/t/a/c', { data: Buffer.alloc(0), children: [] }],
      ['/t/b', { data: Buffer.from([0, 0xff]), children: [] }],
    ]);
    const { session, sent } = oldServer(tree);
    const snapshot = await readLiveTree(session, '/t');
    assert.equal(snapshot.error, undefined, JSON.stringify(snapshot.error));
    assert.equal(sent.filter((op) => op === 22).length, 1);
    assert.deepEqual([...snapshot.nodes.keys()].sort(), ['/', '/a', '/a/c', '/b']);
    assert.equal(snapshot.nodes.get('/a')!.data, null);
    assert.deepEqual(snapshot.nodes.get('/a/c')!.data, Buffer.alloc(0));
    assert.deepEqual(snapshot.nodes.get('/b')!.data, Buffer.from([0, 0xff]));
    assert.deepEqual(snapshot.nodes.get('/b')!.acl, [{ perms: 31, scheme: 'world', id: 'anyone' }]);
    assert.equal(snapshot.changed.size, 0);
  });
});
