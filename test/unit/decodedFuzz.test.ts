// Decoding never throws: every fixture truncated at every length, bit-flipped, and random bytes on every path.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decoders, decodeContextPaths } from '../../src/zk/decoders';
import { DecodeContext, plainTranslate } from '../../src/zk/decoders/types';
import { hasHiddenCharacters } from '../../src/shared/visibleText';
import { bytes, fixtures } from '../support/fixtures/decodedFixtures';

/** A small deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function decodeAll(path: string, data: Uint8Array, context?: DecodeContext): void {
  for (const d of decoders) {
    assert.doesNotThrow(() => d.decode(path, data, plainTranslate, context), `${d.system} threw on ${path} (${data.length} bytes)`);
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

test('related nodes\' data (a Patroni member\'s status and optime) never makes a decoder throw or show hidden characters', () => {
  const next = random(29);
  const hostile = ['{"optime":1e400}', '{"optime":-1}', '{"optime":"5"}', '{"optime":NaN}', '{"optime":9007199254740993}', '{"optime":null}',
    '{"optime":[1]}', '{"optime":{"a":1}}', '[]', '', '18446744073709551615', '-5', 'NaN', '5\u202e', '\u0007', '{"optime":5}', '123'];
  const withContext = fixtures.filter((f) => decodeContextPaths(f.path).length > 0);
  assert.ok(withContext.length > 0, 'a fixture whose decoder reads related nodes');
  for (const f of withContext) {
    const paths = decodeContextPaths(f.path);
    for (let round = 0; round < 300; round++) {
      const context = new Map<string, Uint8Array | null>();
      for (const p of paths) {
        const pick = next();
        if (pick < 0.15) continue; // not read
        if (pick < 0.3) context.set(p, null);
        else if (pick < 0.8) context.set(p, bytes(hostile[Math.floor(next() * hostile.length)]));
        else context.set(p, Uint8Array.from({ length: Math.floor(next() * 24) }, () => Math.floor(next() * 256)));
      }
      decodeAll(f.path, f.data, context);
      const copy = Uint8Array.from(f.data);
      copy[Math.floor(next() * copy.length)] = Math.floor(next() * 256);
      decodeAll(f.path, copy, context);
      // The fixtures' own text is plain, so any hidden character in the line would have come from the context.
      for (const d of decoders) {
        const summary = d.decode(f.path, f.data, plainTranslate, context)?.summary ?? '';
        assert.equal(hasHiddenCharacters(summary), false, `${d.system}: ${JSON.stringify(summary)}`);
      }
    }
  }
});
