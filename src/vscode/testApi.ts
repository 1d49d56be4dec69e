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

export interface TestApi extends Core, EditingParts, EnsembleParts, HeldLocksParts, LockQueueParts, SearchParts, ShellParts {
  readonly shownMessages: readonly ShownMessage[];
  readonly shownFailures: readonly ShownMessage[];
}
