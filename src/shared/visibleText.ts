// How untrusted text (znode names, data, ACL ids, server answers) looks wherever ZooScope shows it: every
// character that is invisible, changes the direction of neighbouring text, or moves the cursor is written out as
// `[U+XXXX]`, so the same name reads the same in the tree, notifications, the lock-queue panel and the CLI.
// Pure: used by the extension host, the webview and the CLI alike.

// Controls (C0, DEL, C1), format characters (bidi embeddings/overrides/isolates/marks, zero-width characters, soft
// hyphen, tags…), line/paragraph separators, private-use (icon fonts map glyphs there), unassigned code points,
// lone surrogates, every space but U+0020, and letters or marks that draw nothing (Hangul fillers, the combining
// grapheme joiner, Khmer inherent vowels, variation selectors, Mongolian selectors, the braille blank).
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180b-\u180f\ufe00-\ufe0f\u2800\u{e0100}-\u{e01ef}]/gu;

/** `U+202E` style code of one code point. */
export function codePointName(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The text with every hidden or direction-changing character written out as `[U+XXXX]`. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, (c) => `[${codePointName(c)}]`);
}

/** Whether `visibleText` would change the text. */
export function hasHiddenCharacters(text: string): boolean {
  HIDDEN.lastIndex = 0;
  const found = HIDDEN.test(text);
  HIDDEN.lastIndex = 0;
  return found;
}

/** At most `max` characters (code points), the middle replaced by `…` so both ends stay readable. */
export function shortened(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}…${tail > 0 ? chars.slice(-tail).join('') : ''}`;
}
