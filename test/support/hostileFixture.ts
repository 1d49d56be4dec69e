// One hostile fixture for every surface: znode names and data that try to act (links to command: and https:
// targets), spoof (codicon syntax, markup, templates), hide or reorder (bidi controls, zero-width characters) and
// overflow (a 900-character name, ANSI escapes in data). Every name is one ZooKeeper accepts (no "/", no C0/C1
// controls: the server refuses those).
export const ANSI_TEXT = 'red\u001b[31mALERT\u001b[0m';
export const HOSTILE_NAMES = {
  commandLink: '[run](command:workbench.action.terminal.new)',
  // Names cannot hold "/", so no https:// link; file: needs none.
  fileLink: '[docs](file:evil.sh)',
  icons: '$(error) $(shield) spoof',
  markup: '<img src=x onerror=alert(1)><script>alert(2)<svg onload=alert(3)>',
  template: '{{constructor.constructor("alert(4)")()}} ${process.exit()} {0}',
  rtlOverride: 'invoice-\u202Egnp.exe',
  zeroWidth: 'adm\u200Bin\u200D\uFEFF',
  isolates: 'a\u2066b\u2067c\u2068d\u2069e\u202Af\u202Bg\u202Ch\u202Di',
} as const;

export const LONG_NAME = `long-${'x'.repeat(890)}-end`;

export const HOSTILE_DATA = Buffer.from(
  `[click](command:workbench.action.terminal.new) [docs](https://example.invalid/steal) $(error) <b>bold</b> \u202Ereversed\u202C \u001b[2J\u001b[31mred\u001b[0m \u200B`, 'utf8');

/** VS Code's own link syntax in notifications and quick-input prompts (src/vs/base/common/linkedText.ts). */
export const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;

/** Characters that must never reach a surface raw (bidi controls, zero-width, controls). U+2060 is allowed only as ZooScope's own link breaker after "]". */
export const RAW_HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|(?<!\])\u2060/;

/** Whether an icon-rendering surface would show `$(name)` as an icon: an unescaped `$(` (VS Code shows `\$(` as text). */
export const UNESCAPED_ICON = /(?<!\\)\$\([a-z0-9-]+(~[a-z]+)?\)/i;
