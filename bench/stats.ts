// Small helpers shared by the benchmarks: summaries of samples, ratios, a monotonic clock and the result table.
import { performance } from 'node:perf_hooks';

export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) return { n: 0, median: NaN, min: NaN, max: NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { n: sorted.length, median, min: sorted[0], max: sorted[sorted.length - 1] };
}

export const now = (): number => performance.now();

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs a full collection when the process runs with --expose-gc (twice: weak references need a second pass). */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

export const hasGc = (): boolean => typeof (globalThis as { gc?: unknown }).gc === 'function';

/** One line of the printed table (and of the JSON). */
export interface Row {
  bench: string;
  case: string;
  /** `n`: a count (e.g. notifications). */
  unit: 'ms' | 'MiB' | 'KiB' | '%' | 'B' | 'n' | '/s';
  summary: Summary;
  /** What the ratio is taken against (measured in the same run). */
  baseline?: { label: string; summary: Summary };
  /**
   * A goal for the median, e.g. `<= 200` (or `>= 80` for a share where more is better); `on: 'ratio'` sets it for
   * the ratio to the baseline instead (e.g. `<= 1`: no slower than the same work done bare).
   */
  goal?: { op: '<=' | '<' | '>='; value: number; on?: 'median' | 'ratio' };
  /**
   * Ratios to the baseline, one per run, each taken within that run (paired): the ratio shown is their median.
   * Without them the ratio is of the two medians, which the table marks as unpaired.
   */
  ratios?: number[];
  /** The 1-minute load average when each sample was taken (or once for the row). */
  load?: number[];
  note?: string;
  samples?: number[];
}

export function ratio(row: Row): number | undefined {
  if (row.ratios?.length) return summarize(row.ratios).median;
  const b = row.baseline?.summary.median;
  return b !== undefined && b > 0 ? row.summary.median / b : undefined;
}

export function meetsGoal(row: Row): boolean | undefined {
  if (!row.goal) return undefined;
  const m = row.goal.on === 'ratio' ? ratio(row) : row.summary.median;
  if (m === undefined || !Number.isFinite(m)) return false;
  if (row.goal.op === '>=') return m >= row.goal.value;
  return row.goal.op === '<=' ? m <= row.goal.value : m < row.goal.value;
}

function num(value: number, unit: Row['unit']): string {
  if (!Number.isFinite(value)) return '-';
  if (unit === 'B') return String(Math.round(value));
  if (unit === 'n') return Number.isInteger(value) ? String(value) : value.toFixed(1);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toFixed(digits);
}

function range(s: Summary, unit: Row['unit']): string {
  return s.n > 1 ? `${num(s.min, unit)}–${num(s.max, unit)}` : '';
}

const times = (r: number) => `${r.toFixed(r >= 10 ? 0 : 2)}×`;

function ratioCell(row: Row): string {
  const r = ratio(row);
  if (r === undefined) return '';
  if (!row.ratios?.length) return `${times(r)} unpaired`;
  const s = summarize(row.ratios);
  return s.n > 1 ? `${times(r)} (${times(s.min)}–${times(s.max)})` : times(r);
}

function loadCell(row: Row): string {
  if (!row.load?.length) return '';
  const s = summarize(row.load);
  return s.n > 1 && s.max - s.min >= 0.05 ? `${s.median.toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)})` : s.median.toFixed(1);
}

function goalCell(row: Row): string {
  if (!row.goal) return '';
  const target = row.goal.on === 'ratio' ? `${row.goal.value}×` : `${row.goal.value} ${row.unit}`;
  return `${row.goal.op} ${target} ${meetsGoal(row) ? 'met' : 'MISSED'}`;
}

/** One table: every figure with its spread, the load it was measured under, its baseline, ratio and goal. */
export function formatTable(rows: readonly Row[]): string {
  const header = ['bench', 'case', 'median', 'min–max', 'n', 'load avg', 'baseline (median)', 'ratio (paired: min–max)', 'goal'];
  const lines = rows.map((row) => [
    row.bench,
    row.case,
    `${num(row.summary.median, row.unit)} ${row.unit}`,
    range(row.summary, row.unit),
    String(row.summary.n),
    loadCell(row),
    row.baseline ? `${row.baseline.label} ${num(row.baseline.summary.median, row.unit)} ${row.unit}` : '',
    ratioCell(row),
    goalCell(row),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(fmt)].join('\n');
}
