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

describe('the batched read sends what it always sent', () => {
  /** A 3.6+ server from a map: answers multiRead and getACL, and writes down every request, in order: `D path` a
   *  getData op, `C path` a getChildren op (one request's ops joined by commas), `A path` a getACL. A request whose
   *  data passes `replyLimit` bytes is refused with replyTooLarge, as the channel refuses a reply that long. */
  function newServer(tree: Map<string, { data: Buffer; children: string[] }>, replyLimit = Infinity) {
    const requests: string[] = [];
    const stat = (path: string) => ({ ...statOf(1 + [...tree.keys()].indexOf(path), tree.get(path)!.children.length), dataLength: tree.get(path)!.data.length });
    const channel = {
      serverPath: (p: string) => p,
      clientPath: (p: string) => p,
      send(opCode: number, body: Buffer, operation: string, path?: string): Promise<Buffer> {
        const reader = new JuteReader(body);
        if (opCode === 6) {
          const requested = reader.string();
          requests.push(`A ${requested}`);
          const w = new JuteWriter().vector([{ perms: 31, scheme: 'world', id: 'anyone' }], (x, a) => x.int(a.perms).string(a.scheme).string(a.id));
          return Promise.resolve(writeStat(w, stat(requested)).toBuffer());
        }
        assert.equal(opCode, 22);
        const ops: string[] = [];
        const w = new JuteWriter();
        let bytes = 0;
        for (;;) {
          const type = reader.int();
          const done = reader.bool();
          reader.int();
          if (done) break;
          const requested = reader.string();
          reader.bool();
          const node = tree.get(requested)!;
          ops.push(`${type === 4 ? 'D' : 'C'} ${requested}`);
          if (type === 4) {
            bytes += node.data.length;
            writeStat(w.int(4).bool(false).int(0).buffer(node.data), stat(requested));
          } else w.int(8).bool(false).int(0).vector(node.children, (x, s) => x.string(s));
        }
        requests.push(ops.join(','));
        if (bytes > replyLimit) return Promise.reject(new ZkError('replyTooLarge', operation, path));
        return Promise.resolve(w.int(-1).bool(true).int(-1).toBuffer());
      },
    } as unknown as RawChannel;
    const session = { channel, requestTimeoutMs: 15000, isLive: true } as unknown as ZkSession;
    return { session, requests };
  }

  /** /t with three children, the first with three of its own, the last with one: `size` bytes of data each. */
  function sampleTree(size: number) {
    const node = (children: string[] = []) => ({ data: Buffer.alloc(size, 1), children });
    return new Map([
      ['/t', node(['a', 'b', 'c'])],
      ['/t/a', node(['x', 'y', 'z'])], ['/t/a/x', node()], ['/t/a/y', node()], ['/t/a/z', node()],
      ['/t/b', node()], ['/t/c', node(['w'])], ['/t/c/w', node()],
    ]);
  }

  test('without ACLs: the root alone, then listings and data batches of half the window, depth first', async () => {
    const { session, requests } = newServer(sampleTree(1));
    const snapshot = await readLiveTree(session, '/t', { acls: false, window: 4 });
    assert.equal(snapshot.nodes.size, 8);
    assert.deepEqual(requests, [
      'D /t', 'C /t', 'D /t/a,D /t/b', 'D /t/c', 'C /t/c,C /t/a', 'D /t/a/x,D /t/a/y', 'D /t/a/z,D /t/c/w',
    ]);
  });

  test('with ACLs: each node\'s getACL after its data, counted against the window', async () => {
    const { session, requests } = newServer(sampleTree(1));
    const snapshot = await readLiveTree(session, '/t', { window: 4 });
    assert.equal(snapshot.nodes.size, 8);
    assert.deepEqual(requests, [
      'D /t', 'A /t', 'C /t', 'D /t/a,D /t/b', 'D /t/c', 'A /t/a', 'A /t/b', 'A /t/c', 'C /t/c,C /t/a',
      'D /t/a/x,D /t/a/y', 'D /t/a/z,D /t/c/w', 'A /t/a/x', 'A /t/a/y', 'A /t/a/z', 'A /t/c/w',
    ]);
  });

  test('a reply too large: the request is asked again in halves, the first half first, and later requests are smaller', async () => {
    const { session, requests } = newServer(sampleTree(10), 25);
    const snapshot = await readLiveTree(session, '/t', { acls: false, window: 8 });
    assert.equal(snapshot.error, undefined, JSON.stringify(snapshot.error));
    assert.equal(snapshot.nodes.size, 8);
    assert.deepEqual(requests, [
      'D /t', 'C /t', 'D /t/a,D /t/b,D /t/c', 'D /t/a,D /t/b', 'D /t/c', 'C /t/c,C /t/a', 'D /t/a/x', 'D /t/a/y', 'D /t/a/z', 'D /t/c/w',
    ]);
  });
});
