// Search results as listed: paths relative to the search root, natural order, and the matched part of a data
// snippet located in the text as shown (hidden characters written out, whitespace on one line).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { compileSearch, isSearchProblem } from '../../src/zk/search/search';
import { comparePaths, highlightedSnippet, relativeToRoot, sortedByPath } from '../../src/zk/search/resultOrder';

test('a path relative to the search root', () => {
  assert.equal(relativeToRoot('/demo', '/demo/config/settings.json'), 'config/settings.json');
  assert.equal(relativeToRoot('/demo', '/demo/services/settings.json'), 'services/settings.json');
  assert.equal(relativeToRoot('/', '/demo/x'), 'demo/x');
  assert.equal(relativeToRoot('/demo', '/demo'), '.');
  assert.equal(relativeToRoot('/demo', '/demonstration/x'), '/demonstration/x');
});

test('natural order by path segments', () => {
  const paths = ['/a/item-19999', '/a/item-19997', '/a-b', '/a/item-19998', '/a/item-2', '/a/item-10/x', '/a/item-10'];
  assert.deepEqual(sortedByPath(paths.map((path) => ({ path }))).map((m) => m.path),
    ['/a/item-2', '/a/item-10', '/a/item-10/x', '/a/item-19997', '/a/item-19998', '/a/item-19999', '/a-b']);
  assert.ok(comparePaths('/x/2', '/x/10') < 0);
});

function contentOf(query: string, data: string, caseSensitive = true) {
  const compiled = compileSearch({ root: '/', content: query, caseSensitive });
  assert.ok(!isSearchProblem(compiled) && compiled.content);
  const found = compiled.content(Buffer.from(data, 'utf8'));
  assert.ok(found, 'matched');
  return found;
}

test('the match is located in the snippet (substring, case-insensitive, regex, multi-byte text before it)', () => {
  for (const [query, data, caseSensitive, expected] of [
    ['jdbc', 'url=jdbc:postgresql://db', true, 'jdbc'],
    ['JDBC', 'url=jdbc:postgresql://db', false, 'jdbc'],
    ['/post\\w+/', 'url=jdbc:postgresql://db', true, 'postgresql'],
    ['数据库', '名称=主数据库 端口=5432', true, '数据库'],
    ['needle', `${'é'.repeat(60)}needle${'x'.repeat(60)}`, true, 'needle'],
  ] as const) {
    const found = contentOf(query, data, caseSensitive);
    assert.equal(found.snippet.slice(found.matchStart, found.matchStart + found.matchLength), expected, query);
    const shown = highlightedSnippet(found);
    assert.equal(shown.text.slice(...shown.highlight), expected, query);
  }
});

test('the highlight stays on the match when the snippet holds line breaks and hidden characters', () => {
  const found = contentOf('secret', 'a\n\n  b\u202e c secret\td');
  const shown = highlightedSnippet(found);
  assert.equal(shown.text, 'a b[U+202E] c secret d');
  assert.equal(shown.text.slice(...shown.highlight), 'secret');
});
