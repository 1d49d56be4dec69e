// Dates and numbers in the UI language (`vscode.env.language`, e.g. `zh-cn`), not the host's default locale: a
// Chinese UI reads `2026年11月23日 19:43:13`, not `11/23/2026, 7:43:13 PM`. Free of the vscode API (unit-tested).

/** The locale Intl should use for a VS Code display language; English when Intl does not know it. */
export function intlLocale(language: string | undefined): string {
  if (!language) return 'en';
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([language])[0] ?? 'en';
  } catch {
    return 'en'; // not a well-formed tag
  }
}

/** Newer ICU puts narrow and no-break spaces in dates (`7:43 PM`) and numbers (`1 234`); every view shows those
 *  as hidden characters (`[U+202F]`), so Intl's own spacing becomes plain spaces. */
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f\u2009]/g, ' ');

/** A ZooKeeper time (ms since the epoch) in the language, with the ISO form after it; 0 stays `0` (never set). */
export function formatTimeIn(language: string | undefined, ms: number, timeZone?: string): string {
  if (ms === 0) return '0';
  const date = new Date(ms);
  const local = plainSpaces(new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(date));
  return `${local} (${date.toISOString()})`;
}

export function formatNumberIn(language: string | undefined, value: number, maximumFractionDigits = 0): string {
  return plainSpaces(new Intl.NumberFormat(intlLocale(language), { maximumFractionDigits, minimumFractionDigits: maximumFractionDigits }).format(value));
}
