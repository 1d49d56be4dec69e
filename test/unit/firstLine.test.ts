import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { firstLine } from '../../src/zk/errors';

test('firstLine keeps an error\'s first line and names its errno code once', () => {
  const refused = Object.assign(new Error('connect failed\n    at somewhere'), { code: 'ECONNREFUSED' });
  assert.equal(firstLine(refused), 'connect failed (ECONNREFUSED)');
  const named = Object.assign(new Error("ENOENT: no such file or directory, open '/nope'"), { code: 'ENOENT' });
  assert.equal(firstLine(named), "ENOENT: no such file or directory, open '/nope'");
  assert.equal(firstLine('  plain text\nsecond line'), 'plain text');
  assert.equal(firstLine(Object.assign(new Error('odd'), { code: 7 })), 'odd');
});
