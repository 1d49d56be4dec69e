// The CLI's one writer and its argument helpers: hostile text made visible (human) or escaped (JSON, same values),
// write errors taken once, credentials never from argv, long delays chained instead of wrapped.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { digestCredentials, secondsOf, UsageError } from '../../src/cli/args';
import { createOutput, escapeHiddenInJson } from '../../src/cli/output';

const HOSTILE = 'a\u202eb\u200bc\u001b[31md\u0085e [x](command:foo) \u{e0041} 😀';

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({ write(chunk: Buffer, _enc, done) { chunks.push(chunk.toString()); done(); } });
  return { stream, text: () => chunks.join('') };
}

test('human text: every line through visibleText, our newlines kept', () => {
  const stdout = sink();
  const stderr = sink();
  const out = createOutput({ stdout: stdout.stream, stderr: stderr.stream });
  out.text(`one ${HOSTILE}\ntwo`);
  out.error(`bad ${HOSTILE}`);
  assert.equal(stdout.text(), 'one a[U+202E]b[U+200B]c[U+001B][31md[U+0085]e [x](command:foo) [U+E0041] 😀\ntwo\n');
  assert.equal(stderr.text(), 'bad a[U+202E]b[U+200B]c[U+001B][31md[U+0085]e [x](command:foo) [U+E0041] 😀\n');
});

test('JSON: hidden characters as \\u escapes, the same values after parsing, other text untouched', () => {
  const stdout = sink();
  const out = createOutput({ stdout: stdout.stream, stderr: sink().stream });
  const value = { name: HOSTILE, list: [HOSTILE, 'plain'], lone: '\ud800x' };
  out.json(value);
  const text = stdout.text();
  assert.doesNotMatch(text, /[\u202e\u200b\u001b\u0085]|\u{e0041}/u);
  assert.ok(text.includes('\\u202e') && text.includes('\\udb40\\udc41') && text.includes('😀') && text.includes('[x](command:foo)'), text);
  assert.deepEqual(JSON.parse(text), value);
  assert.equal(escapeHiddenInJson('{"a": "b"}'), '{"a": "b"}');
});

test('a write error on stdout is taken once: listeners hear it, later lines are dropped, no throw', async () => {
  const failing = new Writable({ write(_chunk, _enc, done) { done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })); } });
  const out = createOutput({ stdout: failing, stderr: sink().stream });
  let heard = 0;
  out.onClosed(() => heard++);
  out.text('first');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(out.closed, true);
  out.text('second');
  assert.equal(heard, 1);
  let late = 0;
  out.onClosed(() => late++);
  assert.equal(late, 1, 'a listener added after the close hears it at once');
});

test('seconds are bounded, never wrapped; credentials come from the environment only', () => {
  assert.equal(secondsOf('1.5', '--hold', 0, 10000), 1500);
  for (const bad of ['', ' ', '-1', 'NaN', 'Infinity', '1e300', '11', '--next']) {
    assert.throws(() => secondsOf(bad, '--hold', 0, 10000), UsageError, JSON.stringify(bad));
  }
  assert.deepEqual(digestCredentials(undefined, {}), []);
  assert.deepEqual(digestCredentials('alice', { ZOOSCOPE_DIGEST_PASSWORD: 's:e' }), ['alice:s:e']);
  assert.deepEqual(digestCredentials('alice', { ZOOSCOPE_DIGEST: 'alice:pw' }), ['alice:pw']);
  assert.deepEqual(digestCredentials(undefined, { ZOOSCOPE_DIGEST: 'bob:pw' }), ['bob:pw']);
  for (const [user, env] of [['alice:pw', {}], ['alice', {}], ['alice', { ZOOSCOPE_DIGEST: 'bob:pw' }], [undefined, { ZOOSCOPE_DIGEST: 'nopassword' }]] as const) {
    assert.throws(() => digestCredentials(user, env), (e: Error) => e instanceof UsageError && !e.message.includes('pw'));
  }
});
