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

/** The document's bytes for `data` in `view`: text as is, hex as 16 space-separated pairs per line, base64 in 76-column lines. */
export function encodeView(data: Buffer, view: DataView): Buffer {
  if (view === 'text') return data;
  const lines: string[] = [];
  if (view === 'hex') {
    for (let offset = 0; offset < data.length; offset += HEX_BYTES_PER_LINE) {
      lines.push([...data.subarray(offset, offset + HEX_BYTES_PER_LINE)].map((b) => b.toString(16).padStart(2, '0')).join(' '));
    }
  } else {
    const text = data.toString('base64');
    for (let offset = 0; offset < text.length; offset += BASE64_LINE) lines.push(text.slice(offset, offset + BASE64_LINE));
  }
  return Buffer.from(lines.map((line) => line + '\n').join(''), 'latin1');
}

/** The length of `encodeView` for `dataLength` bytes, without encoding (for a FileStat). */
export function encodedLength(dataLength: number, view: DataView): number {
  if (view === 'text') return dataLength;
  if (view === 'hex') return 3 * dataLength;
  const chars = 4 * Math.ceil(dataLength / 3);
  return chars + Math.ceil(chars / BASE64_LINE);
}

function position(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

/** The bytes an edited document in `view` stands for; whitespace anywhere in hex/base64 is ignored. */
export function decodeView(content: Uint8Array, view: DataView): { ok: true; data: Buffer } | { ok: false; problem: DecodeProblem } {
  const raw = Buffer.from(content);
  if (view === 'text') return { ok: true, data: raw };
  const text = raw.toString('utf8');
  if (view === 'hex') {
    const bad = /[^0-9a-fA-F\s]/.exec(text);
    if (bad) return { ok: false, problem: { code: 'badHexDigit', char: bad[0], ...position(text, bad.index) } };
    const digits = text.replace(/\s+/g, '');
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
