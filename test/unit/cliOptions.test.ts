// Every CLI command that reaches a server reads its options through the same mechanism: its own flags, then the
// security flags, then positional words; any other option is a usage error in one line, before anything connects.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { EXIT } from '../../src/cli/commands/lock';
import { runZooscope } from '../../src/cli/dispatch';
import { createOutput } from '../../src/cli/output';

/** Each command with the words of a run that would connect (to a port nothing listens on: it must never get there). */
const COMMANDS: [string, string, string[]][] = [
  ['lock', 'lock', ['127.0.0.1:1', '/l']],
  ['locks', 'locks', ['127.0.0.1:1', '/l']],
  ['ensemble', 'ensemble', ['--check', '127.0.0.1:1']],
  ['get', 'get', ['127.0.0.1:1', '/n']],
  ['diff', 'diff', ['127.0.0.1:1/a', '127.0.0.1:1/b']],
  ['copy', 'copy', ['127.0.0.1:1/a', '127.0.0.1:1/b']],
];

async function run(command: string, args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const discard = new Writable({ write(_chunk, _enc, done) { done(); } });
  const errors = new Writable({ write(chunk: Buffer, _enc, done) { stderr += chunk.toString(); done(); } });
  const code = await runZooscope([command, ...args], createOutput({ stdout: discard, stderr: errors }), 'test');
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
