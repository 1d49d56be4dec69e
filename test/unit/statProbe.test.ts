import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { classifySrvrAnswer, isDefinitiveFailure } from '../../src/zk/probes/serverProbe';
import { CONTAINER_OWNER, hex, nodeKind, sessionIdHex, ttlMillis } from '../../src/zk/stat';
import { readStat } from '../../src/zk/protocol/statReader';
import { JuteReader, JuteWriter } from '../../src/zk/protocol/jute';

describe('stat', () => {
  test('nodeKind from ephemeralOwner', () => {
    assert.equal(nodeKind({ ephemeralOwner: 0n }), 'persistent');
    assert.equal(nodeKind({ ephemeralOwner: 0x8000000000000000n }), 'container');
    assert.equal(CONTAINER_OWNER, 0x8000000000000000n);
    assert.equal(nodeKind({ ephemeralOwner: 0xff00000000000000n }), 'ttl');
    assert.equal(nodeKind({ ephemeralOwner: 0xff000000000003e8n }), 'ttl');
    assert.equal(nodeKind({ ephemeralOwner: 0x100000a2b3c0001n }), 'ephemeral');
    assert.equal(nodeKind({ ephemeralOwner: 0xfe00000000000001n }), 'ephemeral');
    assert.equal(nodeKind({ ephemeralOwner: 0x8000000000000001n }), 'ephemeral');
  });

  test('ttlMillis only for TTL nodes', () => {
    assert.equal(ttlMillis({ ephemeralOwner: 0xff000000000003e8n }), 1000);
    assert.equal(ttlMillis({ ephemeralOwner: 0xff00000000000000n }), 0);
    assert.equal(ttlMillis({ ephemeralOwner: 0x100000a2b3c0001n }), undefined);
    assert.equal(ttlMillis({ ephemeralOwner: 0n }), undefined);
  });

  test('hex is 0x + unpadded lowercase hex of the unsigned value', () => {
    assert.equal(hex(0n), '0x0');
    assert.equal(hex(255n), '0xff');
    assert.equal(hex(0x100000a2b3c0001n), '0x100000a2b3c0001');
    assert.equal(hex(-1n), '0xffffffffffffffff');
    assert.equal(hex(CONTAINER_OWNER), '0x8000000000000000');
    assert.equal(sessionIdHex(Buffer.from([0x01, 0, 0, 0x0a, 0x2b, 0x3c, 0, 0x01])), '0x100000a2b3c0001');
  });

  test('readStat keeps 64-bit fields exact', () => {
    const w = new JuteWriter()
      .long(0x1000000000000001n).long(0x1000000000000002n).long(1700000000000n).long(1700000001000n)
      .int(3).int(4).int(5).long(-0x100000000000000n).int(6).int(7).long(0x1000000000000003n);
    const stat = readStat(new JuteReader(w.toBuffer()));
    assert.deepEqual(stat, {
      czxid: 0x1000000000000001n, mzxid: 0x1000000000000002n, ctime: 1700000000000, mtime: 1700000001000,
      version: 3, cversion: 4, aversion: 5, ephemeralOwner: 0xff00000000000000n, dataLength: 6, numChildren: 7,
      pzxid: 0x1000000000000003n,
    });
    assert.equal(nodeKind(stat), 'ttl');
  });

  test('readStat: equal zxids and no owner read as the same values, times as signed numbers, the reader moves on', () => {
    const stat = (czxid: bigint, mzxid: bigint, time: bigint, owner: bigint, pzxid: bigint) => new JuteWriter()
      .long(czxid).long(mzxid).long(time).long(time).int(0).int(0).int(0).long(owner).int(0).int(0).long(pzxid);
    const bytes = Buffer.concat([
      stat(0x1_0000_0001n, 0x1_0000_0001n, -1n, 0n, 0x1_0000_0001n).toBuffer(), // a leaf never changed
      stat(0x2n, 0x1_0000_0002n, -0x1_0000_0001n, 0x1_0000_0000n, 0x1_0000_0002n).toBuffer(), // pzxid = mzxid; halves differ
      stat(0x1_0000_0000n, 0x2_0000_0000n, 0x1f_ffff_ffff_ffffn, 0x8000000000000000n, 0x1n).toBuffer(),
      new JuteWriter().int(42).toBuffer(),
    ]);
    const reader = new JuteReader(bytes);
    const [a, b, c] = [readStat(reader), readStat(reader), readStat(reader)];
    assert.equal(reader.int(), 42);
    assert.deepEqual([a.czxid, a.mzxid, a.pzxid, a.ctime, a.mtime, a.ephemeralOwner], [0x1_0000_0001n, 0x1_0000_0001n, 0x1_0000_0001n, -1, -1, 0n]);
    assert.deepEqual([b.czxid, b.mzxid, b.pzxid, b.ctime, b.ephemeralOwner], [0x2n, 0x1_0000_0002n, 0x1_0000_0002n, -0x1_0000_0001, 0x1_0000_0000n]);
    assert.deepEqual([c.czxid, c.mzxid, c.pzxid, c.mtime, c.ephemeralOwner], [0x1_0000_0000n, 0x2_0000_0000n, 0x1n, 0x1f_ffff_ffff_ffff, 0x8000000000000000n]);
    assert.equal(nodeKind(c), 'container');
    assert.throws(() => readStat(new JuteReader(bytes.subarray(0, 67))), /truncated/);
  });
});

describe('probe.classifySrvrAnswer', () => {
  test('a ZooKeeper srvr answer gives the version', () => {
    const answer = 'Zookeeper version: 3.8.0-5a02a05eddb59aee6ac762f7ea82e92a68eb9c0f, built on 2022-02-25 08:49 UTC\n' +
      'Latency min/avg/max: 0/0.0/0\nReceived: 1\nSent: 0\nConnections: 1\nOutstanding: 0\nZxid: 0x0\nMode: standalone\nNode count: 5\n';
    assert.deepEqual(classifySrvrAnswer(answer), { outcome: 'zookeeper', detail: '3.8.0-5a02a05eddb59aee6ac762f7ea82e92a68eb9c0f' });
    assert.deepEqual(classifySrvrAnswer('Zookeeper version: 3.4.14-4c25d480e66aadd371de8bd2fd8da255ac140bcf, built on 03/06/2019'),
      { outcome: 'zookeeper', detail: '3.4.14-4c25d480e66aadd371de8bd2fd8da255ac140bcf' });
  });

  test('a member without quorum', () => {
    assert.deepEqual(classifySrvrAnswer('This ZooKeeper instance is not currently serving requests\n'), { outcome: 'notServing' });
  });

  test('a refused four-letter word still proves ZooKeeper', () => {
    assert.equal(classifySrvrAnswer('srvr is not executed because it is not in the whitelist.\n').outcome, 'zookeeper');
  });

  test('anything else is not ZooKeeper, with the start of the answer', () => {
    const http = classifySrvrAnswer('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    assert.equal(http.outcome, 'notZooKeeper');
    assert.match(http.detail ?? '', /^HTTP\/1\.1 400/);
    assert.equal(classifySrvrAnswer('SSH-2.0-OpenSSH_9.2p1\r\n').outcome, 'notZooKeeper');
    assert.equal(classifySrvrAnswer('').outcome, 'notZooKeeper');
    assert.equal(classifySrvrAnswer('x'.repeat(500)).detail?.length, 80);
  });

  test('definitive failures', () => {
    assert.deepEqual(
      (['zookeeper', 'notServing', 'refused', 'unresolved', 'timedOut', 'notZooKeeper', 'error'] as const).filter(isDefinitiveFailure),
      ['refused', 'unresolved', 'notZooKeeper'],
    );
  });
});
