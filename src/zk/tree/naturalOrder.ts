// How children are ordered in the tree: sequential names (lock queues, elections) by their sequence number
// whatever their prefix, everything else naturally (item-2 before item-10).

/** The order key of a plain name: below every sequence number, so plain names come first. */
const PLAIN = -Infinity;

/**
 * The sequence number ZooKeeper appended (`%010d`: ten digits, or `-` and nine after overflow), else PLAIN. Read
 * from the end without a regular expression or a substring: the tree reads it for every child of a wide node.
 */
function sequenceKey(name: string): number {
  let value = 0;
  let scale = 1;
  let i = name.length;
  while (i > 0 && scale < 1e10) {
    const c = name.charCodeAt(i - 1);
    if (c < 48 || c > 57) break;
    value += (c - 48) * scale;
    scale *= 10;
    i--;
  }
  if (scale === 1e10) return value;
  if (scale === 1e9 && i > 0 && name.charCodeAt(i - 1) === 45) return -value;
  return PLAIN;
}

/** The sequence number ZooKeeper appended (`%010d`, negative after overflow), or undefined. */
export function sequenceNumber(name: string): number | undefined {
  const key = sequenceKey(name);
  return key === PLAIN ? undefined : key;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Compares digit runs as numbers (by value, then by length so `01` and `1` stay distinct), the rest by code unit. */
export function compareNatural(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      let ei = i;
      let ej = j;
      while (ei < a.length && isDigit(a.charCodeAt(ei))) ei++;
      while (ej < b.length && isDigit(b.charCodeAt(ej))) ej++;
      let si = i;
      let sj = j;
      while (si < ei - 1 && a.charCodeAt(si) === 48) si++;
      while (sj < ej - 1 && b.charCodeAt(sj) === 48) sj++;
      const lengthDiff = (ei - si) - (ej - sj);
      if (lengthDiff !== 0) return lengthDiff;
      for (let k = 0; k < ei - si; k++) {
        const d = a.charCodeAt(si + k) - b.charCodeAt(sj + k);
        if (d !== 0) return d;
      }
      const padding = (ei - i) - (ej - j);
      if (padding !== 0) return padding;
      i = ei;
      j = ej;
    } else {
      if (ca !== cb) return ca - cb;
      i++;
      j++;
    }
  }
  return (a.length - i) - (b.length - j);
}

/**
 * Display order of two names given their sequence keys: plain names first in natural order, then sequential names
 * by sequence number, ties by name.
 */
function compareKeys(a: string, seqA: number, b: string, seqB: number): number {
  if (seqA !== seqB) return seqA < seqB ? -1 : 1;
  return compareNatural(a, b);
}

/** A max-heap (the last in display order on top) of at most `capacity` names with their sequence keys. */
class LargestOnTop {
  readonly names: string[] = [];
  readonly seqs: Float64Array;

  constructor(readonly capacity: number) {
    this.seqs = new Float64Array(capacity);
  }

  /** Keeps `name` if it is among the `capacity` first seen so far in display order. */
  offer(name: string, seq: number): void {
    const { names, seqs } = this;
    if (names.length < this.capacity) {
      let i = names.length;
      names.push(name);
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (compareKeys(names[up], seqs[up], name, seq) >= 0) break;
        names[i] = names[up];
        seqs[i] = seqs[up];
        i = up;
      }
      names[i] = name;
      seqs[i] = seq;
      return;
    }
    // Most names of a wide node are rejected here, with one comparison against the current last.
    if (compareKeys(name, seq, names[0], seqs[0]) >= 0) return;
    const size = names.length;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && compareKeys(names[child + 1], seqs[child + 1], names[child], seqs[child]) > 0) child++;
      if (compareKeys(names[child], seqs[child], name, seq) <= 0) break;
      names[i] = names[child];
      seqs[i] = seqs[child];
      i = child;
    }
    names[i] = name;
    seqs[i] = seq;
  }
}

/** `names` (all of them) in display order, sorted by index with their keys read once. */
function sortAll(names: readonly string[]): string[] {
  const seqs = new Float64Array(names.length);
  const order: number[] = new Array<number>(names.length);
  for (let i = 0; i < names.length; i++) {
    seqs[i] = sequenceKey(names[i]);
    order[i] = i;
  }
  order.sort((x, y) => compareKeys(names[x], seqs[x], names[y], seqs[y]));
  return order.map((i) => names[i]);
}

/** Below this many names the bounded heap alone is as quick as sampling first. */
const SAMPLED_FROM = 16384;
const SAMPLE_SIZE = 4096;

/**
 * The first `count` child names in display order. Only that prefix is sorted: opening a node with 100,000
 * children needs its first page, not a full sort. For a wide node a sample gives a bound that the first `count`
 * are very likely below: one pass with one comparison per name keeps those, and only they are sorted. When the
 * bound falls short (a sample is not the whole), a bounded heap keeps the first `count` in one pass instead.
 */
export function firstInOrder(names: readonly string[], count: number): string[] {
  const k = Math.min(count, names.length);
  if (k <= 0) return [];
  if (k >= names.length / 4) return firstOfSorted(names, k);
  const below = names.length >= SAMPLED_FROM ? belowSampledBound(names, k) : undefined;
  if (below) return firstOfSorted(below, k);
  const heap = new LargestOnTop(k);
  for (const name of names) heap.offer(name, sequenceKey(name));
  return sortAll(heap.names);
}

/**
 * The names below a bound taken from an evenly spaced sample, at a rank a few standard deviations past where the
 * k-th name should fall; undefined when they are fewer than k (the bound fell short) or far more (a skewed sample).
 */
function belowSampledBound(names: readonly string[], k: number): string[] | undefined {
  const step = Math.floor(names.length / SAMPLE_SIZE);
  const expected = (k * SAMPLE_SIZE) / names.length;
  const sample = new LargestOnTop(Math.min(SAMPLE_SIZE, Math.ceil(expected + 3 * Math.sqrt(expected) + 2)));
  for (let i = 0; i < SAMPLE_SIZE; i++) sample.offer(names[i * step], sequenceKey(names[i * step]));
  const bound = sample.names[0];
  const boundSeq = sample.seqs[0];
  const below: string[] = [];
  if (boundSeq === PLAIN) {
    // Only plain names come before a plain one: the sequence number is read for the few below it by name.
    for (const name of names) if (compareNatural(name, bound) < 0 && sequenceKey(name) === PLAIN) below.push(name);
  } else {
    for (const name of names) if (compareKeys(name, sequenceKey(name), bound, boundSeq) < 0) below.push(name);
  }
  return below.length >= k && below.length <= 4 * k ? below : undefined;
}

/** The first k of `names` in display order, by a full sort. */
function firstOfSorted(names: readonly string[], k: number): string[] {
  const all = sortAll(names);
  all.length = k;
  return all;
}

/** All names in display order. Returns a new array. */
export function sortChildren(names: readonly string[]): string[] {
  return sortAll(names);
}

/**
 * Where `name` goes in `sorted` (names already in display order): the index of the first name not before it, so
 * `sorted[index] === name` when it is there. A binary search: a listing that follows events inserts one name.
 */
export function placeInOrder(sorted: readonly string[], name: string): number {
  const seq = sequenceKey(name);
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys(sorted[middle], sequenceKey(sorted[middle]), name, seq) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How many of `names` come before `name` in display order (its index once sorted). */
export function rankInOrder(names: readonly string[], name: string): number {
  const seq = sequenceKey(name);
  let rank = 0;
  for (const other of names) if (compareKeys(other, sequenceKey(other), name, seq) < 0) rank++;
  return rank;
}
