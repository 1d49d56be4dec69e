#!/usr/bin/env node
// `zooscope` command line (dist/cli.js, package.json `bin`): the same ZooKeeper layer as the extension, for
// terminals, scripts and CI. The commands are the table of src/cli/commands; `zooscope --help` lists them.
// Every byte written goes through one Output (src/cli/output.ts).
import { runZooscope } from './dispatch';
import { createOutput } from './output';

/** Once a command has finished, how long anything left over (a socket closing) may keep the process alive. */
const EXIT_GRACE_MS = 2000;

/** The extension's version, set by the bundler (scripts/lib/cliBuild.mjs); absent from a bundle built without it. */
declare const ZOOSCOPE_CLI_VERSION: string | undefined;
const version = typeof ZOOSCOPE_CLI_VERSION === 'string' ? ZOOSCOPE_CLI_VERSION : 'unknown (bundled without scripts/lib/cliBuild.mjs)';

const out = createOutput();

const finish = (code: number) => {
  out.dispose();
  process.exitCode = code;
  // Never hang: the work is done, so whatever still holds the event loop may not keep the process alive for long.
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
};

runZooscope(process.argv.slice(2), out, version).then(finish, (error: unknown) => {
  out.error(`zooscope: ${error instanceof Error ? error.message : String(error)}`);
  finish(1);
});
