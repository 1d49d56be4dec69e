// Every CLI command that reaches a server reads its options through the same mechanism: its own flags, then the
// security flags, then positional words; any other option is a usage error in one line, before anything connects.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { runCopy } from '../../src/cli/copyCommand';
import { runDiff } from '../../src/cli/diffCommand';
import { runEnsemble } from '../../src/cli/ensembleCommand';
import { runGet } from '../../src/cli/getCommand';
import { EXIT, runLock } from '../../src/cli/lockCommand';
import { runLocks } from '../../src/cli/locksCommand';
import { createOutput, Output } from '../../src/cli/output';

type Run = (args: string[], out: Output) => Promise<number>;

/** Each command with the words of a run that would connect (to a port nothing listens on: it must never get there). */
const COMMANDS: [string, Run, string[]][] = [
  ['lock', runLock, ['127.0.0.1:1', '/l']],
  ['locks', runLocks, ['127.0.0.1:1', '/l']],
  ['ensemble', runEnsemble, ['--check', '127.0.0.1:1']],
  ['get', runGet, ['127.0.0.1:1', '/n']],
  ['diff', runDiff, ['127.0.0.1:1/a', '127.0.0.1:1/b']],
  ['copy', runCopy, ['127.0.0.1:1/a', '127.0.0.1:1/b']],
];

async function run(command: Run, args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const discard = new Writable({ write(_chunk, _enc, done) { done(); } });
  const errors = new Writable({ write(chunk: Buffer, _enc, done) { stderr += chunk.toString(); done(); } });
  const code = await command(args, createOutput({ stdout: discard, stderr: errors }));
  return { code, stderr };
}

for (const [name, command, words] of COMMANDS) {
  test(`${name}: an unknown option is a usage error naming it, anywhere in the line`, async () => {
    for (const args of [['--bogus', ...words], [...words, '--bogus']]) {
      const { code, stderr } = await run(command, args);
      assert.equal(code, EXIT.usage, stderr);
      assert.match(stderr.split('\n')[0], /^zooscope \w+: unknown option --bogus$/);
    }
  });

  test(`${name}: the security flags are read, wherever they stand: a bad value or a secret in argv is refused`, async () => {
    const pin = await run(command, [...words, '--tls-pin-sha256', 'not-a-fingerprint']);
    assert.equal(pin.code, EXIT.usage, pin.stderr);
    assert.match(pin.stderr, /--tls-pin-sha256: "not-a-fingerprint" is not a SHA-256 fingerprint/);
    const secret = await run(command, ['--digest-password=hunter2', ...words]);
    assert.equal(secret.code, EXIT.usage, secret.stderr);
    assert.match(secret.stderr, /--digest-password is refused: a secret on the command line/);
    assert.doesNotMatch(secret.stderr, /hunter2/);
  });
}
