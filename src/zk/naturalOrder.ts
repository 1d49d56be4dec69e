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

/**
 * Sorts child names for display: plain names first in natural order, then sequential names by sequence number
 * (ties, such as a Curator read lock reusing its writer's number, by name). Returns a new array.
 */
export function sortChildren(names: readonly string[]): string[] {
  const plain: string[] = [];
  const sequential: { name: string; seq: number }[] = [];
  for (const name of names) {
    const seq = sequenceNumber(name);
    if (seq === undefined) plain.push(name);
    else sequential.push({ name, seq });
  }
  plain.sort(compareNatural);
  sequential.sort((x, y) => x.seq - y.seq || compareNatural(x.name, y.name));
  return plain.concat(sequential.map((s) => s.name));
}
