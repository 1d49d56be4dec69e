// What in-host tests may look at: the core and the features' parts, and the messages shown. activate() returns it
// only when the extension runs under tests (ExtensionMode.Test); otherwise the extension exports nothing.
import type { Core } from './core/core';
import type { ShownMessage } from './common/notifier';
import type { EditingParts } from './editing';
import type { EnsembleParts } from './ensemble';
import type { HeldLocksParts } from './heldLocks';
import type { LockQueueParts } from './lockQueue';
import type { SearchParts } from './search';
import type { ShellParts } from './shell';
import type { TerminalParts } from './terminal';

export interface ShownMessages {
  readonly shownMessages: readonly ShownMessage[];
  readonly shownFailures: readonly ShownMessage[];
}

export interface TestApi extends Core, EditingParts, EnsembleParts, HeldLocksParts, LockQueueParts, SearchParts, ShellParts, TerminalParts, ShownMessages {}

/**
 * The test API: every name of the core, the parts and the shown messages side by side. A name given twice throws:
 * merged in order, the later would hide the earlier and tests would look at the wrong object without a word.
 */
export function testApi(core: Core, parts: readonly object[], shown: ShownMessages): TestApi {
  const api: Record<string, unknown> = {};
  for (const source of [core, ...parts, shown]) {
    for (const [name, value] of Object.entries(source)) {
      if (Object.hasOwn(api, name)) throw new Error(`The test API has two parts named "${name}".`);
      api[name] = value;
    }
  }
  return api as unknown as TestApi;
}
