// A meaning as plain text (Show Details, the decoded view, the tooltip's rows): the one place a decoder's words
// become visible text. Every summary, role, label, value and reason came from a znode's bytes, so each goes through
// visibleText here, once for every decoder: a line break in a Kafka broker's host cannot start a row of its own,
// and a right-to-left override cannot reorder one.
import { visibleText } from '../../shared/visibleText';
import type { Decoded, DecodedField, Translate } from './types';

const MAX_ROWS = 2000;

/** `label  value` rows, nested groups indented by two spaces; at most MAX_ROWS rows. */
export function fieldLines(fields: readonly DecodedField[]): string[] {
  const lines: string[] = [];
  const walk = (list: readonly DecodedField[], indent: string) => {
    const labels = list.map((f) => visibleText(f.label));
    const width = Math.min(32, Math.max(0, ...labels.map((label) => label.length)));
    list.forEach((f, i) => {
      if (lines.length >= MAX_ROWS) return;
      lines.push(`${indent}${labels[i].padEnd(width)}  ${visibleText(f.value)}`.trimEnd());
      if (f.children) walk(f.children, `${indent}  `);
    });
  };
  walk(fields, '');
  return lines;
}

/** One flat line per value for single-line places: the label path joined by dots. */
export function flatFields(fields: readonly DecodedField[], prefix = ''): [string, string][] {
  return fields.flatMap((f): [string, string][] => {
    const label = `${prefix}${visibleText(f.label)}`;
    return f.children ? flatFields(f.children, `${label}.`) : [[label, visibleText(f.value)]];
  });
}

export const decodedHeading = (decoded: Decoded): string => visibleText(`${decoded.systemName}: ${decoded.role}`);

/** The summary line (the tree's description starts with it). */
export const decodedSummary = (decoded: Decoded): string => visibleText(decoded.summary);

/** Why the bytes were not decoded, as one line. */
export const notDecodedLine = (decoded: Decoded, t: Translate): string =>
  visibleText(t('Not decoded: {0}', decoded.raw?.reason ?? ''));

/**
 * The meaning's section of a document: `── heading ──`, then why it was not decoded, or the summary, the election
 * it takes part in, a blank line and the rows.
 */
export function decodedLines(decoded: Decoded, t: Translate): string[] {
  const lines = [`── ${decodedHeading(decoded)} ──`];
  if (decoded.raw) lines.push(notDecodedLine(decoded, t));
  else lines.push(decodedSummary(decoded), ...(decoded.election ? [visibleText(t('Election: {0}', decoded.election))] : []), '', ...fieldLines(decoded.fields));
  return lines;
}
