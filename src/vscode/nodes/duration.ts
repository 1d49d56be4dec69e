// TTL durations as people type them: `30s`, `10m`, `2h`, `1d`, `500ms`, combined `1h30m`, or bare milliseconds.
// Free of the vscode API (unit-tested).

export type DurationProblem = { code: 'empty' } | { code: 'badDuration'; text: string };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number | DurationProblem {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return { code: 'empty' };
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const part = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)/y;
  let total = 0;
  let index = 0;
  while (index < trimmed.length) {
    part.lastIndex = index;
    const m = part.exec(trimmed);
    if (!m) return { code: 'badDuration', text };
    total += Number(m[1]) * UNIT_MS[m[2]];
    index = part.lastIndex;
    while (trimmed[index] === ' ') index++;
  }
  return Math.round(total);
}

export function isDurationProblem(value: number | DurationProblem): value is DurationProblem {
  return typeof value !== 'number';
}

/** 5400000 → `1h 30m`, 1500 → `1s 500ms`. */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1]] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.length ? parts.join(' ') : '0ms';
}
