// `zooscope --help`, `zooscope help` and `zooscope help <command>`, built from the command table: a command's usage
// is written once, in its own module, and every help shows that one.
import { commandHelp, usageText } from './command';
import { COMMANDS } from './commands';
import { CONNECTION_USAGE } from './connectionOptions';

export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: zooscope <command> [arguments] [options]',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '  zooscope help <command>   (or zooscope <command> --help): the command\'s usage and options',
    '  zooscope --version',
    '',
    ...COMMANDS.map((c) => usageText(c.usage).replace(/^usage: /, '  ').replace(/\n {7}/g, '\n  ')),
    '',
    CONNECTION_USAGE,
  ].join('\n');
}

/** The help `zooscope help <words…>` asks for; undefined for a command the table lacks. */
export function helpFor(name: string | undefined): string | undefined {
  if (name === undefined) return mainHelp();
  const command = COMMANDS.find((c) => c.name === name);
  return command ? commandHelp(command) : undefined;
}
