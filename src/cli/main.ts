#!/usr/bin/env node
// `zooscope` command line (dist/cli.js, package.json `bin`): the same ZooKeeper layer as the extension, for
// terminals, scripts and CI. `zooscope lock …` takes a lock by hand; `zooscope locks …` prints the lock analysis.
import { runLock } from './lockCommand';
import { runLocks } from './locksCommand';

const usage = `usage:
  zooscope lock <connectString> <path> [--read | --write | --election] [--timeout <s>] [--hold <s>]
  zooscope locks <connectString> <path> [--json]`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'lock': return runLock(rest);
    case 'locks': return runLocks(rest);
    case '--help': case '-h': case undefined:
      process.stdout.write(`${usage}\n`);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`zooscope: unknown command "${command}"\n${usage}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error: unknown) => {
  process.stderr.write(`zooscope: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
