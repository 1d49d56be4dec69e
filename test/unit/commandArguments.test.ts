// A registered command gets its target and the selection only: a preset passed after them, or in place of the
// selection, never reaches it (core/commands.registerCommand hands over only what vscodeArguments keeps).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { droppedArguments, vscodeArguments } from '../../src/vscode/core/commandArguments';

const node = { connectionId: 'c', path: '/a' };

test('what VS Code passes is kept: nothing, a target, a target and the selection', () => {
  assert.deepEqual(vscodeArguments([]), [undefined, undefined]);
  assert.deepEqual(vscodeArguments([node]), [node, undefined]);
  assert.deepEqual(vscodeArguments([node, [node]]), [node, [node]]);
  assert.deepEqual(vscodeArguments([undefined, undefined]), [undefined, undefined]);
  assert.equal(droppedArguments([node, [node]]), 0);
  assert.equal(droppedArguments([node, undefined]), 0);
});

test('a preset after the target or the selection is dropped, and counted', () => {
  assert.deepEqual(vscodeArguments(['conn', { file: '/etc/passwd', confirmed: true }]), ['conn', undefined]);
  assert.deepEqual(vscodeArguments([node, [node], { confirmed: true }]), [node, [node]]);
  assert.deepEqual(vscodeArguments([node, undefined, { confirmed: true }, 'more']), [node, undefined]);
  assert.equal(droppedArguments(['conn', { file: '/x' }]), 1);
  assert.equal(droppedArguments([node, [node], { confirmed: true }]), 1);
  assert.equal(droppedArguments([node, undefined, { confirmed: true }, 'more']), 2);
});

test('a selection carrying named fields arrives as a plain list of its elements', () => {
  const selection = Object.assign([node], { confirmed: true, file: '/x' });
  const [, kept] = vscodeArguments([node, selection]);
  assert.deepEqual(Object.keys(kept ?? {}), ['0']);
  assert.equal((kept as unknown as { confirmed?: boolean }).confirmed, undefined);
});
