// The command table: every `zooscope` command, in the order `zooscope --help` lists them. A new command is a module
// of this folder added here; main.ts, the help and the tests of the CLI's options all read this list.
import type { Command } from '../command';
import { copyCommand } from './copy';
import { diffCommand } from './diff';
import { ensembleCommand } from './ensemble';
import { getCommand } from './get';
import { lockCommand } from './lock';
import { locksCommand } from './locks/locks';
import { logCommand } from './log/log';
import { shellCommand } from './shell/shell';
import { watchesCommand } from './watches/watches';

// Each command's `parse` knows its own options; the table holds them by their shared shape.
export const COMMANDS: readonly Command[] = [
  lockCommand, locksCommand, getCommand, shellCommand, ensembleCommand, diffCommand, copyCommand, logCommand, watchesCommand,
] as unknown as readonly Command[];

export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
