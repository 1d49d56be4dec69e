// `zooscope <command> …` to the command of the table, through the one wrapper (src/cli/command.ts); the help and
// `--version` answered here.
import { runCommand } from './command';
import { commandNamed } from './commands';
import { helpFor, mainHelp } from './help';
import type { Output } from './output';

/** Runs the words after `zooscope`; the exit code. */
export async function runZooscope(argv: readonly string[], out: Output, version: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [first, ...rest] = argv;
  const command = first === undefined ? undefined : commandNamed(first);
  if (command) return runCommand(command, rest, out, env);
  switch (first) {
    case '--version': case '-V':
      out.text(version);
      return 0;
    case '--help': case '-h':
      out.text(mainHelp());
      return 0;
    case 'help': {
      const help = helpFor(rest[0]);
      if (help !== undefined && rest.length <= 1) {
        out.text(help);
        return 0;
      }
      out.error(`zooscope help: unknown command "${rest.join(' ')}"\n${mainHelp()}`);
      return 2;
    }
    case undefined:
      out.text(mainHelp());
      return 2;
    default:
      out.error(`zooscope: unknown command "${first}"\n${mainHelp()}`);
      return 2;
  }
}
