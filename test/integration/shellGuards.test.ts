// The shell's guards, on a real server: a read-only shell refuses every write with the words zkCli prints when a
// read-only server refuses it, and stays read-only after `connect`; `connect` to servers other than the shell's own
// sends its credentials only when the user says yes; a host with a control character is refused in one line and
// the shell goes on; the history file never keeps an `addauth` line with its secret.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { SessionOptions, ZkSession } from '../../src/zk/session/session';
import { ZkShell } from '../../src/zk/shell';
import { AskYesNo, optionsForConnect } from '../../src/zk/shell/connectCredentials';
import { runInteractive } from '../../src/zk/shell/interactive';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';

interface Transcript { out: string; err: string }

describe('the shell\'s guards', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  const opened: ZkSession[] = [];

  /** A shell on a session of its own to `connectString`, `connect` keeping `options` as the CLI does. */
  async function shellOn(options: SessionOptions, shellOptions: { readOnly?: boolean; answer?: string } = {}) {
    const seen: Transcript = { out: '', err: '' };
    const questions: string[] = [];
    const session = new ZkSession(options);
    opened.push(session);
    await session.open();
    const shell = new ZkShell({
      sink: { out: (t) => { seen.out += t; }, err: (t) => { seen.err += t; } },
      connectString: options.connectString,
      readOnly: shellOptions.readOnly,
      openSession: async (connectString, ask: AskYesNo) => {
        const next = new ZkSession(await optionsForConnect(connectString, options.connectString, options, ask, (s) => `send to ${s}? `));
        opened.push(next);
        return next;
      },
    }, session);
    if (shellOptions.answer !== undefined) {
      const answer = shellOptions.answer;
      shell.readAnswer = async (question) => { questions.push(question); return answer; };
    }
    return { shell, seen, questions };
  }

  /** Runs a line and returns what it printed. */
  async function run(shell: ZkShell, seen: Transcript, line: string): Promise<Transcript> {
    const from = { out: seen.out.length, err: seen.err.length };
    await shell.executeLine(line);
    return { out: seen.out.slice(from.out), err: seen.err.slice(from.err) };
  }

  /** Waits for the shell's session to connect (after `connect`, it opens in the background). */
  async function connected(shell: ZkShell): Promise<void> {
    const session = shell.session;
    assert.ok(session, 'no session after connect');
    if (session.state !== 'connected') await new Promise<void>((resolve) => session.on('state', (s) => { if (s === 'connected') resolve(); }));
    // One answered request: the digest the library queued at connect time has then reached the server too.
    await session.sync('/');
  }

  before(async () => {
    zk = await startStandalone();
    other = await connectOtherClient(zk.connectString);
    await other.create('/ro', 'kept');
    await other.create('/ro/child', 'child');
  });
  after(async () => {
    for (const session of opened) session.close();
    other?.close();
    await zk?.stop();
  });

  test('a read-only shell refuses every write, as a read-only server would, and reads on; `connect` keeps it read-only', async () => {
    const { shell, seen } = await shellOn({ connectString: zk.connectString }, { readOnly: true });
    assert.match(shell.prompt, /^\(read-only\) \[zk: 127\.0\.0\.1:\d+\(CONNECTED\) 0\] $/);
    const writes: [string, string][] = [
      ['create /ro/new data', '/ro/new'], ['create -e /ro/eph', '/ro/eph'], ['set /ro changed', '/ro'], ['delete /ro/child', '/ro/child'],
      ['deleteall /ro', '/ro'], ['rmr /ro', '/ro'], ['setAcl /ro world:anyone:r', '/ro'], ['setquota -n 5 /ro', '/ro'], ['delquota /ro', '/ro'],
    ];
    for (const [line, target] of writes) {
      const printed = await run(shell, seen, line);
      assert.equal(printed.err, `Not a read-only call: ${target}\n`, line);
      assert.equal(shell.exitCode, 1, line);
    }
    // Usage errors come first, as on a server that would refuse the write.
    assert.equal((await run(shell, seen, 'create')).err, 'create [-s] [-e] [-c] [-t ttl] path [data] [acl]\n');
    // Reading still works; redo of a write is refused too.
    assert.equal((await run(shell, seen, 'get /ro')).out, 'kept\n');
    assert.equal((await run(shell, seen, 'redo 2')).err, 'Not a read-only call: /ro\n');
    // A new session from `connect` is still read-only.
    await run(shell, seen, `connect ${zk.connectString}`);
    await connected(shell);
    assert.equal((await run(shell, seen, 'set /ro again')).err, 'Not a read-only call: /ro\n');
    assert.match(shell.prompt, /^\(read-only\) /);
    // Nothing changed on the server.
    assert.equal((await other.getData('/ro')).data.toString(), 'kept');
    assert.deepEqual(await other.children('/ro'), ['child']);
    assert.equal(await other.exists('/ro/new'), undefined);
    assert.equal(await other.exists('/zookeeper/quota/ro'), undefined);
  });

  test('`connect` sends the credentials to the shell\'s own servers, asks before sending them elsewhere, and No connects without them', async () => {
    const port = zk.members[0].clientPort;
    const own = { connectString: `127.0.0.1:${port}`, digest: ['alice:secret'] };

    // Its own servers, written another way: no question, the credentials go along.
    const same = await shellOn(own, { answer: 'n' });
    await run(same.shell, same.seen, `connect 127.0.0.1:${port},127.0.0.1:${port}/ro`);
    await connected(same.shell);
    assert.match((await run(same.shell, same.seen, 'whoami')).out, /digest: alice/);
    assert.deepEqual(same.questions, []);

    // Another host (the same server under another name): asked, naming it; No connects without credentials.
    const refused = await shellOn(own, { answer: 'n' });
    await run(refused.shell, refused.seen, `connect localhost:${port}`);
    await connected(refused.shell);
    assert.deepEqual(refused.questions, [`send to localhost:${port}? `]);
    assert.doesNotMatch((await run(refused.shell, refused.seen, 'whoami')).out, /digest/);

    // Yes sends them.
    const agreed = await shellOn(own, { answer: 'y' });
    await run(agreed.shell, agreed.seen, `connect localhost:${port}`);
    await connected(agreed.shell);
    assert.match((await run(agreed.shell, agreed.seen, 'whoami')).out, /digest: alice/);

    // No one to ask (commands from a pipe): no credentials.
    const unasked = await shellOn(own);
    await run(unasked.shell, unasked.seen, `connect localhost:${port}`);
    await connected(unasked.shell);
    assert.doesNotMatch((await run(unasked.shell, unasked.seen, 'whoami')).out, /digest/);
  });

  test('`connect` to a host with a control character is refused in one line; the prompt never carries it raw', async () => {
    const { shell, seen } = await shellOn({ connectString: zk.connectString });
    const printed = await run(shell, seen, 'connect evil\x1b]0;title\x07:2181');
    assert.equal(printed.err.split('\n').length, 2, `more than one line: ${JSON.stringify(printed.err)}`);
    assert.match(printed.err, /hidden character U\+001B/);
    assert.equal(shell.exitCode, 1);
    assert.ok(!shell.prompt.includes('\x1b') && !shell.prompt.includes('\x07'), JSON.stringify(shell.prompt));
    assert.match(shell.prompt, /evil\[U\+001B\]\]0;title\[U\+0007\]:2181/);
  });

  test('the history file leaves out `addauth` lines with their secret', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-history-'));
    const file = path.join(dir, 'history');
    try {
      fs.writeFileSync(file, 'addauth digest old:pass\nls /\n');
      const { shell } = await shellOn({ connectString: zk.connectString });
      const input = new PassThrough();
      const output = new Writable({ write: (_chunk, _encoding, done) => done() });
      const finished = runInteractive(shell, { input, output: output as unknown as NodeJS.WritableStream, write: () => undefined, historyFile: file });
      input.write('addauth digest bob:hunter2\r');
      input.write('get /ro\r');
      input.write('addauth   digest "carol:pw"\r');
      input.write('quit\r');
      assert.equal(await finished, 0);
      const kept = fs.readFileSync(file, 'utf8');
      assert.doesNotMatch(kept, /hunter2|carol|old:pass|addauth/);
      assert.match(kept, /get \/ro/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
