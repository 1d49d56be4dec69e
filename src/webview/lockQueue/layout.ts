// Virtualization arithmetic (pure): fixed heights per row kind, and which rows a scroll position shows. Only those
// rows exist in the DOM, so 10,000 waiters cost what 30 do.
import type { Row } from './rows';

export const ROW_HEIGHTS: Record<Row['kind'], number> = {
  deadlock: 44,
  anomaly: 44,
  queue: 36,
  participant: 46,
  note: 28,
};

/** Where rows are: `offsetOf(i)` is the top of row i, `offsetOf(length)` the total height. */
export interface RowGeometry {
  readonly length: number;
  offsetOf(index: number): number;
  /** Index of the row that contains y (clamped to the rows). */
  indexAt(y: number): number;
}

export interface RowWindow {
  /** First row to render. */
  start: number;
  /** One past the last row to render. */
  end: number;
}

/** The rows that intersect [scrollTop - overscan, scrollTop + viewport + overscan). */
export function visibleWindow(rows: RowGeometry, scrollTop: number, viewport: number, overscanPx = 200): RowWindow {
  const count = rows.length;
  if (count <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop - overscanPx);
  const bottom = scrollTop + Math.max(0, viewport) + overscanPx;
  const start = rows.indexAt(top);
  let end = rows.indexAt(bottom) + 1;
  if (end > count) end = count;
  return { start, end };
}

/** The scrollTop that brings row `index` fully into a viewport at `scrollTop`, or undefined if it is in view. */
export function scrollToReveal(rows: RowGeometry, index: number, scrollTop: number, viewport: number): number | undefined {
  const top = rows.offsetOf(index);
  const bottom = rows.offsetOf(index + 1);
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewport) return Math.max(0, bottom - viewport);
  return undefined;
}
