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

/**
 * Decoded text: a Kafka broker registration (Kafka's BrokerIdZNode, version 5) whose host, endpoint and listener map
 * hold line breaks that would start a forged `leader` row of their own, and a right-to-left override. Every surface
 * that shows what a node means must show these as text: no line of its own may begin with FORGED_ROW.
 */
export const FORGED_ROW = 'leader            1';
export const HOSTILE_BROKER_PATH = '/brokers/ids/7';
export const HOSTILE_BROKER = Buffer.from(JSON.stringify({
  version: 5, host: `kafka7\n${FORGED_ROW}\n\u202e2909:evil`, port: 9092, jmx_port: -1, timestamp: '1700000000000',
  endpoints: [`PLAINTEXT://kafka7:9092\n${FORGED_ROW}`],
  listener_security_protocol_map: { [`PLAINTEXT\n${FORGED_ROW}`]: 'PLAINTEXT' },
}));

/** The lines of `text` that a hostile value made: a forged row, or a raw hidden character. */
export function forgedLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trimStart().startsWith(FORGED_ROW) || RAW_HIDDEN.test(line));
}
