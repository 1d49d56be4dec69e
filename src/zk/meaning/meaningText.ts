// A meaning as plain lines (Show Details, the decoded view): a heading, then label/value rows, groups indented.
import type { Meaning, MeaningField } from './types';

const MAX_ROWS = 2000;

/** `label  value` rows, nested groups indented by two spaces; at most MAX_ROWS rows. */
export function fieldLines(fields: readonly MeaningField[]): string[] {
  const lines: string[] = [];
  const walk = (list: readonly MeaningField[], indent: string) => {
    const width = Math.min(32, Math.max(0, ...list.map((f) => f.label.length)));
    for (const f of list) {
      if (lines.length >= MAX_ROWS) return;
      lines.push(`${indent}${f.label.padEnd(width)}  ${f.value}`.trimEnd());
      if (f.children) walk(f.children, `${indent}  `);
    }
  };
  walk(fields, '');
  return lines;
}

/** One flat line per value for single-line places: the label path joined by dots. */
export function flatFields(fields: readonly MeaningField[], prefix = ''): [string, string][] {
  return fields.flatMap((f): [string, string][] => (f.children ? flatFields(f.children, `${prefix}${f.label}.`) : [[`${prefix}${f.label}`, f.value]]));
}

export const meaningHeading = (meaning: Meaning): string => `${meaning.systemName}: ${meaning.role}`;
