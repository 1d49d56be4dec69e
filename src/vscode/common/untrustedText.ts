// Text from ZooKeeper (names, data, ACL ids, client addresses, server answers) is written by someone else. Each kind
// of VS Code surface interprets some syntax of its own: `[text](command:…)` becomes a clickable link in
// notifications and quick-input prompts, `$(name)` becomes an icon in the status bar, quick picks and labels, Markdown
// renders in tooltips. These helpers make text read literally on each surface, as in a terminal; hidden and
// direction-changing characters are always written out as `[U+XXXX]` (src/shared/visibleText.ts).
import { visibleText } from '../../shared/visibleText';

export { visibleText as shown };

// The link syntax VS Code parses in notifications and prompts: `[label](https://…|command:…|file:…)`. A word joiner
// (zero width, keeps the two characters together) between `]` and `(` makes it plain text.
const LINK_OPENING = /\]\(/g;
const WORD_JOINER = '\u2060';

/** For a notification or a quick-input prompt/validation message: links inert, hidden characters visible. */
export function linkSafe(text: string): string {
  return visibleText(text).replace(LINK_OPENING, `]${WORD_JOINER}(`);
}

/**
 * A plain-text tooltip of several lines of our own making: each line made visible on its own, so the breaks
 * between lines stay breaks while a line break inside a value (data, an ACL id) is written out as [U+000A].
 */
export function shownLines(lines: readonly string[]): string {
  return lines.map(visibleText).join('\n');
}

/** For surfaces that render `$(name)` as an icon: every `$(` escaped (VS Code shows `\$(x)` as the text `$(x)`). */
export function iconSafe(text: string): string {
  return visibleText(text).replace(/\$\(/g, '\\$(');
}

/**
 * A label for an icon-rendering surface built from a template of our own: the literal parts keep their `$(icons)`,
 * every interpolated value is made icon-safe. `withIcons\`$(lock) ${path}\``.
 */
export function withIcons(parts: TemplateStringsArray, ...values: unknown[]): string {
  return parts.reduce((out, part, i) => out + part + (i < values.length ? iconSafe(String(values[i])) : ''), '');
}

/** Escapes text for a MarkdownString (tooltips, hovers), table cells included; hidden characters visible. */
export function markdownSafe(text: string): string {
  // `://` is broken up too, so a URL in a name is no autolink.
  return visibleText(text).replace(/[\\`*_{}[\]()#+\-.!|<>~&$]/g, (c) => `\\${c}`).replace(/:\/\//g, '\\://');
}

/** For quick-input prompts and validation messages, which render both links and icons. */
export function promptSafe(text: string): string {
  return linkSafe(text).replace(/\$\(/g, '\\$(');
}
