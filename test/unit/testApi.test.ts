// The in-host test API joins the core, every feature's parts and the shown messages into one object: a name two of
// them use must stop activation under tests, not let one part hide the other.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Core } from '../../src/vscode/core/core';
import { testApi } from '../../src/vscode/testApi';

const core = { store: { kind: 'store' }, connections: { kind: 'connections' } } as unknown as Core;
const shown = { shownMessages: [], shownFailures: [] };

test('every part keeps its own name in the test API', () => {
  const held = { kind: 'held locks' };
  const panels = { kind: 'lock panels' };
  const api = testApi(core, [{ heldLocks: held }, { locks: panels }, {}], shown) as unknown as Record<string, unknown>;
  assert.deepEqual(Object.keys(api).sort(), ['commands', 'connections', 'heldLocks', 'locks', 'shownFailures', 'shownMessages', 'store']);
  assert.equal(api.heldLocks, held);
  assert.equal(api.locks, panels);
  assert.equal(api.store, core.store);
});

test('two parts of the same name are refused, not silently overwritten', () => {
  assert.throws(() => testApi(core, [{ locks: 'held locks' }, { locks: 'lock panels' }], shown), /two parts named "locks"/);
  // A part may not hide the core's names or the shown messages either.
  assert.throws(() => testApi(core, [{ store: 'another store' }], shown), /two parts named "store"/);
  assert.throws(() => testApi(core, [{ shownMessages: [] }], shown), /two parts named "shownMessages"/);
});

test('the features\' preset commands are joined in one `commands` part, each name once', () => {
  const create = () => 'created';
  const importTree = () => 'imported';
  const api = testApi(core, [{ commands: { createNode: create } }, { locks: 'panels', commands: { importSubtree: importTree } }], shown);
  assert.deepEqual(Object.keys(api.commands).sort(), ['createNode', 'importSubtree']);
  assert.equal((api.commands as unknown as Record<string, unknown>).createNode, create);
  assert.throws(() => testApi(core, [{ commands: { createNode: create } }, { commands: { createNode: importTree } }], shown), /two commands named "createNode"/);
});
