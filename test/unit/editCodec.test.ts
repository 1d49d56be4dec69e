// The data editor's pure parts: views of bytes as text / hex / base64 and back, refusals with positions, the
// language guess, TTL durations, and the document URI path of a znode.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeView, defaultView, encodedLength, encodeView, guessLanguage } from '../../src/vscode/common/dataCodec';
import { parseLocation, queryFor, uriPathFor } from '../../src/vscode/common/znodeUriPath';
import { formatDuration, parseDuration } from '../../src/vscode/nodes/duration';

const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xa0, 0xb0, 0xc0]);

test('binary data opens as hex, UTF-8 text as text', () => {
  assert.equal(defaultView(bytes), 'hex');
  assert.equal(defaultView(Buffer.from('{"a": "é"}\n\tline')), 'text');
  assert.equal(defaultView(Buffer.from('a\u0000b')), 'hex', 'NUL is not editable text');
  assert.equal(defaultView(Buffer.alloc(0)), 'text');
});

test('hex and base64 views round-trip any bytes, and their lengths are known without encoding', () => {
  for (const view of ['text', 'hex', 'base64'] as const) {
    for (const data of [Buffer.alloc(0), bytes, Buffer.alloc(1000, 7), Buffer.from('hello')]) {
      const encoded = encodeView(data, view);
      assert.equal(encoded.length, encodedLength(data.length, view), `${view} length of ${data.length} bytes`);
      const decoded = decodeView(encoded, view);
      assert.ok(decoded.ok);
      assert.deepEqual(decoded.data, data);
    }
  }
  assert.equal(encodeView(bytes, 'hex').toString(),
    '00000000: 89 50 4e 47 00 ff 10 20 30 40 50 60 70 80 90 a0  |.PNG... 0@P`p...|\n'
    + '00000010: b0 c0                                            |..|\n');
});

test('edited hex: any whitespace, either case; a bad digit is refused with its line and column', () => {
  const ok = decodeView(Buffer.from('DE AD\n be\tef  \n'), 'hex');
  assert.ok(ok.ok);
  assert.deepEqual(ok.data, Buffer.from([0xde, 0xad, 0xbe, 0xef]));
  assert.deepEqual(decodeView(Buffer.from('00 11\n22 zz'), 'hex'), { ok: false, problem: { code: 'badHexDigit', char: 'z', line: 2, column: 4 } });
  assert.deepEqual(decodeView(Buffer.from('00 1'), 'hex'), { ok: false, problem: { code: 'oddHexDigits', digits: 3 } });
});

test('edited base64: wrong characters, lengths and padding are refused', () => {
  assert.deepEqual(decodeView(Buffer.from('aGVs\nbG8*'), 'base64'), { ok: false, problem: { code: 'badBase64Char', char: '*', line: 2, column: 4 } });
  assert.deepEqual(decodeView(Buffer.from('aGVsbG8'), 'base64'), { ok: false, problem: { code: 'badBase64Length', chars: 7 } });
  assert.deepEqual(decodeView(Buffer.from('aG=sbG8='), 'base64'), { ok: false, problem: { code: 'badBase64Padding' } });
  const ok = decodeView(Buffer.from('aGVs\nbG8='), 'base64');
  assert.ok(ok.ok);
  assert.equal(ok.data.toString(), 'hello');
});

test('the language is guessed from the content', () => {
  assert.equal(guessLanguage('{"replicas": 3}'), 'json');
  assert.equal(guessLanguage('[1, 2]'), 'json');
  assert.equal(guessLanguage('{not json'), 'plaintext');
  assert.equal(guessLanguage('<?xml version="1.0"?><a/>'), 'xml');
  assert.equal(guessLanguage('<config><x>1</x></config>'), 'xml');
  assert.equal(guessLanguage('server:\n  port: 8080\n  hosts:\n    - a\n'), 'yaml');
  assert.equal(guessLanguage('---\nanything'), 'yaml');
  assert.equal(guessLanguage('# comment\ndb.url=jdbc:x\ndb.user = app\n'), 'properties');
  assert.equal(guessLanguage('just some words'), 'plaintext');
  assert.equal(guessLanguage(''), 'plaintext');
});

test('TTL durations', () => {
  assert.equal(parseDuration('30s'), 30000);
  assert.equal(parseDuration('10m'), 600000);
  assert.equal(parseDuration('2h'), 7200000);
  assert.equal(parseDuration('1h30m'), 5400000);
  assert.equal(parseDuration('1d 2h'), 93600000);
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('1500'), 1500);
  assert.equal(parseDuration(' 1.5s '), 1500);
  assert.deepEqual(parseDuration('10 minutes'), { code: 'badDuration', text: '10 minutes' });
  assert.deepEqual(parseDuration('m'), { code: 'badDuration', text: 'm' });
  assert.deepEqual(parseDuration(''), { code: 'empty' });
  assert.equal(formatDuration(5400000), '1h 30m');
  assert.equal(formatDuration(1500), '1s 500ms');
});

test('document URI paths keep the connection id and any node name', () => {
  for (const [id, path] of [['local', '/app/config'], ['a/b c%', '/we ird/na?me#1%20'], ['x', '/']] as const) {
    for (const view of ['text', 'hex', 'base64'] as const) {
      assert.deepEqual(parseLocation(uriPathFor(id, path), queryFor(view)), { connectionId: id, path, view });
    }
  }
  assert.equal(parseLocation('/', ''), undefined);
  assert.equal(parseLocation('/x/a', 'view=bogus')?.view, 'text');
});
