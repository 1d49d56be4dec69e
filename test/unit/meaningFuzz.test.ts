// Decoding never throws: every fixture truncated at every length, bit-flipped, and random bytes on every path.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decoders } from '../../src/zk/meaning';
import { plainTranslate } from '../../src/zk/meaning/types';
import { fixtures } from './meaningFixtures';

/** A small deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function decodeAll(path: string, data: Uint8Array): void {
  for (const d of decoders) {
    assert.doesNotThrow(() => d.decode(path, data, plainTranslate), `${d.system} threw on ${path} (${data.length} bytes)`);
  }
}

test('every decoder survives every truncation of every fixture', () => {
  for (const f of fixtures) for (let n = 0; n <= f.data.length; n++) decodeAll(f.path, f.data.subarray(0, n));
});

test('every decoder survives flipped bytes and random bytes', () => {
  const next = random(28);
  for (const f of fixtures) {
    for (let round = 0; round < 200; round++) {
      const copy = Uint8Array.from(f.data);
      for (let k = 0; k < 3 && copy.length; k++) copy[Math.floor(next() * copy.length)] = Math.floor(next() * 256);
      decodeAll(f.path, copy);
      const noise = Uint8Array.from({ length: Math.floor(next() * 64) }, () => Math.floor(next() * 256));
      // Framed noise reaches the protobuf reader behind HBase's header.
      decodeAll(f.path, noise.length > 9 ? Uint8Array.from([0xff, 0, 0, 0, 0, 0x50, 0x42, 0x55, 0x46, ...noise]) : noise);
    }
  }
});

test('varints longer than ten bytes and huge lengths are refused, not read past the end', () => {
  const longVarint = Uint8Array.from([0x08, ...new Array<number>(12).fill(0xff), 0x01]);
  const hugeLength = Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x41]);
  for (const data of [longVarint, hugeLength]) decodeAll('/hadoop-ha/ns/ActiveStandbyElectorLock', data);
});
