// What in-host tests may look at: the core and the features' parts, and the messages shown. activate() returns it
// only when the extension runs under tests (ExtensionMode.Test); otherwise the extension exports nothing.
import type { CompareCommands, CompareParts } from './compare';
import type { Core } from './core/core';
import type { ShownMessage } from './common/notifier';
import type { ConnectionCommands } from './connections';
import type { EditingParts } from './editing';
import type { EnsembleParts } from './ensemble';
import type { ExplorerCommands } from './explorer';
import type { HeldLocksParts } from './heldLocks';
import type { LockQueueCommands, LockQueueParts } from './lockQueue';
import type { NodeCommands } from './nodes';
import type { SearchCommands, SearchParts } from './search';
import type { ServerHistoryCommands } from './serverHistory';
import type { ShellCommands, ShellParts } from './shell';
import type { TerminalParts } from './terminal';
import type { TransferCommands } from './transfer';
import type { WatchCensusParts } from './watchCensus';

export interface ShownMessages {
  readonly shownMessages: readonly ShownMessage[];
  readonly shownFailures: readonly ShownMessage[];
}

/**
 * Commands with their presets (answers, files, confirmations given instead of asked), arguments as tests passed them
 * to executeCommand before. The registered commands take only a target and a selection; these are reached only here.
 */
export type PresetCommands = ConnectionCommands & ExplorerCommands & LockQueueCommands & NodeCommands & SearchCommands & ShellCommands & TransferCommands & CompareCommands & ServerHistoryCommands;

export interface TestApi extends Core, EditingParts, EnsembleParts, HeldLocksParts, LockQueueParts, SearchParts, ShellParts, TerminalParts, CompareParts, WatchCensusParts, ShownMessages {
  readonly commands: PresetCommands;
}

/**
 * The test API: every name of the core, the parts and the shown messages side by side, and the features' preset
 * commands joined in `commands`. A name given twice throws: merged in order, the later would hide the earlier and
 * tests would look at the wrong object without a word.
 */
export function testApi(core: Core, parts: readonly object[], shown: ShownMessages): TestApi {
  const api: Record<string, unknown> = {};
  const commands: Record<string, unknown> = {};
  for (const source of [core, ...parts, shown]) {
    for (const [name, value] of Object.entries(source)) {
      if (name === 'commands' && source !== core && source !== shown) {
        joinCommands(commands, value as object);
        continue;
      }
      if (Object.hasOwn(api, name)) throw new Error(`The test API has two parts named "${name}".`);
      api[name] = value;
    }
  }
  if (Object.hasOwn(api, 'commands')) throw new Error('The test API has two parts named "commands".');
  api.commands = commands;
  return api as unknown as TestApi;
}

function joinCommands(commands: Record<string, unknown>, more: object): void {
  for (const [name, run] of Object.entries(more)) {
    if (Object.hasOwn(commands, name)) throw new Error(`The test API has two commands named "${name}".`);
    commands[name] = run;
  }
}
