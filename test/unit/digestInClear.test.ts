// A digest password over plain TCP to another machine is said before it goes, wherever it leaves: a VS Code
// connection asks (secretBinding.test, host tests), the CLI's --digest and the shell's `addauth digest` warn on
// stderr with the same rule (src/zk/security/digestInClear.ts). The sessions here are never opened: the warning
// comes before anything is sent, and no server is needed to see it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { runGet } from '../../src/cli/getCommand';
import { createOutput } from '../../src/cli/output';
import { digestInClearNotice } from '../../src/cli/securityArgs';
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

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  return { stream: new Writable({ write(chunk: Buffer, _enc, done) { chunks.push(chunk.toString()); done(); } }), text: () => chunks.join('') };
}

test('the CLI\'s --digest over plain TCP to another machine warns on stderr before connecting', async () => {
  const saved = process.env.ZOOSCOPE_DIGEST_PASSWORD;
  process.env.ZOOSCOPE_DIGEST_PASSWORD = 's3cret';
  try {
    // Nothing listens on port 1: the connection fails, after the warning.
    for (const [host, warned] of [['192.0.2.7', true], ['127.0.0.1', false]] as const) {
      const stderr = sink();
      const out = createOutput({ stdout: sink().stream, stderr: stderr.stream });
      const code = await runGet([`${host}:1`, '/x', '--digest', 'ops', '--timeout', '1'], out);
      out.dispose();
      assert.equal(code, 1, stderr.text());
      assert.equal(WARNING.test(stderr.text()), warned, `${host}: ${stderr.text()}`);
      assert.doesNotMatch(stderr.text(), /s3cret/);
      if (warned) assert.match(stderr.text(), /^zooscope get: warning: /);
    }
  } finally {
    if (saved === undefined) delete process.env.ZOOSCOPE_DIGEST_PASSWORD;
    else process.env.ZOOSCOPE_DIGEST_PASSWORD = saved;
  }
});
