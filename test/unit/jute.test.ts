import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { JuteReader, JuteWriter } from '../../src/zk/protocol/jute';

describe('jute', () => {
  test('round trip of every type', () => {
    const data = new JuteWriter()
      .int(0).int(-1).int(2147483647).int(-2147483648)
      .long(0n).long(-1n).long(0x7fffffffffffffffn).long(-0x8000000000000000n).long(0xffffffffffffffffn)
      .bool(true).bool(false)
      .buffer(Buffer.from([0, 1, 254, 255])).buffer(Buffer.alloc(0)).buffer(null)
      .string('/zookeeper/ünïcødé/日本').string('')
      .vector(['a', 'bc', ''], (w, s) => w.string(s))
      .vector([] as number[], (w, n) => w.int(n))
      .toBuffer();
    const r = new JuteReader(data);
    assert.deepEqual([r.int(), r.int(), r.int(), r.int()], [0, -1, 2147483647, -2147483648]);
    assert.deepEqual([r.long(), r.long(), r.long(), r.long()], [0n, -1n, 0x7fffffffffffffffn, -0x8000000000000000n]);
    assert.equal(r.ulong(), 0xffffffffffffffffn);
    assert.deepEqual([r.bool(), r.bool()], [true, false]);
    assert.deepEqual(r.buffer(), Buffer.from([0, 1, 254, 255]));
    assert.deepEqual(r.buffer(), Buffer.alloc(0));
    assert.equal(r.buffer(), null);
    assert.equal(r.string(), '/zookeeper/ünïcødé/日本');
    assert.equal(r.string(), '');
    assert.deepEqual(r.vector((x) => x.string()), ['a', 'bc', '']);
    assert.deepEqual(r.vector((x) => x.int()), []);
    assert.equal(r.remaining, 0);
  });

  test('the wire format is big-endian with int length prefixes', () => {
    assert.deepEqual(new JuteWriter().int(1).toBuffer(), Buffer.from([0, 0, 0, 1]));
    assert.deepEqual(new JuteWriter().string('ab').toBuffer(), Buffer.from([0, 0, 0, 2, 0x61, 0x62]));
    assert.deepEqual(new JuteWriter().buffer(null).toBuffer(), Buffer.from([0xff, 0xff, 0xff, 0xff]));
    assert.deepEqual(new JuteWriter().long(0x0102030405060708n).toBuffer(), Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]));
  });

  test('a null string reads as empty; ulong reads session ids unsigned', () => {
    const r = new JuteReader(new JuteWriter().buffer(null).long(-0x7ffffffffffffff0n).toBuffer());
    assert.equal(r.string(), '');
    assert.equal(r.ulong(), 0x8000000000000010n);
  });

  test('reading from an offset', () => {
    const r = new JuteReader(Buffer.from([9, 9, 0, 0, 0, 5]), 2);
    assert.equal(r.int(), 5);
  });

  test('truncated records fail with RangeError, never read past the end', () => {
    assert.throws(() => new JuteReader(Buffer.from([0, 0, 1])).int(), RangeError);
    assert.throws(() => new JuteReader(Buffer.alloc(7)).long(), RangeError);
    assert.throws(() => new JuteReader(Buffer.alloc(7)).ulong(), RangeError);
    assert.throws(() => new JuteReader(Buffer.alloc(0)).bool(), RangeError);
    // A length prefix that promises more than there is.
    assert.throws(() => new JuteReader(Buffer.from([0, 0, 0, 5, 0x61, 0x62])).string(), /truncated/);
    assert.throws(() => new JuteReader(Buffer.from([0, 0, 0, 3, 0, 0, 0, 1, 0x61])).vector((x) => x.string()), RangeError);
    const stat = new JuteWriter().long(1n).long(2n).toBuffer();
    const r = new JuteReader(stat.subarray(0, 12));
    assert.equal(r.long(), 1n);
    assert.throws(() => r.long(), RangeError);
  });
});
