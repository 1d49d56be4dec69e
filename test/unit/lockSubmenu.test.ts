// A node's lock actions sit in one "Locks" submenu of the explorer's context menu, not scattered through it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface MenuEntry { command?: string; submenu?: string; when?: string; group?: string }
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { submenus: { id: string; label: string }[]; menus: Record<string, MenuEntry[]> };
};
const LOCK_COMMANDS = ['showLockQueue', 'showLocksUnder', 'acquireLock', 'acquireReadLock', 'acquireWriteLock', 'joinElection', 'releaseLock']
  .map((c) => `zooscope.${c}`);

test('the explorer\'s context menu offers the lock actions through one submenu only', () => {
  assert.ok(manifest.contributes.submenus.some((s) => s.id === 'zooscope.locks' && s.label === '%submenu.locks%'));
  const explorer = manifest.contributes.menus['view/item/context'].filter((m) => m.when?.includes('view == zooscope.explorer'));
  const direct = explorer.filter((m) => m.command && LOCK_COMMANDS.includes(m.command) && !m.group?.startsWith('inline'));
  assert.deepEqual(direct, [], 'lock actions straight in the context menu');
  assert.ok(explorer.some((m) => m.submenu === 'zooscope.locks'));
  const inSubmenu = manifest.contributes.menus['zooscope.locks'].map((m) => m.command);
  assert.deepEqual([...inSubmenu].sort(), [...LOCK_COMMANDS].sort());
});
