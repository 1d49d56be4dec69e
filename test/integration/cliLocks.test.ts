// `zooscope locks` as a user runs it: the CLI bundled as `npm run build` bundles dist/cli.js (test/support/clients/cliBundle)
// against a real server holding a queue with a real waiting watch.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import type { LockAnalysis } from '../../src/zk/analysis';
import { digestId } from '../../src/zk/write';
import { sleep } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { sharedCliBundle } from '../support/clients/cliBundle';

let cli: string;
const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;
const sessionOf = (c: OtherClient) => c.sessionId;

/** A password that must never show in the CLI's output. */
const SECRET = 'pw-Kd40-never-printed';

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const childEnv = { ...process.env, ZOOSCOPE_DIGEST: undefined, ZOOSCOPE_DIGEST_PASSWORD: undefined, ...env };
    execFile(process.execPath, [cli, ...args], { timeout: 60000, env: childEnv }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('zooscope locks (CLI)', () => {
  let zk: ZkCluster;
  let a: OtherClient;
  let b: OtherClient;
  let held: string;
  let waiting: string;
  let admin: string[];

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone({ adminServer: true })]);
    admin = ['--admin-port', String(zk.members[0].adminPort)];
    a = await connectOtherClient(zk.connectString, 20000);
    b = await connectOtherClient(zk.connectString, 20000);
    await a.mkdirp('/app/locks/orders');
    held = await a.create(`/app/locks/orders/${'f'.repeat(32)}__lock__`, 'worker-a', EPH_SEQ);
    waiting = await b.create(`/app/locks/orders/${'0'.repeat(32)}__lock__`, 'worker-b', EPH_SEQ);
    await b.watch(held, 'getData');
  });

  after(async () => {
    a?.close();
    b?.close();
    await zk?.stop();
  });

  test('human output: the queue in order with roles, sessions, clients, labels, waits-for and seen', async () => {
    const { code, stdout, stderr } = await run(['locks', zk.connectString, '/app', ...admin]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /QUEUE \/app\/locks\/orders {2}\(kazoo-lock, 2 participants\)/);
    const lines = stdout.split('\n');
    const holderLine = lines.find((l) => l.startsWith('0 ') && l.includes(sessionOf(a)));
    const waiterLine = lines.find((l) => l.startsWith('1 ') && l.includes(sessionOf(b)));
    assert.ok(holderLine && /holder/.test(holderLine) && /worker-a/.test(holderLine) && /127\.0\.0\.1:\d+/.test(holderLine), stdout);
    assert.ok(waiterLine && /waiter/.test(waiterLine) && waiterLine.includes(path.basename(held)) && /seen\s*$/.test(waiterLine), stdout);
    assert.match(stdout, /via admin/);
  });

  test('--json: the LockAnalysis document', async () => {
    const { code, stdout, stderr } = await run(['locks', zk.connectString, '/app/locks/orders', '--json', ...admin]);
    assert.equal(code, 0, stderr);
    const analysis = JSON.parse(stdout) as LockAnalysis;
    assert.equal(analysis.root, '/app/locks/orders');
    assert.equal(analysis.queues[0].recipe, 'kazoo-lock');
    assert.deepEqual(analysis.queues[0].participants.map((p) => [p.path, p.role, p.session]), [[held, 'holder', sessionOf(a)], [waiting, 'waiter', sessionOf(b)]]);
    assert.deepEqual(analysis.queues[0].participants[1].watches, [{ path: held, source: 'server' }]);
    assert.equal(analysis.servers[0].via, 'admin');
    assert.equal(typeof analysis.takenAt, 'number');
  });

  test('--held-too-long and --strict: an error-level anomaly fails the run (exit 3), warnings do not', async () => {
    const warn = await run(['locks', zk.connectString, '/app/locks/orders', '--held-too-long', '0', ...admin]);
    assert.equal(warn.code, 0, warn.stderr);
    assert.match(warn.stdout, /! warning: held for/);
    const c = await connectOtherClient(zk.connectString, 20000);
    try {
      // A waiter watching a node that no longer exists: a stuck waiter (error level).
      const gone = await c.create('/app/locks/orders/gone-', '', zookeeper.CreateMode.EPHEMERAL);
      await c.create(`/app/locks/orders/${'c'.repeat(32)}__lock__`, 'stuck', EPH_SEQ);
      await c.remove(gone);
      await c.watch(gone, 'exists');
      await sleep(1100);
      const strict = await run(['locks', zk.connectString, '/app/locks/orders', '--strict', ...admin]);
      assert.equal(strict.code, 3, strict.stdout + strict.stderr);
      assert.match(strict.stdout, /stuck waiter: watches .*gone-/);
    } finally {
      c.close();
    }
  });

  test('bad arguments exit 2; a missing path or server exits 1 with a reason', async () => {
    const usage = await run(['locks', zk.connectString]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage: zooscope locks/);
    assert.equal((await run(['locks', zk.connectString, 'relative'])).code, 2);
    const missing = await run(['locks', zk.connectString, '/no/such/path']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /noNode/);
    const down = await run(['locks', '127.0.0.1:1', '/', '--timeout', '3']);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /cannot connect/);
  });

  test('bad values exit 2 with one line before connecting: a relative path, overflowing or absurd numbers', async () => {
    for (const args of [
      ['127.0.0.1:1', 'relative'], ['127.0.0.1:1', '/a/'], ['127.0.0.1:1', '/', '--timeout', '1e10'], ['127.0.0.1:1', '/', '--timeout', ''],
      ['127.0.0.1:1', '/', '--admin-port', '70000'], ['127.0.0.1:1', '/', '--max-queues', '0'], ['127.0.0.1:1', '/', '--held-too-long', 'soon'],
    ]) {
      const r = await run(['locks', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^zooscope locks: [^\n]+\n$/, `${args.join(' ')}: one line, got ${JSON.stringify(r.stderr)}`);
    }
  });

  test('hostile names and data: no invisible or control character reaches the terminal; --json keeps the values, escaped', async () => {
    const c = await connectOtherClient(zk.connectString, 20000);
    try {
      const dir = '/hostile/q\u202etxt.exe\u200b[x](command:foo)';
      await c.mkdirp(dir);
      // Data with ANSI escapes is labelled in hex by the analysis; a zero-width space is printable text to it.
      await c.create(`${dir}/${'a'.repeat(32)}__lock__`, 'worker\u200b[x](command:foo)', EPH_SEQ);
      await c.create(`${dir}/${'b'.repeat(32)}__lock__`, '\u001b[31mred\u001b[0m', EPH_SEQ);
      const human = await run(['locks', zk.connectString, '/hostile', ...admin]);
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stdout, /QUEUE \/hostile\/q/);
      assert.doesNotMatch(human.stdout + human.stderr, /[\u202e\u200b\u001b]/);
      assert.ok(human.stdout.includes('worker[U+200B][x](command:foo)'), human.stdout);
      const json = await run(['locks', zk.connectString, '/hostile', '--json', ...admin]);
      assert.equal(json.code, 0, json.stderr);
      assert.doesNotMatch(json.stdout, /[\u202e\u200b\u001b]/);
      assert.ok(json.stdout.includes('\\u202e') && json.stdout.includes('\\u200b'), json.stdout);
      const analysis = JSON.parse(json.stdout) as LockAnalysis;
      assert.equal(analysis.queues[0].path, dir);
      assert.deepEqual(analysis.queues[0].participants.map((p) => p.label), ['worker\u200b[x](command:foo)', '0x1b5b33316d7265641b5b306d']);
    } finally {
      c.close();
      await a.removeRecursive('/hostile');
    }
  });

  test('digest credentials from ZOOSCOPE_DIGEST / ZOOSCOPE_DIGEST_PASSWORD analyse a protected subtree; never from argv, never printed', async () => {
    const alice = await connectOtherClient(zk.connectString, 20000);
    try {
      alice.client.addAuthInfo('digest', Buffer.from(`alice:${SECRET}`));
      const acl = [new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id('digest', digestId('alice', SECRET)))];
      const create = (p: string, data: string, mode: number) => new Promise<string>((resolve, reject) =>
        alice.client.create(p, Buffer.from(data), acl, mode, (e, made) => (e ? reject(e) : resolve(made))));
      await create('/secure', '', zookeeper.CreateMode.PERSISTENT);
      await create('/secure/orders', '', zookeeper.CreateMode.PERSISTENT);
      const node = await create(`/secure/orders/${'e'.repeat(32)}__lock__`, 'worker-s', EPH_SEQ);
      const denied = await run(['locks', zk.connectString, '/secure', ...admin]);
      assert.equal(denied.code, 1);
      assert.match(denied.stderr, /^zooscope locks: .*noAuth.*--digest <user>[^\n]*\n$/);
      const viaEnv = await run(['locks', zk.connectString, '/secure', '--json', ...admin], { ZOOSCOPE_DIGEST: `alice:${SECRET}` });
      assert.equal(viaEnv.code, 0, viaEnv.stderr);
      assert.deepEqual((JSON.parse(viaEnv.stdout) as LockAnalysis).queues[0].participants.map((p) => p.path), [node]);
      const viaFlag = await run(['locks', zk.connectString, '/secure', '--digest', 'alice', ...admin], { ZOOSCOPE_DIGEST_PASSWORD: SECRET });
      assert.equal(viaFlag.code, 0, viaFlag.stderr);
      assert.match(viaFlag.stdout, /QUEUE \/secure\/orders {2}\(kazoo-lock, 1 participant\)/);
      const inArgv = await run(['locks', zk.connectString, '/secure', '--auth', `alice:${SECRET}`]);
      assert.equal(inArgv.code, 2);
      assert.match(inArgv.stderr, /^zooscope locks: [^\n]*ZOOSCOPE_DIGEST_PASSWORD[^\n]*\n$/);
      for (const r of [denied, viaEnv, viaFlag, inArgv]) assert.ok(!(r.stdout + r.stderr).includes(SECRET), 'the password was printed');
    } finally {
      alice.close();
    }
  });
});
