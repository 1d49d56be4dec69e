import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { absolutePath } from '../../src/zk/compare';
import { closing, decodeData, encodeData, opening, parseExport } from '../../src/zk/transfer';

describe('export format', () => {
  test('data: valid UTF-8 as text, anything else as base64, and back byte for byte', () => {
    for (const bytes of [Buffer.from('plain'), Buffer.from('日本 ü\n\0'), Buffer.alloc(0), Buffer.from([0xff, 0x00, 0xc3]), Buffer.from([0xed, 0xa0, 0x80])]) {
      const encoded = encodeData(bytes);
      assert.deepEqual(decodeData(encoded), bytes);
    }
    assert.equal(encodeData(Buffer.from('日本')).encoding, 'utf8');
    assert.equal(encodeData(Buffer.from([0xc3])).encoding, 'base64');
    assert.equal(encodeData(Buffer.from([0xed, 0xa0, 0x80])).encoding, 'base64'); // a UTF-16 surrogate: not UTF-8
  });

  test('a streamed document parses, also with no nodes', () => {
    const text = opening('/a', new Date(0)) + JSON.stringify({ path: '/a', data: '', encoding: 'utf8' }) + ',\n' +
      JSON.stringify({ path: '/a/b', data: 'AQ==', encoding: 'base64' }) + closing();
    const parsed = parseExport(text);
    assert.ok(parsed.ok);
    assert.equal(parsed.doc.nodes.length, 2);
    assert.equal(parsed.doc.exportedAt, '1970-01-01T00:00:00.000Z');
    assert.ok(parseExport(opening('/', new Date()) + closing()).ok);
  });

  test('badNode names the field', () => {
    const doc = (nodes: unknown[]) => JSON.stringify({ format: 'zooscope-export', version: 1, root: '/a', nodes });
    assert.deepEqual(parseExport(doc([null])), { ok: false, problem: { code: 'badNode', index: 0, field: 'node' } });
    assert.deepEqual(parseExport(doc([{ path: '/a', data: 1, encoding: 'utf8' }])), { ok: false, problem: { code: 'badNode', index: 0, field: 'data' } });
    assert.deepEqual(parseExport(doc([{ path: '/a', data: '', encoding: 'hex' }])), { ok: false, problem: { code: 'badNode', index: 0, field: 'encoding' } });
    assert.deepEqual(parseExport(doc([{ path: '/ab', data: '', encoding: 'utf8' }])), { ok: false, problem: { code: 'badNode', index: 0, field: 'path' } });
  });

  test('an import relocates the export\'s paths (relative to its root) under the target root', () => {
    assert.equal(absolutePath('/b/c', '/x'), '/x/b/c');
    assert.equal(absolutePath('/', '/x/y'), '/x/y');
    assert.equal(absolutePath('/b', '/'), '/b');
    assert.equal(absolutePath('/', '/'), '/');
  });
});
