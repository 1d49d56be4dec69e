// A meaning as plain text (Show Details, the decoded view, the tooltip's rows): the one place a decoder's words
// become visible text. Every summary, role, label, value and reason came from a znode's bytes, so each goes through
// visibleText here, once for every decoder: a line break in a Kafka broker's host cannot start a row of its own,
// and a right-to-left override cannot reorder one.
import { visibleText } from '../../shared/visibleText';
import type { Meaning, MeaningField, Translate } from './types';

const MAX_ROWS = 2000;

/** `label  value` rows, nested groups indented by two spaces; at most MAX_ROWS rows. */
export function fieldLines(fields: readonly MeaningField[]): string[] {
  const lines: string[] = [];
  const walk = (list: readonly MeaningField[], indent: string) => {
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
export function flatFields(fields: readonly MeaningField[], prefix = ''): [string, string][] {
  return fields.flatMap((f): [string, string][] => {
    const label = `${prefix}${visibleText(f.label)}`;
    return f.children ? flatFields(f.children, `${label}.`) : [[label, visibleText(f.value)]];
  });
}

export const meaningHeading = (meaning: Meaning): string => visibleText(`${meaning.systemName}: ${meaning.role}`);

/** The summary line (the tree's description starts with it). */
export const meaningSummary = (meaning: Meaning): string => visibleText(meaning.summary);

/** Why the bytes were not decoded, as one line. */
export const notDecodedLine = (meaning: Meaning, t: Translate): string =>
  visibleText(t('Not decoded: {0}', meaning.raw?.reason ?? ''));

/**
 * The meaning's section of a document: `── heading ──`, then why it was not decoded, or the summary, the election
 * it takes part in, a blank line and the rows.
 */
export function meaningLines(meaning: Meaning, t: Translate): string[] {
  const lines = [`── ${meaningHeading(meaning)} ──`];
  if (meaning.raw) lines.push(notDecodedLine(meaning, t));
  else lines.push(meaningSummary(meaning), ...(meaning.election ? [visibleText(t('Election: {0}', meaning.election))] : []), '', ...fieldLines(meaning.fields));
  return lines;
}
