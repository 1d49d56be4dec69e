#!/usr/bin/env node
// `zooscope` command line (dist/cli.js, package.json `bin`): the same ZooKeeper layer as the extension, for
// terminals, scripts and CI. `zooscope lock …` takes a lock by hand; `zooscope locks …` prints the lock analysis;
// `zooscope shell …` speaks zkCli 3.8.
// Every byte written goes through one Output (src/cli/output.ts).
import { runCopy } from './copyCommand';
import { runDiff } from './diffCommand';
import { runEnsemble } from './ensembleCommand';
import { runLock } from './lockCommand';
import { runLocks } from './locksCommand';
import { LOG_USAGE, runLog } from './logCommand';
import { runGet } from './getCommand';
import { createOutput } from './output';
import { SECURITY_USAGE } from './securityArgs';
import { runShell } from './shellCommand';

/** Once a command has finished, how long anything left over (a socket closing) may keep the process alive. */
const EXIT_GRACE_MS = 2000;

/** The extension's version, set by the bundler (scripts/lib/cliBuild.mjs); absent from a bundle built without it. */
declare const ZOOSCOPE_CLI_VERSION: string | undefined;
const version = typeof ZOOSCOPE_CLI_VERSION === 'string' ? ZOOSCOPE_CLI_VERSION : 'unknown (bundled without scripts/lib/cliBuild.mjs)';

const usage = `usage:
  zooscope lock <connectString> <path> [--read | --write | --election | --unfair-election] [--timeout <s>] [--hold <s>]
                [--convention <id>] [--session-timeout <s>] [--here] [--digest <user>]
                (--here: lock <path> itself even when lock queues are below it; without it that is refused, exit 2)
  zooscope locks <connectString> <path> [--json] [--strict] [--digest <user>] …   (zooscope locks for all options)
  zooscope locks <connectString> <path> --watch [--for <duration>] [--record <file>] [--trace <file>]   (lock history)
  zooscope locks --replay <recording> [--json] [--trace <file>]
  zooscope get <connectString> <path> [--decoded] [--digest <user>] [--timeout <s>]   (--decoded: what the node means, as JSON)
  zooscope shell <connectString> [--digest <user>] [--timeout <s>] [--read-only] [command [args…]]   (zkCli 3.8's commands and output)
  zooscope ensemble <connectString> --check [--path <path>] [--json] …   (do the members agree; zooscope ensemble for all options)
  zooscope diff <connectString>/<path> <connectString>/<path> [--json] [--ignore-ephemeral] [--ignore-acl] [--ignore-data <glob>]
                [--max-nodes <n>] (either side may be an export file; exit 0 equal, 1 different, 2 trouble)
  zooscope copy <source> <connectString>/<path> [--mirror] [--dry-run] [--yes] [--no-acl] [--max-nodes <n>]
                (plan printed first; deletes are confirmed on a terminal, or need --yes; exit 6: not confirmed)
  ${LOG_USAGE.replace('usage: ', '')}
  zooscope --version
  credentials: --digest <user> with the password in ZOOSCOPE_DIGEST_PASSWORD, or ZOOSCOPE_DIGEST=<user>:<password>
${SECURITY_USAGE}`;

const out = createOutput();

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'lock': return runLock(rest, out);
    case 'locks': return runLocks(rest, out);
    case 'get': return runGet(rest, out);
    case 'shell': return runShell(rest, out);
    case 'ensemble': return runEnsemble(rest, out);
    case 'diff': return runDiff(rest, out);
    case 'copy': return runCopy(rest, out);
    case 'log': return runLog(rest, out);
    case '--version': case '-V':
      out.text(version);
      return 0;
    case '--help': case '-h': case undefined:
      out.text(usage);
      return command === undefined ? 2 : 0;
    default:
      out.error(`zooscope: unknown command "${command}"\n${usage}`);
      return 2;
  }
}

const finish = (code: number) => {
  out.dispose();
  process.exitCode = code;
  // Never hang: the work is done, so whatever still holds the event loop may not keep the process alive for long.
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
};

main(process.argv.slice(2)).then(finish, (error: unknown) => {
  out.error(`zooscope: ${error instanceof Error ? error.message : String(error)}`);
  finish(1);
});
