import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FrameLengthError, FrameReader } from '../../src/zk/protocol/frameReader';

function frame(body: Buffer | string): Buffer {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const head = Buffer.alloc(4);
  head.writeInt32BE(b.length, 0);
  return Buffer.concat([head, b]);
}

function drain(reader: FrameReader): Buffer[] {
  const out: Buffer[] = [];
  for (let f = reader.next(); f; f = reader.next()) out.push(Buffer.from(f));
  return out;
}

describe('FrameReader', () => {
  const frames = [frame('first frame'), frame(Buffer.alloc(0)), frame(Buffer.from([0, 1, 2, 255])), frame('x'.repeat(300))];
  const stream = Buffer.concat(frames);

  test('many frames in one chunk', () => {
    const reader = new FrameReader();
    reader.push(stream);
    assert.deepEqual(drain(reader), frames);
    assert.equal(reader.next(), undefined);
  });

  test('split into two chunks at every byte boundary', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const reader = new FrameReader();
      const got: Buffer[] = [];
      reader.push(stream.subarray(0, cut));
      got.push(...drain(reader));
      reader.push(stream.subarray(cut));
      got.push(...drain(reader));
      assert.deepEqual(got, frames, `cut at ${cut}`);
    }
  });

  test('one byte at a time, including a length prefix split in four', () => {
    const reader = new FrameReader();
    const got: Buffer[] = [];
    for (let i = 0; i < stream.length; i++) {
      reader.push(stream.subarray(i, i + 1));
      const before = got.length;
      got.push(...drain(reader));
      // A frame is complete exactly at its last byte, never earlier.
      const ends = frames.reduce<number[]>((acc, f) => [...acc, (acc.at(-1) ?? 0) + f.length], []);
      assert.equal(got.length - before, ends.includes(i + 1) ? 1 : 0, `after byte ${i}`);
    }
    assert.deepEqual(got, frames);
  });

  test('three chunks at every pair of boundaries', () => {
    const small = Buffer.concat([frame('ab'), frame('cde')]);
    for (let i = 0; i <= small.length; i++) {
      for (let j = i; j <= small.length; j++) {
        const reader = new FrameReader();
        const got: Buffer[] = [];
        for (const part of [small.subarray(0, i), small.subarray(i, j), small.subarray(j)]) {
          reader.push(part);
          got.push(...drain(reader));
        }
        assert.deepEqual(got.map((g) => g.subarray(4).toString()), ['ab', 'cde'], `cuts ${i},${j}`);
      }
    }
  });

  test('reset drops a partial frame', () => {
    const reader = new FrameReader();
    reader.push(frame('partial').subarray(0, 6));
    reader.reset();
    reader.push(frame('next'));
    assert.deepEqual(drain(reader).map((f) => f.subarray(4).toString()), ['next']);
  });

  test('a negative length is an error', () => {
    const reader = new FrameReader();
    reader.push(Buffer.from([0xff, 0xff, 0xff, 0xfe, 0]));
    assert.throws(() => reader.next(), RangeError);
  });

  test('a frame above the limit is refused with its reply header, then skipped as it arrives, keeping the stream in step', () => {
    const header = Buffer.alloc(16);
    header.writeInt32BE(77, 0); // xid
    header.writeInt32BE(5, 12); // err
    const big = frame(Buffer.concat([header, Buffer.alloc(200, 0xab)]));
    const stream = Buffer.concat([frame('before'), big, frame('after'), frame('and more')]);
    for (const chunkSize of [1, 7, 19, 64, stream.length]) {
      const reader = new FrameReader(100, () => true);
      const got: string[] = [];
      const refused: FrameLengthError[] = [];
      for (let at = 0; at < stream.length; at += chunkSize) {
        reader.push(stream.subarray(at, at + chunkSize));
        for (;;) {
          try {
            const f = reader.next();
            if (!f) break;
            got.push(f.subarray(4).toString());
          } catch (error) {
            assert.ok(error instanceof FrameLengthError);
            refused.push(error);
            reader.skipRefusedFrame();
          }
        }
      }
      assert.deepEqual(got, ['before', 'after', 'and more'], `chunks of ${chunkSize}`);
      assert.equal(refused.length, 1);
      assert.deepEqual([refused[0].length, refused[0].limit, refused[0].header], [216, 100, header]);
    }
    // Without its header yet, nothing is said.
    const waiting = new FrameReader(100, () => true);
    waiting.push(big.subarray(0, 19));
    assert.equal(waiting.next(), undefined);
    // When no header is wanted (no request that may fail alone is waiting), the length is refused at its 4 bytes.
    const atOnce = new FrameReader(100);
    atOnce.push(big.subarray(0, 4));
    assert.throws(() => atOnce.next(), (error) => error instanceof FrameLengthError && error.header === undefined);
  });
});
