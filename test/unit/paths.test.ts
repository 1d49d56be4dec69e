import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ancestors, baseName, characterInWords, checkNodeName, checkPath, joinPath, parentPath } from '../../src/zk/paths';

describe('checkPath', () => {
  test('accepts the root, /zookeeper and ordinary paths', () => {
    assert.equal(checkPath('/'), undefined);
    assert.equal(checkPath('/zookeeper'), undefined);
    assert.equal(checkPath('/zookeeper/config'), undefined);
    assert.equal(checkPath('/a b/ü/日本/..x/.y/x..'), undefined);
  });

  test('empty and relative paths', () => {
    assert.deepEqual(checkPath(''), { code: 'empty' });
    assert.deepEqual(checkPath('a/b'), { code: 'notAbsolute' });
    assert.deepEqual(checkPath('./a'), { code: 'notAbsolute' });
  });

  test('a trailing slash', () => {
    assert.deepEqual(checkPath('/a/'), { code: 'trailingSlash' });
    assert.deepEqual(checkPath('//'), { code: 'trailingSlash' });
  });

  test('an empty segment, with its index', () => {
    assert.deepEqual(checkPath('//a'), { code: 'emptySegment', index: 1 });
    assert.deepEqual(checkPath('/a//b'), { code: 'emptySegment', index: 3 });
  });

  test('. and .. segments, with their index', () => {
    assert.deepEqual(checkPath('/.'), { code: 'relativeSegment', segment: '.', index: 1 });
    assert.deepEqual(checkPath('/a/..'), { code: 'relativeSegment', segment: '..', index: 3 });
    assert.deepEqual(checkPath('/a/./b'), { code: 'relativeSegment', segment: '.', index: 3 });
  });

  test('forbidden characters: NUL, controls, DEL, C1, surrogates, private use, specials', () => {
    assert.deepEqual(checkPath('/a\u0000'), { code: 'invalidCharacter', codePoint: 0, index: 2 });
    assert.deepEqual(checkPath('/a\nb'), { code: 'invalidCharacter', codePoint: 0x0a, index: 2 });
    assert.deepEqual(checkPath('/\u001f'), { code: 'invalidCharacter', codePoint: 0x1f, index: 1 });
    assert.deepEqual(checkPath('/x\u007f'), { code: 'invalidCharacter', codePoint: 0x7f, index: 2 });
    assert.deepEqual(checkPath('/x\u009f'), { code: 'invalidCharacter', codePoint: 0x9f, index: 2 });
    assert.deepEqual(checkPath('/\ud83d\ude00'), { code: 'invalidCharacter', codePoint: 0xd83d, index: 1 });
    assert.deepEqual(checkPath('/\uf8ff'), { code: 'invalidCharacter', codePoint: 0xf8ff, index: 1 });
    assert.deepEqual(checkPath('/\ufff0'), { code: 'invalidCharacter', codePoint: 0xfff0, index: 1 });
    // Just outside the ranges.
    assert.equal(checkPath('/\u0020\u007e\u00a0\ud7ff\uf900\uffef'), undefined);
  });
});

describe('checkNodeName', () => {
  test('ordinary names pass', () => {
    assert.equal(checkNodeName('lock-0000000001'), undefined);
    assert.equal(checkNodeName('zookeeper'), undefined);
  });

  test('problems are indexed within the name', () => {
    assert.deepEqual(checkNodeName(''), { code: 'empty' });
    assert.deepEqual(checkNodeName('a/b'), { code: 'invalidCharacter', codePoint: 0x2f, index: 1 });
    assert.deepEqual(checkNodeName('/'), { code: 'invalidCharacter', codePoint: 0x2f, index: 0 });
    assert.deepEqual(checkNodeName('.'), { code: 'relativeSegment', segment: '.', index: 0 });
    assert.deepEqual(checkNodeName('..'), { code: 'relativeSegment', segment: '..', index: 0 });
    assert.deepEqual(checkNodeName('ab\u0001'), { code: 'invalidCharacter', codePoint: 1, index: 2 });
    assert.deepEqual(checkNodeName('\u007f'), { code: 'invalidCharacter', codePoint: 0x7f, index: 0 });
  });
});

describe('path helpers', () => {
  test('joinPath', () => {
    assert.equal(joinPath('/', 'a'), '/a');
    assert.equal(joinPath('/a', 'b'), '/a/b');
    assert.equal(joinPath('/a/b', 'c-0000000001'), '/a/b/c-0000000001');
  });

  test('parentPath', () => {
    assert.equal(parentPath('/'), undefined);
    assert.equal(parentPath('/a'), '/');
    assert.equal(parentPath('/a/b'), '/a');
    assert.equal(parentPath('/a/b/c'), '/a/b');
  });

  test('baseName', () => {
    assert.equal(baseName('/'), '/');
    assert.equal(baseName('/a'), 'a');
    assert.equal(baseName('/a/b.c'), 'b.c');
  });

  test('ancestors, root first, without the path itself', () => {
    assert.deepEqual(ancestors('/'), []);
    assert.deepEqual(ancestors('/a'), ['/']);
    assert.deepEqual(ancestors('/a/b/c'), ['/', '/a', '/a/b']);
  });
});

test('a refused character is named by itself when visible, by its code only when invisible', () => {
  assert.deepEqual(characterInWords(0x2f), { shown: '/' });
  assert.deepEqual(characterInWords(0xfffd), { shown: '\ufffd' });
  assert.deepEqual(characterInWords(0x07), { code: 'U+0007' });
  assert.deepEqual(characterInWords(0x202e), { code: 'U+202E' });
  assert.deepEqual(characterInWords(0xe000), { code: 'U+E000' });
  const slash = checkNodeName('a/b');
  assert.ok(slash?.code === 'invalidCharacter');
  assert.deepEqual(characterInWords(slash.codePoint), { shown: '/' });
});
