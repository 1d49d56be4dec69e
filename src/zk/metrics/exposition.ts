// Prometheus's two exposition formats, written by hand (the CLI ships as one bundle with no runtime dependencies):
// the text format 0.0.4 and OpenMetrics 1.0, chosen from the scraper's Accept header. Label values are escaped as
// both formats require (backslash, double quote, newline), whatever a znode path holds; nothing else is changed, so
// a path stays joinable with other data. Families are built at scrape time from plain numbers.

export type ExpositionFormat = 'text' | 'openmetrics';

export const CONTENT_TYPES: Record<ExpositionFormat, string> = {
  text: 'text/plain; version=0.0.4; charset=utf-8',
  openmetrics: 'application/openmetrics-text; version=1.0.0; charset=utf-8',
};

/**
 * The format an Accept header asks for: the supported media type with the highest q (the first listed on a tie);
 * OpenMetrics only in version 1.0.0 (or unversioned), the text format otherwise (also when nothing matches).
 */
export function formatFor(accept: string | undefined): ExpositionFormat {
  let best: { format: ExpositionFormat; q: number } | undefined;
  for (const part of (accept ?? '').split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim());
    const param = (name: string) => params.find((p) => p.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1).trim();
    const q = param('q') === undefined ? 1 : Number(param('q'));
    if (!(q > 0)) continue;
    const version = param('version');
    let format: ExpositionFormat | undefined;
    const media = type.toLowerCase();
    if (media === 'application/openmetrics-text' && (version === undefined || version === '1.0.0')) format = 'openmetrics';
    else if ((media === 'text/plain' && (version === undefined || version === '0.0.4')) || media === '*/*' || media === 'text/*') format = 'text';
    if (format && (!best || q > best.q)) best = { format, q };
  }
  return best?.format ?? 'text';
}

/** A label value as both formats require it: `\` `"` and newline escaped, everything else as it is. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

export type Labels = readonly (readonly [name: string, value: string])[];

function labelText(labels: Labels, extra?: readonly [string, string]): string {
  const all = extra ? [...labels, extra] : labels;
  return all.length === 0 ? '' : `{${all.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',')}}`;
}

/** A sample value: finite numbers as JavaScript writes them (a Go float parser reads them), infinities as ±Inf. */
function valueText(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

/** A bucket bound; OpenMetrics wants the canonical float form (`1.0`, not `1`). */
function boundText(bound: number, format: ExpositionFormat): string {
  if (bound === Infinity) return '+Inf';
  const text = String(bound);
  return format === 'openmetrics' && /^-?\d+$/.test(text) ? `${text}.0` : text;
}

export interface HistogramValue {
  /** Cumulative counts, one per bound (the last bound is +Inf). */
  cumulative: readonly number[];
  sum: number;
  count: number;
}

export type Family =
  | { type: 'counter' | 'gauge'; name: string; help: string; unit?: string; samples: { labels: Labels; value: number }[] }
  | { type: 'histogram'; name: string; help: string; unit?: string; bounds: readonly number[]; samples: { labels: Labels; value: HistogramValue }[] };

/**
 * The families in `format`. A counter's family `name` ends in `_total` in the text format (as its samples do) and
 * without it in OpenMetrics, which names the family and suffixes the sample; OpenMetrics ends with `# EOF`.
 */
export function render(families: readonly Family[], format: ExpositionFormat): string {
  const lines: string[] = [];
  for (const family of families) {
    const sampleName = family.type === 'counter' ? `${family.name}_total` : family.name;
    const familyName = family.type === 'counter' && format === 'text' ? sampleName : family.name;
    // HELP escapes backslash and newline in both formats (and the double quote in OpenMetrics).
    const help = family.help.replace(/[\\\n"]/g, (c) => (c === '\n' ? '\\n' : c === '"' && format === 'text' ? c : `\\${c}`));
    lines.push(`# HELP ${familyName} ${help}`, `# TYPE ${familyName} ${family.type}`);
    if (family.unit && format === 'openmetrics') lines.push(`# UNIT ${familyName} ${family.unit}`);
    if (family.type === 'histogram') {
      for (const { labels, value } of family.samples) {
        family.bounds.forEach((bound, i) => lines.push(`${family.name}_bucket${labelText(labels, ['le', boundText(bound, format)])} ${value.cumulative[i]}`));
        lines.push(`${family.name}_sum${labelText(labels)} ${valueText(value.sum)}`, `${family.name}_count${labelText(labels)} ${value.count}`);
      }
    } else {
      for (const { labels, value } of family.samples) lines.push(`${sampleName}${labelText(labels)} ${valueText(value)}`);
    }
  }
  if (format === 'openmetrics') lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}
