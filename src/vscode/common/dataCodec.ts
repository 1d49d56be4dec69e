// How a znode's bytes become an editable document and back: UTF-8 text as is, anything else as hex or base64
// text that saving parses back to bytes. Free of the vscode API (unit-tested on plain buffers).

export type DataView = 'text' | 'hex' | 'base64';

export const DATA_VIEWS: readonly DataView[] = ['text', 'hex', 'base64'];

/** Why an edited hex/base64 document cannot become bytes; `line`/`column` are 1-based. */
export type DecodeProblem =
  | { code: 'badHexDigit'; char: string; line: number; column: number }
  | { code: 'oddHexDigits'; digits: number }
  | { code: 'badBase64Char'; char: string; line: number; column: number }
  | { code: 'badBase64Length'; chars: number }
  | { code: 'badBase64Padding' };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const HEX_BYTES_PER_LINE = 16;
const BASE64_LINE = 76;

/** Text when the bytes are valid UTF-8 without NUL or other control characters (tabs and line breaks are fine). */
export function isEditableText(data: Uint8Array): boolean {
  let text: string;
  try {
    text = strictUtf8.decode(data);
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

export function defaultView(data: Uint8Array): DataView {
  return isEditableText(data) ? 'text' : 'hex';
}

// A hex line: `00000010: 89 50 4e 47 …  |.PNG…|`. The offset (up to its colon) and the ASCII column (from the first
// `|`) are for reading: decoding ignores both, so editing the pairs alone is lossless.
const HEX_PAIRS_WIDTH = HEX_BYTES_PER_LINE * 3 - 1;
/** Offset `00000000: ` + pairs padded to their full width + `  |` … `|` + line break, besides one character per byte. */
const HEX_LINE_OVERHEAD = 10 + HEX_PAIRS_WIDTH + 3 + 1 + 1;

export function hexLine(offset: number, row: Uint8Array): string {
  const pairs = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  return `${offset.toString(16).padStart(8, '0')}: ${pairs.padEnd(HEX_PAIRS_WIDTH)}  |${ascii}|`;
}

/** The document's bytes for `data` in `view`: text as is, hex as 16 pairs per line between an offset and an ASCII
 *  column, base64 in 76-column lines. */
export function encodeView(data: Buffer, view: DataView): Buffer {
  if (view === 'text') return data;
  const lines: string[] = [];
  if (view === 'hex') {
    for (let offset = 0; offset < data.length; offset += HEX_BYTES_PER_LINE) lines.push(hexLine(offset, data.subarray(offset, offset + HEX_BYTES_PER_LINE)));
  } else {
    const text = data.toString('base64');
    for (let offset = 0; offset < text.length; offset += BASE64_LINE) lines.push(text.slice(offset, offset + BASE64_LINE));
  }
  return Buffer.from(lines.map((line) => line + '\n').join(''), 'latin1');
}

/** The length of `encodeView` for `dataLength` bytes, without encoding (for a FileStat). */
export function encodedLength(dataLength: number, view: DataView): number {
  if (view === 'text') return dataLength;
  if (view === 'hex') return dataLength + HEX_LINE_OVERHEAD * Math.ceil(dataLength / HEX_BYTES_PER_LINE);
  const chars = 4 * Math.ceil(dataLength / 3);
  return chars + Math.ceil(chars / BASE64_LINE);
}

function position(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

/** The hex document with each line's offset (`…:`) and ASCII column (from the first `|`) blanked out, so positions
 *  of what is left stay those of the document. */
function hexDigitsOnly(text: string): string {
  return text.split('\n').map((line) => {
    const offset = /^\s*[0-9a-fA-F]+:/.exec(line);
    let kept = offset ? ' '.repeat(offset[0].length) + line.slice(offset[0].length) : line;
    const bar = kept.indexOf('|');
    if (bar >= 0) kept = kept.slice(0, bar) + ' '.repeat(kept.length - bar);
    return kept;
  }).join('\n');
}

/** The bytes an edited document in `view` stands for; whitespace anywhere in hex/base64 is ignored, and so are a hex
 *  line's offset and ASCII column. */
export function decodeView(content: Uint8Array, view: DataView): { ok: true; data: Buffer } | { ok: false; problem: DecodeProblem } {
  const raw = Buffer.from(content);
  if (view === 'text') return { ok: true, data: raw };
  const text = raw.toString('utf8');
  if (view === 'hex') {
    const pairs = hexDigitsOnly(text);
    const bad = /[^0-9a-fA-F\s]/.exec(pairs);
    if (bad) return { ok: false, problem: { code: 'badHexDigit', char: bad[0], ...position(text, bad.index) } };
    const digits = pairs.replace(/\s+/g, '');
    if (digits.length % 2 !== 0) return { ok: false, problem: { code: 'oddHexDigits', digits: digits.length } };
    return { ok: true, data: Buffer.from(digits, 'hex') };
  }
  const bad = /[^A-Za-z0-9+/=\s]/.exec(text);
  if (bad) return { ok: false, problem: { code: 'badBase64Char', char: bad[0], ...position(text, bad.index) } };
  const chars = text.replace(/\s+/g, '');
  if (chars.length % 4 !== 0) return { ok: false, problem: { code: 'badBase64Length', chars: chars.length } };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(chars)) return { ok: false, problem: { code: 'badBase64Padding' } };
  return { ok: true, data: Buffer.from(chars, 'base64') };
}

export type GuessedLanguage = 'json' | 'xml' | 'yaml' | 'properties' | 'plaintext';

/** A language for text data from its content: JSON that parses, XML markup, YAML or Java properties lines. */
export function guessLanguage(text: string): GuessedLanguage {
  const trimmed = text.trim();
  if (trimmed === '') return 'plaintext';
  if (/^[[{]/.test(trimmed)) {
    try {
      JSON.parse(trimmed);
      return 'json';
    } catch { /* not JSON: go on */ }
  }
  if (/^<(\?xml|[A-Za-z_!])/.test(trimmed) && trimmed.endsWith('>')) return 'xml';
  const lines = trimmed.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !/^[#!]/.test(l));
  if (lines.length === 0) return 'plaintext';
  if (trimmed.startsWith('---')) return 'yaml';
  const share = (re: RegExp) => lines.filter((l) => re.test(l)).length / lines.length;
  if (share(/^[\w.-]+\s*[=:]\s*\S?/) >= 0.8 && share(/^[\w.-]+\s*=/) >= 0.5) return 'properties';
  if (share(/^(- |[\w."'-]+\s*:(\s|$))/) >= 0.8 && lines.some((l) => /:(\s|$)/.test(l))) return 'yaml';
  return 'plaintext';
}
