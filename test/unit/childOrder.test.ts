import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { compareNatural, firstInOrder, rankInOrder, sortChildren } from '../../src/zk/tree/naturalOrder';

function randomNames(count: number, seed: number): string[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = next();
    if (r < 0.4) names.push(`item-${Math.floor(next() * 5000)}`);
    else if (r < 0.7) names.push(`_c_${Math.floor(next() * 1e6).toString(16)}-lock-${String(Math.floor(next() * 1e9)).padStart(10, '0')}`);
    else names.push(`n${Math.floor(next() * 100)}x${Math.floor(next() * 100)}`);
  }
  return [...new Set(names)];
}

test('the first k in order equal the first k of a full sort, for every k', () => {
  const names = randomNames(3000, 7);
  const full = sortChildren(names);
  for (const k of [0, 1, 10, 100, 500, 749, 750, 1000, 2999, 3000, 5000]) {
    assert.deepEqual(firstInOrder(names, k), full.slice(0, k), `k=${k}`);
  }
});

test('a full sort puts plain names first (natural order) then sequential names by number', () => {
  const full = sortChildren(randomNames(2000, 11));
  const firstSeq = full.findIndex((n) => /\d{10}$/.test(n));
  const plain = full.slice(0, firstSeq);
  const seq = full.slice(firstSeq);
  assert.ok(plain.length > 0 && seq.length > 0);
  for (let i = 1; i < plain.length; i++) assert.ok(compareNatural(plain[i - 1], plain[i]) <= 0);
  for (let i = 1; i < seq.length; i++) assert.ok(Number(seq[i - 1].slice(-10)) <= Number(seq[i].slice(-10)));
  assert.ok(!seq.some((n) => !/\d{10}$/.test(n)));
});

test('rankInOrder is the index in the sorted order', () => {
  const names = randomNames(1500, 3);
  const full = sortChildren(names);
  for (const i of [0, 1, 17, 700, full.length - 1]) assert.equal(rankInOrder(names, full[i]), i);
});

test('the first k are right whatever order the server sends the names in', () => {
  const sorted = sortChildren(randomNames(4000, 5));
  const clustered = [...sorted].reverse().flatMap((_, i, all) => (i % 10 === 0 ? all.slice(i, i + 10).reverse() : []));
  for (const input of [sorted, [...sorted].reverse(), clustered]) {
    assert.equal(input.length, sorted.length);
    for (const k of [1, 37, 999]) assert.deepEqual(firstInOrder(input, k), sorted.slice(0, k), `k=${k}`);
  }
});

const wideNames = [...new Set(Array.from({ length: 40000 }, (_, i) => `item-${i * 3 + 1}`).concat(randomNames(20000, 9)))];
// A wide lock queue: sequential names, after a few plain ones, so the bound is a sequence number.
const wideQueue = Array.from({ length: 30000 }, (_, i) => `${i % 2 ? 'x' : '_c_a-lock'}-${String((i * 7919) % 30011).padStart(10, '0')}`)
  .concat(Array.from({ length: 100 }, (_, i) => `plain-${i}`));

for (const [what, names] of [['names', wideNames], ['lock queue', wideQueue]] as const) test(`a wide node (${what}, chosen through a sample) gets the same first k whatever the order, even one that fools the sample`, () => {
  const sorted = sortChildren([...new Set(names)]);
  const n = sorted.length;
  const step = Math.floor(n / 4096);
  /** The sample reads every step-th name: put `chosen` there, the rest elsewhere. */
  const withSample = (chosen: string[]) => {
    const inSample = new Set(chosen);
    const rest = sorted.filter((name) => !inSample.has(name));
    return Array.from({ length: n }, (_, i) => (i % step === 0 && i / step < chosen.length ? chosen[i / step] : rest.pop()!));
  };
  // The largest names in the sample: the bound comes last, and far more than k are below it.
  const fooledLate = withSample(sorted.slice(n - 4096));
  // The smallest: the bound comes first, and fewer than k are below it.
  const fooledEarly = withSample(sorted.slice(0, 4096));
  let seed = 1;
  const shuffled = [...sorted].sort(() => ((seed = (seed * 16807) % 2147483647) % 3) - 1);
  for (const input of [sorted, [...sorted].reverse(), shuffled, fooledLate, fooledEarly]) {
    assert.equal(new Set(input).size, n);
    for (const k of [1, 100, 1000, 3000]) assert.deepEqual(firstInOrder(input, k), sorted.slice(0, k), `k=${k}`);
  }
});
