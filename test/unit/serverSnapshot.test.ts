import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { compress } from 'snappyjs';
import { Readable } from 'node:stream';
import { readSnapshot, readSnapshotFile } from '../../src/zk/serverLogs/snapshotReader';
import type { SnapshotReadItem } from '../../src/zk/serverLogs/snapshotTypes';
import { snapshotFile, type FixtureSnapshot } from '../support/fixtures/serverLogFixtures';

async function collect(items: AsyncIterable<SnapshotReadItem>): Promise<SnapshotReadItem[]> {
  const out: SnapshotReadItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}
const read = (bytes: Buffer, chunk = 5) => {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  return collect(readSnapshot(Readable.from(chunks), 'snapshot.5'));
};
const of = <K extends SnapshotReadItem['kind']>(items: SnapshotReadItem[], kind: K) =>
  items.filter((i): i is Extract<SnapshotReadItem, { kind: K }> => i.kind === kind);

const BIDI = '/locks/invoice-\u202Egnp.exe';
const TREE: FixtureSnapshot = {
  sessions: [{ id: 0x100000abcn, timeout: 30000 }, { id: 0xff00000000000001n, timeout: 4000 }],
  acls: [{ ref: 1n, acl: [{ perms: 31, scheme: 'world', id: 'anyone' }] }, { ref: 2n, acl: [{ perms: 1, scheme: 'digest', id: 'u:h' }, { perms: 31, scheme: 'ip', id: '127.0.0.1' }] }],
  nodes: [
    { path: '', data: Buffer.alloc(0), pzxid: 9n },
    { path: '/a', data: Buffer.from([0xff, 0]), aclRef: 2n, czxid: 2n, mzxid: 0x1_0000_0000_0003n, version: 4, cversion: 1, aversion: 2, pzxid: 5n },
    { path: '/a/e', data: null, ephemeralOwner: 0x100000abcn },
    { path: BIDI, ephemeralOwner: 0x8000000000000000n },
    { path: '/zookeeper', data: Buffer.alloc(0) },
  ],
};

describe('snapshot reader', () => {
  test('sessions, ACL cache and nodes in pre-order, with every stat field, before 3.6 (one seal)', async () => {
    const items = await read(snapshotFile(TREE));
    assert.deepEqual(of(items, 'issue'), []);
    assert.deepEqual(of(items, 'header')[0].header, { magic: 0x5a4b534e, version: 2, dbid: -1n });
    assert.deepEqual(of(items, 'session').map((s) => [s.id, s.timeout]), [[0x100000abcn, 30000], [0xff00000000000001n, 4000]]);
    assert.deepEqual([...of(items, 'acls')[0].acls], [[1n, [{ perms: 31, scheme: 'world', id: 'anyone' }]], [2n, [{ perms: 1, scheme: 'digest', id: 'u:h' }, { perms: 31, scheme: 'ip', id: '127.0.0.1' }]]]);
    const nodes = of(items, 'node').map((n) => n.node);
    assert.deepEqual(nodes.map((n) => n.path), ['', '/a', '/a/e', BIDI, '/zookeeper']);
    assert.deepEqual(nodes[1], {
      path: '/a', data: Buffer.from([0xff, 0]), aclRef: 2n,
      stat: { czxid: 2n, mzxid: 0x1_0000_0000_0003n, ctime: 1_700_000_000_000, mtime: 1_700_000_000_000, version: 4, cversion: 1, aversion: 2, ephemeralOwner: 0n, pzxid: 5n },
    });
    assert.equal(nodes[2].data, null);
    assert.equal(nodes[3].stat.ephemeralOwner, 0x8000000000000000n);
    assert.deepEqual(of(items, 'sealed'), [{ kind: 'sealed', seals: 1 }]);
  });

  test('the 3.6+ digest and its seal', async () => {
    const items = await read(snapshotFile({ ...TREE, digest: { zxid: 0x20n, version: 2, digest: 0xfedcba9876543210n } }));
    assert.deepEqual(of(items, 'issue'), []);
    assert.deepEqual(of(items, 'digest')[0].digest, { zxid: 0x20n, version: 2, digest: 0xfedcba9876543210n });
    assert.deepEqual(of(items, 'sealed'), [{ kind: 'sealed', seals: 2 }]);
  });

  test('the digest of version 1, written as hex text', async () => {
    const items = await read(snapshotFile({ ...TREE, digest: { zxid: 0x20n, version: 1, digest: 0xabcn } }));
    assert.deepEqual(of(items, 'issue'), []);
    assert.deepEqual(of(items, 'digest')[0].digest, { zxid: 0x20n, version: 1, digest: 0xabcn });
  });

  test('the 3.9 lastProcessedZxid trailer, with and without the digest before it', async () => {
    for (const digest of [undefined, { zxid: 0x20n, version: 2, digest: 7n }]) {
      const items = await read(snapshotFile({ ...TREE, digest, lastProcessedZxid: 0x500000021n }));
      assert.deepEqual(of(items, 'issue'), []);
      assert.deepEqual(of(items, 'lastProcessedZxid').map((i) => i.zxid), [0x500000021n]);
      assert.deepEqual(of(items, 'sealed'), [{ kind: 'sealed', seals: digest ? 3 : 2 }]);
    }
  });

  test('a seal that lies is one line; the nodes were still handed out', async () => {
    const items = await read(snapshotFile({ ...TREE, lyingSeal: true }));
    assert.deepEqual(of(items, 'issue').map((i) => i.issue.kind), ['badSeal']);
    assert.equal(of(items, 'node').length, 5);
    assert.equal(of(items, 'sealed').length, 0);
  });

  test('a truncated snapshot is one line, with the nodes before the cut', async () => {
    const bytes = snapshotFile(TREE);
    const items = await read(bytes.subarray(0, bytes.length - 80));
    const issues = of(items, 'issue');
    assert.deepEqual(issues.map((i) => i.issue.kind), ['tornEntry']);
    assert.doesNotMatch(issues[0].issue.message, /\n/);
    assert.ok(of(items, 'node').length >= 3);
  });

  test('a 2 GB data length is refused without buffering it', async () => {
    const bytes = snapshotFile({ nodes: [{ path: '', data: Buffer.from('abcd') }] });
    const at = bytes.indexOf(Buffer.from('abcd')) - 4;
    bytes.writeInt32BE(0x7fffffff, at);
    const items = await read(bytes);
    assert.deepEqual(of(items, 'issue').map((i) => i.issue.kind), ['badLength']);
    assert.match(of(items, 'issue')[0].issue.message, /2147483647/);
  });

  test('a snapshot whose node list never ends stays bounded: nodes are handed out as read, and a limit ends it', async () => {
    const head = snapshotFile({ nodes: [] }).subarray(0, 16 + 4 + 4);
    const one = snapshotFile({ nodes: [{ path: '/bomb/x', data: Buffer.from('y') }] });
    const node = one.subarray(24, one.indexOf(Buffer.from([0, 0, 0, 1, 0x2f]), 24));
    let produced = 0;
    let handed = 0;
    let mostAhead = 0;
    async function* bomb(): AsyncGenerator<Buffer> {
      yield head;
      for (;;) {
        produced++;
        yield node;
      }
    }
    const issues = [];
    for await (const item of readSnapshot(bomb(), 'snapshot.bomb', { maxNodes: 20_000 })) {
      if (item.kind === 'node') {
        handed++;
        mostAhead = Math.max(mostAhead, produced - handed);
      }
      if (item.kind === 'issue') issues.push(item.issue.kind);
    }
    assert.equal(handed, 20_000);
    assert.deepEqual(issues, ['tooMany']);
    assert.ok(mostAhead <= 2, `${mostAhead} nodes read ahead`);
  });

  test('an ACL cache count bomb is refused in one line', async () => {
    const bytes = snapshotFile({ nodes: [] });
    bytes.writeInt32BE(0x7fffffff, 20);
    const items = await read(bytes);
    assert.deepEqual(of(items, 'issue').map((i) => i.issue.kind), ['tooMany']);
  });

  /** snappy-java's stream (SnappyOutputStream): magic, version 1, compatible 1, then length-prefixed raw blocks of `block` bytes. */
  function snappyJavaStream(bytes: Buffer, block: number): Buffer {
    const parts = [Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1])];
    for (let at = 0; at < bytes.length; at += block) {
      const compressed = Buffer.from(compress(bytes.subarray(at, at + block)));
      const length = Buffer.alloc(4);
      length.writeInt32BE(compressed.length);
      parts.push(length, compressed);
    }
    return Buffer.concat(parts);
  }

  test('gzip and snappy snapshots are read by their name, plain ones too; a corrupt or bomb stream is one line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-snap-'));
    try {
      const bytes = snapshotFile({ ...TREE, digest: { zxid: 3n, version: 2, digest: 1n } });
      fs.writeFileSync(path.join(dir, 'snapshot.3.gz'), zlib.gzipSync(bytes));
      fs.writeFileSync(path.join(dir, 'snapshot.3'), bytes);
      fs.writeFileSync(path.join(dir, 'snapshot.3.snappy'), snappyJavaStream(bytes, 7));
      for (const name of ['snapshot.3.gz', 'snapshot.3', 'snapshot.3.snappy']) {
        const items = await collect(readSnapshotFile(path.join(dir, name)));
        assert.deepEqual(of(items, 'issue'), [], name);
        assert.equal(of(items, 'node').length, 5, name);
        assert.deepEqual(of(items, 'sealed'), [{ kind: 'sealed', seals: 2 }], name);
      }
      // Not snappy at all; a block whose length is a bomb; a stream cut inside a block: one line each.
      const framed = snappyJavaStream(bytes, 7);
      const bomb = Buffer.from(framed);
      bomb.writeInt32BE(0x7ffffff0, 16);
      for (const [name, body, says] of [['snapshot.5.snappy', bytes, /no SNAPPY magic/], ['snapshot.6.snappy', bomb, /not a length snappy-java writes/], ['snapshot.7.snappy', framed.subarray(0, framed.length - 5), /ends inside a snappy block/]] as const) {
        fs.writeFileSync(path.join(dir, name), body);
        const items = await collect(readSnapshotFile(path.join(dir, name)));
        assert.equal(of(items, 'issue').length, 1, name);
        assert.match(of(items, 'issue')[0].issue.message, says, name);
      }
      fs.writeFileSync(path.join(dir, 'snapshot.4.gz'), Buffer.concat([zlib.gzipSync(bytes).subarray(0, 40), Buffer.alloc(40, 7)]));
      const corrupt = await collect(readSnapshotFile(path.join(dir, 'snapshot.4.gz')));
      assert.equal(of(corrupt, 'issue').length, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
