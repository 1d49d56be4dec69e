// The lock-queue webview's messages are checked field by field before the host acts: what passes is rebuilt from
// the known fields only; what fails says why (the channel logs it) and is never thrown.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkActionRequest, checkWebviewMessage, MAX_PATH_LENGTH, MAX_SHOWN_ROWS, MAX_TEXT_LENGTH } from '../../src/vscode/lockQueue/webviewMessageCheck';

function problem(value: unknown): string {
  const checked = checkWebviewMessage(value);
  assert.equal(checked.ok, false, `accepted ${JSON.stringify(value)}`);
  return checked.ok ? '' : checked.problem;
}

test('every message the webview sends passes, rebuilt without extra fields', () => {
  const sent = [
    { type: 'ready' },
    { type: 'resync', seq: 0 },
    { type: 'rendered', seq: 3, rows: 10, domRows: 4, ms: 1.5, shown: ['#0 holder', '#1 waiter'] },
    { type: 'error', message: 'boom\n at x' },
    { type: 'reveal', requestId: 1, path: '/locks/orders/lock-0000000001' },
    { type: 'acquire', requestId: 2, queuePath: '/locks/orders' },
    { type: 'release', requestId: 3, path: '/locks/orders/lock-0000000002' },
    { type: 'forceRelease', requestId: 4, path: '/locks/orders/lock-0000000001' },
    { type: 'refresh', requestId: 5 },
  ];
  for (const message of sent) assert.deepEqual(checkWebviewMessage({ ...message, extra: 'dropped' }), { ok: true, value: message });
});

test('unknown types and what is not a message are refused with a reason', () => {
  assert.match(problem(null), /not an object/);
  assert.match(problem('ready'), /not an object/);
  assert.match(problem([{ type: 'ready' }]), /not an object/);
  assert.match(problem({}), /no type/);
  assert.match(problem({ type: 7 }), /no type/);
  assert.match(problem({ type: 'deleteEverything', requestId: 1 }), /unknown type "deleteEverything"/);
  assert.match(problem({ type: 'x'.repeat(500), requestId: 1 }), /unknown type "x{40}"$/);
});

test('actions need a request id that is a count and a valid ZooKeeper path', () => {
  const path = '/locks/orders/lock-1';
  assert.match(problem({ type: 'forceRelease', path }), /requestId/);
  assert.match(problem({ type: 'forceRelease', requestId: -1, path }), /requestId/);
  assert.match(problem({ type: 'forceRelease', requestId: 1.5, path }), /requestId/);
  assert.match(problem({ type: 'forceRelease', requestId: '1', path }), /requestId/);
  for (const bad of ['relative', '', '/a/', '/a//b', '/a/../b', '/a/\u0000', 42, undefined, ['/a']]) {
    assert.match(problem({ type: 'forceRelease', requestId: 1, path: bad }), /path/, `path ${JSON.stringify(bad)}`);
  }
  assert.match(problem({ type: 'acquire', requestId: 1, path }), /queuePath/, 'acquire names its queue as queuePath');
  assert.match(problem({ type: 'reveal', requestId: 1, path: `/${'a'.repeat(MAX_PATH_LENGTH)}` }), /at most/);
  assert.equal(checkWebviewMessage({ type: 'reveal', requestId: 1, path: `/${'a'.repeat(MAX_PATH_LENGTH - 1)}` }).ok, true);
});

test('reports: counts are whole and not negative, the shown rows a bounded list of bounded texts', () => {
  const rendered = { type: 'rendered', seq: 1, rows: 2, domRows: 2, ms: 3, shown: ['a'] };
  assert.match(problem({ ...rendered, rows: -1 }), /rows/);
  assert.match(problem({ ...rendered, ms: Number.NaN }), /ms/);
  assert.match(problem({ ...rendered, shown: 'a' }), /shown/);
  assert.match(problem({ ...rendered, shown: [1] }), /not a text/);
  assert.match(problem({ ...rendered, shown: ['x'.repeat(MAX_TEXT_LENGTH + 1)] }), /longer than/);
  assert.match(problem({ ...rendered, shown: Array.from({ length: MAX_SHOWN_ROWS + 1 }, () => 'r') }), /at most/);
  assert.match(problem({ type: 'resync', seq: -2 }), /seq/);
  const longError = checkWebviewMessage({ type: 'error', message: 'e'.repeat(MAX_TEXT_LENGTH * 2) });
  assert.ok(longError.ok && longError.value.type === 'error' && longError.value.message.length === MAX_TEXT_LENGTH, 'an error is kept, cut short');
});

test('an action request as a test passes it to the panel: checked the same way, without a request id', () => {
  assert.deepEqual(checkActionRequest({ type: 'forceRelease', path: '/a/b', requestId: 9 }), { ok: true, value: { type: 'forceRelease', path: '/a/b' } });
  assert.deepEqual(checkActionRequest({ type: 'refresh' }), { ok: true, value: { type: 'refresh' } });
  assert.equal(checkActionRequest({ type: 'ready' }).ok, false, 'not an action');
  assert.equal(checkActionRequest({ type: 'forceRelease', path: 'a' }).ok, false);
});

test('figures over a window: absent means the whole history; a window is two whole times, in order', () => {
  assert.deepEqual(checkWebviewMessage({ type: 'figuresWindow', extra: 1 }), { ok: true, value: { type: 'figuresWindow' } });
  const window = { from: 1_700_000_000_000, to: 1_700_000_060_000 };
  assert.deepEqual(checkWebviewMessage({ type: 'figuresWindow', window: { ...window, extra: 'dropped' } }), { ok: true, value: { type: 'figuresWindow', window } });
  assert.match(problem({ type: 'figuresWindow', window: 'all' }), /window is not a window/);
  assert.match(problem({ type: 'figuresWindow', window: [1, 2] }), /window is not a window/);
  assert.match(problem({ type: 'figuresWindow', window: null }), /window is not a window/);
  for (const bad of [Number.NaN, Infinity, -1, 1.5, '1', 9e15, undefined]) {
    assert.match(problem({ type: 'figuresWindow', window: { ...window, from: bad } }), /from is not a time/, `from ${String(bad)}`);
  }
  assert.match(problem({ type: 'figuresWindow', window: { from: 2, to: 1 } }), /ends before it starts/);
});
