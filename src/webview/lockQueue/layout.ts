// Virtualization arithmetic (pure): fixed heights per row kind, row offsets, and which rows a scroll position
// shows. Only those rows exist in the DOM, so 10,000 waiters cost what 30 do.
import type { Row } from './rows';

export const ROW_HEIGHTS: Record<Row['kind'], number> = {
  deadlock: 44,
  anomaly: 44,
  queue: 36,
  participant: 46,
  note: 28,
};

/** offsets[i] is the top of row i; offsets[rows.length] is the total height. */
export function rowOffsets(rows: readonly Row[]): Float64Array {
  const offsets = new Float64Array(rows.length + 1);
  let y = 0;
  for (let i = 0; i < rows.length; i++) {
    offsets[i] = y;
    y += ROW_HEIGHTS[rows[i].kind];
  }
  offsets[rows.length] = y;
  return offsets;
}

/** Index of the row that contains y (clamped to the rows). */
export function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface RowWindow {
  /** First row to render. */
  start: number;
  /** One past the last row to render. */
  end: number;
}

/** The rows that intersect [scrollTop - overscan, scrollTop + viewport + overscan). */
export function visibleWindow(offsets: Float64Array, scrollTop: number, viewport: number, overscanPx = 200): RowWindow {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop - overscanPx);
  const bottom = scrollTop + Math.max(0, viewport) + overscanPx;
  const start = rowAt(offsets, top);
  let end = rowAt(offsets, bottom) + 1;
  if (end > count) end = count;
  return { start, end };
}

/** The scrollTop that brings row `index` fully into a viewport at `scrollTop`, or undefined if it is in view. */
export function scrollToReveal(offsets: Float64Array, index: number, scrollTop: number, viewport: number): number | undefined {
  const top = offsets[index];
  const bottom = offsets[index + 1];
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewport) return Math.max(0, bottom - viewport);
  return undefined;
}
