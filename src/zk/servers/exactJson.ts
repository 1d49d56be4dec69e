// A small JSON parser for AdminServer answers that keeps integers JavaScript cannot hold exactly (session ids,
// zxids: 64-bit, above 2^53) as their decimal text. JSON.parse would round them and merge distinct sessions.

export type ExactJson = null | boolean | number | string | ExactJson[] | { [key: string]: ExactJson };

export class ExactJsonError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'ExactJsonError';
  }
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Parses JSON text; integer literals outside ±(2^53 − 1) come back as strings of their exact digits. */
export function parseExactJson(text: string): ExactJson {
  let i = 0;

  const skip = () => {
    while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
  };
  const fail = (what: string): never => {
    throw new ExactJsonError(what, i);
  };
  const expect = (c: string) => {
    if (text[i] !== c) fail(`expected '${c}'`);
    i++;
  };

  const parseString = (): string => {
    expect('"');
    let out = '';
    let start = i;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text[i];
      if (c === '"') break;
      if (c === '\\') {
        out += text.slice(start, i);
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && e in ESCAPES) {
          out += ESCAPES[e];
          i += 2;
        } else {
          fail('bad escape');
        }
        start = i;
      } else {
        i++;
      }
    }
    out += text.slice(start, i);
    i++;
    return out;
  };

  const parseNumber = (): number | string => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail('bad number');
    const literal = (m as RegExpExecArray)[0];
    i += literal.length;
    const value = Number(literal);
    const integer = /^-?\d+$/.test(literal);
    return integer && !Number.isSafeInteger(value) ? literal : value;
  };

  const parseValue = (depth: number): ExactJson => {
    if (depth > 64) fail('nested too deeply');
    skip();
    const c = text[i];
    if (c === '{') {
      i++;
      const object: { [key: string]: ExactJson } = {};
      skip();
      if (text[i] === '}') {
        i++;
        return object;
      }
      for (;;) {
        skip();
        const key = parseString();
        skip();
        expect(':');
        // defineProperty: a key named __proto__ from an untrusted server must stay a plain key.
        Object.defineProperty(object, key, { value: parseValue(depth + 1), enumerable: true, writable: true, configurable: true });
        skip();
        if (text[i] === ',') { i++; continue; }
        expect('}');
        return object;
      }
    }
    if (c === '[') {
      i++;
      const array: ExactJson[] = [];
      skip();
      if (text[i] === ']') {
        i++;
        return array;
      }
      for (;;) {
        array.push(parseValue(depth + 1));
        skip();
        if (text[i] === ',') { i++; continue; }
        expect(']');
        return array;
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    return parseNumber();
  };

  const value = parseValue(0);
  skip();
  if (i !== text.length) fail('unexpected text after the value');
  return value;
}

export function isJsonObject(value: ExactJson | undefined): value is { [key: string]: ExactJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A session id given as a JSON number or exact decimal text, as `0x` + lowercase hex; undefined otherwise. */
export function sessionHexFromJson(value: ExactJson | undefined): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return '0x' + BigInt.asUintN(64, BigInt(value)).toString(16);
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return '0x' + BigInt.asUintN(64, BigInt(value)).toString(16);
  return undefined;
}
