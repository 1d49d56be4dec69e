// A digest password over plain TCP to another machine is said before it goes, wherever it leaves: a VS Code
// connection asks (secretBinding.test, host tests), the CLI's --digest and the shell's `addauth digest` warn on
// stderr with the same rule (src/zk/security/digestInClear.ts). The sessions here are never opened: the warning
// comes before anything is sent, and no server is needed to see it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { digestInClearNotice } from '../../src/cli/command';
import { runZooscope } from '../../src/cli/dispatch';
import type { Output } from '../../src/cli/output';
import { digestInClearServers } from '../../src/zk/security/digestInClear';
import { SessionOptions, ZkSession } from '../../src/zk/session/session';
import { ZkShell } from '../../src/zk/shell';

const WARNING = /warning: the digest password goes to (\S+) in clear text over plain TCP/;

test('the rule: plain TCP to a host that is not this machine; TLS or loopback only is not in clear', () => {
  assert.equal(digestInClearServers('zk1.example.com:2181,127.0.0.1:2181/app', false), 'zk1.example.com:2181');
  assert.equal(digestInClearServers('10.0.0.5:2181,[fd00::5]:2181', false), '10.0.0.5:2181,[fd00::5]:2181');
  assert.equal(digestInClearServers('zk1.example.com:2181', true), undefined);
  assert.equal(digestInClearServers('localhost:2181,127.0.0.2:2182,[::1]:2183', false), undefined);
  assert.equal(digestInClearNotice({ connectString: 'zk1.example.com:2181', digest: [] }), undefined, 'no digest user, nothing to say');
  assert.match(digestInClearNotice({ connectString: 'zk1.example.com:2181', digest: ['ops:pw'] }) ?? '', WARNING);
  assert.doesNotMatch(digestInClearNotice({ connectString: 'zk1.example.com:2181', digest: ['ops:pw'] }) ?? '', /pw/, 'never the password');
});

/** The shell on a session that is never opened: addauth only queues the credentials. */
async function addauth(options: SessionOptions, line: string): Promise<string> {
  let err = '';
  const session = new ZkSession(options);
  try {
    const shell = new ZkShell({
      sink: { out: () => undefined, err: (text) => { err += text; } }, connectString: options.connectString,
      openSession: () => { throw new Error('not connecting'); },
    }, session);
    await shell.executeLine(line);
    return err;
  } finally {
    session.close();
  }
}

test('the shell\'s addauth digest over plain TCP to another machine warns; over TLS, to this machine or another scheme it does not', async () => {
  const remote = await addauth({ connectString: '192.0.2.7:2181' }, 'addauth digest ops:s3cret');
  assert.match(remote, WARNING);
  assert.equal(WARNING.exec(remote)?.[1], '192.0.2.7:2181');
  assert.doesNotMatch(remote, /s3cret/);
  assert.equal(await addauth({ connectString: '127.0.0.1:2181' }, 'addauth digest ops:s3cret'), '');
  assert.equal(await addauth({ connectString: '192.0.2.7:2181', tls: {} }, 'addauth digest ops:s3cret'), '');
  assert.equal(await addauth({ connectString: '192.0.2.7:2181' }, 'addauth ip 10.0.0.1'), '');
});

/** Thrown by the test's stderr at the warning, so the command stops before it would dial the (non-loopback) host. */
class StoppedAtWarning extends Error {}

/** Runs a CLI command with `--digest ops`; what it wrote on stderr up to and including a warning, which stops it. */
async function stderrOf(command: string, args: string[]): Promise<{ stderr: string; stopped: boolean }> {
  let stderr = '';
  let stopped = false;
  const out: Output = {
    text: () => undefined, json: () => undefined, exact: () => undefined, closed: false, onClosed: () => undefined, dispose: () => undefined,
    error: (text) => {
      stderr += `${text}\n`;
      if (WARNING.test(text)) {
        stopped = true;
        throw new StoppedAtWarning();
      }
    },
  };
  // A command that reports its body's failures itself (copy, diff) ends with a line of its own after the stop.
  await runZooscope([command, ...args, '--digest', 'ops'], out, 'test').catch((error: unknown) => {
    if (!(error instanceof StoppedAtWarning)) throw error;
  });
  return { stderr, stopped };
}

test('every CLI command with --digest over plain TCP to another machine warns on stderr before connecting', async () => {
  const saved = process.env.ZOOSCOPE_DIGEST_PASSWORD;
  process.env.ZOOSCOPE_DIGEST_PASSWORD = 's3cret';
  // 192.0.2.7 (TEST-NET-1) is never dialed: the warning stops each command before it connects.
  const remote = '192.0.2.7:1';
  const commands: Array<[string, string[]]> = [
    ['get', [remote, '/x', '--timeout', '1']],
    ['lock', [remote, '/x']],
    ['locks', [remote, '/x']],
    ['copy', [`${remote}/a`, `${remote}/b`, '--dry-run']],
    ['diff', [`${remote}/a`, `${remote}/b`]],
    ['ensemble', [remote, '--check']],
  ];
  try {
    for (const [name, args] of commands) {
      const { stderr, stopped } = await stderrOf(name, args);
      assert.ok(stopped, `${name} connected without the warning: ${stderr}`);
      assert.match(stderr, new RegExp(`^zooscope ${name}: warning: `, 'm'), name);
      assert.equal(WARNING.exec(stderr)?.[1], remote, name);
      assert.doesNotMatch(stderr, /s3cret/, name);
    }
  } finally {
    if (saved === undefined) delete process.env.ZOOSCOPE_DIGEST_PASSWORD;
    else process.env.ZOOSCOPE_DIGEST_PASSWORD = saved;
  }
});

test('the CLI says nothing of clear text to this machine (nothing listens on port 1: the connection fails after)', async () => {
  const saved = process.env.ZOOSCOPE_DIGEST_PASSWORD;
  process.env.ZOOSCOPE_DIGEST_PASSWORD = 's3cret';
  try {
    const { stderr, stopped } = await stderrOf('get', ['127.0.0.1:1', '/x', '--timeout', '1']);
    assert.ok(!stopped);
    assert.doesNotMatch(stderr, WARNING);
    assert.doesNotMatch(stderr, /s3cret/);
  } finally {
    if (saved === undefined) delete process.env.ZOOSCOPE_DIGEST_PASSWORD;
    else process.env.ZOOSCOPE_DIGEST_PASSWORD = saved;
  }
});
