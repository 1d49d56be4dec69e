// Open Data's hex view: offsets and an ASCII column like Show Details, and editing stays lossless (decoding ignores
// the offset and the ASCII column, whatever they say after an edit).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeView, encodedLength, encodeView } from '../../src/vscode/common/dataCodec';

const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

test('every line has an 8-digit offset, 16 pairs and an ASCII column with dots for the unprintable', () => {
  const lines = encodeView(all, 'hex').toString('latin1').split('\n');
  assert.equal(lines.pop(), '', 'ends with a line break');
  assert.equal(lines.length, 16);
  assert.equal(lines[4], '00000040: 40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f  |@ABCDEFGHIJKLMNO|');
  assert.equal(lines[7], '00000070: 70 71 72 73 74 75 76 77 78 79 7a 7b 7c 7d 7e 7f  |pqrstuvwxyz{|}~.|');
  assert.equal(lines[0].slice(-18), '|................|');
  for (const line of lines) assert.equal(line.length, lines[0].length, 'columns line up');
});

test('round trip of any bytes and lengths, the length known without encoding', () => {
  for (const size of [0, 1, 15, 16, 17, 255, 256, 1000, 4096 + 3]) {
    const data = Buffer.from(Array.from({ length: size }, (_, i) => (i * 37 + 11) & 0xff));
    const encoded = encodeView(data, 'hex');
    assert.equal(encoded.length, encodedLength(size, 'hex'), `${size} bytes`);
    const decoded = decodeView(encoded, 'hex');
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.data, data);
  }
});

test('an edit of the pairs alone is what gets saved: stale offsets and ASCII columns are ignored', () => {
  const text = encodeView(Buffer.from('hello, world|||:'), 'hex').toString('latin1');
  // Change "h" (68) to "J" (4a), drop the "," (2c), leave the ASCII column and offset as they were.
  const edited = text.replace('68 65', '4a 65').replace(' 2c ', ' ');
  const decoded = decodeView(Buffer.from(edited, 'latin1'), 'hex');
  assert.ok(decoded.ok);
  assert.equal(decoded.data.toString('latin1'), 'Jello world|||:');
  // Bytes typed on a new line of their own, with or without an offset, and pairs without spaces.
  const more = decodeView(Buffer.from(`${text}00000010: 21 22\ncafe |ignored 0x zz|\n`, 'latin1'), 'hex');
  assert.ok(more.ok);
  assert.equal(more.data.subarray(16).toString('hex'), '2122cafe');
});

test('a bad digit among the pairs is refused at its place in the document; one in the ASCII column is not', () => {
  const text = encodeView(Buffer.from('0123456789abcdefXY'), 'hex').toString('latin1');
  const bad = text.replace('58 59', '58 5g');
  assert.deepEqual(decodeView(Buffer.from(bad, 'latin1'), 'hex'), { ok: false, problem: { code: 'badHexDigit', char: 'g', line: 2, column: 15 } });
  const asciiEdited = text.replace('|XY|', '|zz not hex!|');
  const decoded = decodeView(Buffer.from(asciiEdited, 'latin1'), 'hex');
  assert.ok(decoded.ok);
  assert.equal(decoded.data.toString(), '0123456789abcdefXY');
});
