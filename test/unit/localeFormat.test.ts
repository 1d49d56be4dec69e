// Tooltip and details dates and numbers follow the UI language (vscode.env.language), not the host's locale.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { formatNumberIn, formatTimeIn, intlLocale } from '../../src/vscode/common/localeFormat';

const ms = Date.UTC(2026, 10, 23, 19, 43, 13);

test('a VS Code display language maps to an Intl locale, unknown ones to English', () => {
  assert.equal(intlLocale('zh-cn'), 'zh-CN');
  assert.equal(intlLocale('en'), 'en');
  assert.equal(intlLocale(undefined), 'en');
  assert.equal(intlLocale('not a tag!'), 'en');
});

test('dates in Simplified Chinese are not US dates; the ISO form follows either way', () => {
  const zh = formatTimeIn('zh-cn', ms, 'UTC');
  assert.match(zh, /^2026年11月23日 19:43:13 \(2026-11-23T19:43:13\.000Z\)$/);
  assert.doesNotMatch(zh, /PM|11\/23\/2026/);
  assert.equal(formatTimeIn('en', ms, 'UTC'), 'Nov 23, 2026, 7:43:13 PM (2026-11-23T19:43:13.000Z)');
  assert.equal(formatTimeIn('zh-cn', 0), '0', 'a time never set');
});

test('numbers in the language: grouping and decimal separators', () => {
  assert.equal(formatNumberIn('en', 1234.56, 1), '1,234.6');
  assert.equal(formatNumberIn('de', 1234.56, 1), '1.234,6');
  assert.equal(formatNumberIn('zh-cn', 1536 / 1024, 1), '1.5');
  assert.equal(formatNumberIn('en', 63), '63');
  assert.equal(formatNumberIn('fr', 1234567), '1 234 567', 'plain spaces, not U+202F (shown as a hidden character)');
});
