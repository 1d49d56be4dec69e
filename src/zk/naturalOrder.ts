// How children are ordered in the tree: sequential names (lock queues, elections) by their sequence number
// whatever their prefix, everything else naturally (item-2 before item-10).

const SEQUENCE_SUFFIX = /(?:\d{10}|-\d{9})$/;

/** The sequence number ZooKeeper appended (`%010d`, negative after overflow), or undefined. */
export function sequenceNumber(name: string): number | undefined {
  const m = SEQUENCE_SUFFIX.exec(name);
  return m ? Number(m[0]) : undefined;
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

interface Keyed {
  name: string;
  /** Sequence number, or undefined for a plain name. */
  seq: number | undefined;
}

/** Display order: plain names first in natural order, then sequential names by sequence number, ties by name. */
function compareKeyed(x: Keyed, y: Keyed): number {
  if (x.seq === undefined) return y.seq === undefined ? compareNatural(x.name, y.name) : -1;
  if (y.seq === undefined) return 1;
  return x.seq - y.seq || compareNatural(x.name, y.name);
}

function keyed(names: readonly string[]): Keyed[] {
  return names.map((name) => ({ name, seq: sequenceNumber(name) }));
}

/** Moves the k smallest items to items[0..k) (unordered), in linear expected time (quickselect). */
function selectSmallest(items: Keyed[], k: number): void {
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const pivot = items[lo + Math.floor(Math.random() * (hi - lo + 1))];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (compareKeyed(items[i], pivot) < 0) i++;
      while (compareKeyed(items[j], pivot) > 0) j--;
      if (i <= j) {
        const tmp = items[i];
        items[i] = items[j];
        items[j] = tmp;
        i++;
        j--;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}

/**
 * The first `count` child names in display order. Only that prefix is sorted: opening a node with 100,000
 * children needs its first page, not a full sort.
 */
export function firstInOrder(names: readonly string[], count: number): string[] {
  const items = keyed(names);
  const k = Math.min(count, items.length);
  if (k < items.length / 4) {
    selectSmallest(items, k);
    items.length = k;
  }
  items.sort(compareKeyed);
  return items.slice(0, k).map((item) => item.name);
}

/** All names in display order. Returns a new array. */
export function sortChildren(names: readonly string[]): string[] {
  return firstInOrder(names, names.length);
}

/** How many of `names` come before `name` in display order (its index once sorted). */
export function rankInOrder(names: readonly string[], name: string): number {
  const target = { name, seq: sequenceNumber(name) };
  let rank = 0;
  for (const other of names) if (compareKeyed({ name: other, seq: sequenceNumber(other) }, target) < 0) rank++;
  return rank;
}
