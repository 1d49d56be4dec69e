// `zooscope lock` as a user runs it: the bundled CLI (built with esbuild into .tmp, as `npm run build` builds
// dist/cli.js) against a real server, driven through its stable line prefixes and exit codes, also queued behind
// a real Curator holder.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as zookeeper from 'node-zookeeper-client';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';
import { children, newManager } from '../support/clients/lockHelpers';
import { ThirdPartyClient } from '../support/thirdParty/driver';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { startCurator } from '../support/thirdParty/curator';
import { startKazoo } from '../support/thirdParty/kazoo';
import { LockManager } from '../../src/zk/locks';
import { digestId } from '../../src/zk/write';

interface CliRun {
  proc: ChildProcess;
  lines: string[];
  /** stderr so far. */
  readonly stderr: string;
  exit: Promise<number | null>;
  line(prefix: string, timeoutMs?: number): Promise<string>;
}

interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** A file descriptor to give the CLI as stdout instead of a pipe (the test reads it itself). */
  stdoutFd?: number;
}

/** The exit code, or a failure after a generous outer bound (a CLI that never exits must fail, not hang). */
function exitOf(r: CliRun, ms = 30000): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${ms} ms; stdout ${JSON.stringify(r.lines)} stderr ${r.stderr}`)), ms);
  });
  return Promise.race([r.exit, late]).finally(() => clearTimeout(timer));
}

/** A password that must never show in the CLI's output. */
const SECRET = 'pw-Zq81-never-printed';

describe('zooscope lock (CLI)', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let curator: ThirdPartyClient;
  let cli: string;
  const managers: LockManager[] = [];
  const runs: CliRun[] = [];

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone()]);
    other = await connectOtherClient(zk.connectString);
    curator = await startCurator(zk.connectString);
  });
  after(async () => {
    for (const r of runs) if (r.proc.exitCode === null) r.proc.kill('SIGKILL');
    for (const m of managers) m.close();
    await curator?.close();
    other?.close();
    await zk?.stop();
  });

  function run(...args: string[]): CliRun {
    return runWith({}, ...args);
  }

  function runWith(options: RunOptions, ...args: string[]): CliRun {
    const env = { ...process.env, ZOOSCOPE_DIGEST: undefined, ZOOSCOPE_DIGEST_PASSWORD: undefined, ...options.env };
    const proc = spawn(process.execPath, [cli, 'lock', ...args], { stdio: ['ignore', options.stdoutFd ?? 'pipe', 'pipe'], env });
    const lines: string[] = [];
    let stderr = '';
    proc.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
    if (proc.stdout) readline.createInterface({ input: proc.stdout }).on('line', (l) => lines.push(l));
    const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const result: CliRun = {
      proc, lines, exit,
      get stderr() { return stderr; },
      async line(prefix, timeoutMs = 15000) {
        await eventually(() => lines.some((l) => l.startsWith(prefix)), timeoutMs, `a line "${prefix}…"; got ${JSON.stringify(lines)} ${stderr}`);
        return lines.find((l) => l.startsWith(prefix))!;
      },
    };
    runs.push(result);
    return result;
  }

  test('takes the lock, holds it --hold seconds, releases, exits 0', async () => {
    const r = run(zk.connectString, '/cli/hold', '--hold', '0.3');
    assert.equal(await r.exit, 0);
    assert.equal(r.lines.length, 4, r.lines.join('\n'));
    assert.match(r.lines[0], /^session 0x[0-9a-f]+$/);
    assert.equal(r.lines[1], 'convention plain empty');
    assert.match(r.lines[2], /^held node=\/cli\/hold\/[0-9a-f]{32}-lock-\d{10} session=0x[0-9a-f]+$/);
    assert.match(r.lines[3], /^released node=/);
    assert.deepEqual(await children(other, '/cli/hold'), []);
  });

  test('waits behind a holder (position and node), holds when it goes; SIGINT releases with exit 0', async () => {
    const m = newManager(zk.connectString);
    managers.push(m);
    const h = await m.acquire('/cli/wait');
    await h.whenHeld();
    const r = run(zk.connectString, '/cli/wait');
    assert.equal(await r.line('waiting'), `waiting position=2/2 for=${h.snapshot.node}`);
    await h.release();
    const held = await r.line('held');
    r.proc.kill('SIGINT');
    assert.equal(await r.exit, 0);
    assert.match(r.lines.at(-1)!, /^released /);
    assert.equal(r.lines.indexOf(held), r.lines.length - 2);
    assert.deepEqual(await children(other, '/cli/wait'), []);
  });

  test('SIGTERM while waiting cancels (exit 6, node deleted); --timeout gives exit 3; a deleted node is lost (exit 4)', async () => {
    const m = newManager(zk.connectString);
    managers.push(m);
    const h = await m.acquire('/cli/ends');
    await h.whenHeld();
    const waiting = run(zk.connectString, '/cli/ends');
    await waiting.line('waiting');
    waiting.proc.kill('SIGTERM');
    assert.equal(await waiting.exit, 6);
    assert.equal(waiting.lines.at(-1), 'cancelled');
    const timed = run(zk.connectString, '/cli/ends', '--timeout', '0.5');
    assert.equal(await timed.exit, 3);
    assert.equal(timed.lines.at(-1), 'timeout');
    assert.equal((await children(other, '/cli/ends')).length, 1);
    await h.release();
    const holder = run(zk.connectString, '/cli/ends', '--write');
    const held = await holder.line('held');
    await other.remove(/node=(\S+)/.exec(held)![1]);
    assert.equal(await holder.exit, 4);
    assert.equal(holder.lines.at(-1), 'lost reason=nodeDeleted');
  });

  test('joins a Curator mutex queue: waits behind the Curator holder, holds after it, and Curator waits behind it', async () => {
    curator.acquire('c1', 'mutex', '/cli/curator');
    const theirs = await curator.waitForEvent('c1', 'acquired');
    const r = run(zk.connectString, '/cli/curator', '--hold', '1.5');
    assert.equal(await r.line('convention'), 'convention curator-mutex recognised');
    assert.equal(await r.line('waiting'), `waiting position=2/2 for=${theirs.node}`);
    curator.acquire('c2', 'mutex', '/cli/curator');
    await curator.waitForEvent('c2', 'waiting');
    curator.release('c1');
    const held = await r.line('held');
    assert.match(held, /^held node=\/cli\/curator\/_c_[0-9a-f-]{36}-lock-\d{10} /);
    assert.ok(!curator.events.some((e) => e.id === 'c2' && e.event === 'acquired'), 'Curator got in while the CLI held');
    assert.equal(await r.exit, 0);
    await curator.waitForEvent('c2', 'acquired');
    curator.release('c2');
  });

  test('an unknown queue: exit 5 with a hint; --convention joins it; usage errors exit 2', async () => {
    await other.mkdirp('/cli/unknown');
    await other.create('/cli/unknown/job-', '', 3);
    const r = run(zk.connectString, '/cli/unknown');
    assert.equal(await r.exit, 5);
    assert.ok(r.lines.includes('failed error=conventionUnknown'), r.lines.join('\n'));
    assert.ok(r.lines.some((l) => l.startsWith('hint: choose --convention')));
    const forced = run(zk.connectString, '/cli/unknown', '--convention', 'plain', '--hold', '0');
    assert.equal(await forced.exit, 0);
    assert.ok(forced.lines.includes('convention plain chosen'), forced.lines.join('\n'));
    for (const args of [[zk.connectString], [zk.connectString, '/x', '--timeout'], [zk.connectString, '/x', '--convention', 'nope'], [zk.connectString, '/x', '--bogus']]) {
      assert.equal(await run(...args).exit, 2, args.join(' '));
    }
  });

  test('bad arguments exit 2 with one line on stderr, before connecting (a relative path, "/", absurd or overflowing seconds)', { timeout: 120000 }, async () => {
    const cases = [
      [zk.connectString, 'rel/path'], ['127.0.0.1:1', 'rel/path'], ['127.0.0.1:1', '/'], ['127.0.0.1:1', '/x/'],
      ['127.0.0.1:1', '/x', '--timeout', '2592000'], ['127.0.0.1:1', '/x', '--timeout', ''], ['127.0.0.1:1', '/x', '--hold', '-1'],
      ['127.0.0.1:1', '/x', '--hold', 'Infinity'], ['127.0.0.1:1', '/x', '--hold', '1e300'],
      ['127.0.0.1:1', '/x', '--session-timeout', '3000000'], ['127.0.0.1:1', '/x', '--session-timeout', '0'],
      ['not a host:port:x', '/x'],
    ];
    for (const args of cases) {
      const r = run(...args);
      assert.equal(await exitOf(r), 2, `${args.join(' ')}: ${JSON.stringify(r.lines)} ${r.stderr}`);
      assert.deepEqual(r.lines, [], args.join(' '));
      assert.match(r.stderr, /^zooscope lock: [^\n]+\n$/, `${args.join(' ')}: one line, got ${JSON.stringify(r.stderr)}`);
      assert.doesNotMatch(r.stderr, /RangeError|Warning|\n {4}at /);
    }
  });

  test('--hold longer than a timer can wait (30 days) keeps the lock: another client queues behind it until SIGINT', { timeout: 60000 }, async () => {
    const r = run(zk.connectString, '/cli/long', '--hold', '2592000');
    const held = /node=(\S+)/.exec(await r.line('held'))![1];
    const m = newManager(zk.connectString);
    managers.push(m);
    const h = await m.acquire('/cli/long');
    await eventually(() => h.state === 'waiting', 15000, 'the other client waiting');
    assert.equal(h.snapshot.waitingFor, held);
    assert.equal(r.proc.exitCode, null, `the CLI let go early: ${JSON.stringify(r.lines)} ${r.stderr}`);
    r.proc.kill('SIGINT');
    assert.equal(await exitOf(r), 0);
    await h.whenHeld();
    await h.release();
    assert.doesNotMatch(r.stderr, /TimeoutOverflowWarning/);
  });

  test('closing the output (the reader goes away) releases a held lock at once and exits; so does SIGHUP', { timeout: 90000 }, async () => {
    // A 60 s session: had the CLI only died, its node would outlive the checks below by far.
    const r = run(zk.connectString, '/cli/closed', '--session-timeout', '60');
    await r.line('held');
    assert.equal((await children(other, '/cli/closed')).length, 1);
    r.proc.stdout!.destroy();
    assert.equal(await exitOf(r), 0, r.stderr);
    assert.deepEqual(await children(other, '/cli/closed'), [], 'the node went with the CLI, not with its session');
    assert.doesNotMatch(r.stderr, /EPIPE|\n {4}at /);

    const hup = run(zk.connectString, '/cli/closed', '--session-timeout', '60');
    await hup.line('held');
    hup.proc.kill('SIGHUP');
    assert.equal(await exitOf(hup), 0, hup.stderr);
    assert.equal(hup.lines.at(-1)?.startsWith('released '), true, hup.lines.join('\n'));
    assert.deepEqual(await children(other, '/cli/closed'), []);

    // Waiting behind a holder, SIGHUP cancels: exit 6, our node deleted.
    const m = newManager(zk.connectString);
    managers.push(m);
    const h = await m.acquire('/cli/closed');
    await h.whenHeld();
    const waiter = run(zk.connectString, '/cli/closed', '--session-timeout', '60');
    await waiter.line('waiting');
    waiter.proc.kill('SIGHUP');
    assert.equal(await exitOf(waiter), 6, waiter.stderr);
    assert.deepEqual(await children(other, '/cli/closed'), [path.basename(h.snapshot.node!)]);
    await h.release();
  });

  test('a shell pipe whose reader is gone (EPIPE on the next line): the lock is released, no stack trace', { timeout: 90000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-fifo-'));
    const fifo = path.join(dir, 'out');
    execFileSync('mkfifo', [fifo]);
    const readFd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const writeFd = fs.openSync(fifo, fs.constants.O_WRONLY);
    const reader = new net.Socket({ fd: readFd, readable: true, writable: false });
    try {
      const m = newManager(zk.connectString);
      managers.push(m);
      const h = await m.acquire('/cli/fifo');
      await h.whenHeld();
      const r = runWith({ stdoutFd: writeFd }, zk.connectString, '/cli/fifo', '--session-timeout', '60');
      fs.closeSync(writeFd);
      readline.createInterface({ input: reader }).on('line', (l) => r.lines.push(l));
      await r.line('waiting');
      reader.destroy(); // no reader left: the CLI's next write fails with EPIPE
      await new Promise((resolve) => reader.once('close', resolve));
      await h.release(); // the CLI gets the lock and says so: into the closed pipe
      assert.equal(await exitOf(r), 0, r.stderr);
      assert.deepEqual(await children(other, '/cli/fifo'), []);
      assert.doesNotMatch(r.stderr, /EPIPE|\n {4}at /);
    } finally {
      reader.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an empty path without --convention: one note on stderr that Curator/kazoo clients will not see the lock', { timeout: 60000 }, async () => {
    const r = run(zk.connectString, '/cli/note', '--hold', '0');
    assert.equal(await exitOf(r), 0);
    const notes = r.stderr.split('\n').filter(Boolean);
    assert.equal(notes.length, 1, r.stderr);
    assert.match(notes[0], /^zooscope lock: note: .*Curator.*kazoo.*--convention/);
    const chosen = run(zk.connectString, '/cli/note', '--hold', '0', '--convention', 'plain');
    assert.equal(await exitOf(chosen), 0);
    assert.equal(chosen.stderr, '');
  });

  test('a folder of kazoo queues is refused (exit 2, one line naming them, no node created); --here locks it all the same', { timeout: 90000 }, async () => {
    const kazoo = await startKazoo(zk.connectString);
    try {
      kazoo.acquire('kq1', 'mutex', '/cli/folder/q1');
      kazoo.acquire('kq2', 'mutex', '/cli/folder/q2');
      await Promise.all([kazoo.waitForEvent('kq1', 'acquired'), kazoo.waitForEvent('kq2', 'acquired')]);
      const refused = run(zk.connectString, '/cli/folder', '--hold', '0');
      assert.equal(await exitOf(refused), 2, refused.lines.join('\n') + refused.stderr);
      const lines = refused.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, refused.stderr);
      assert.match(lines[0], /^zooscope lock: \/cli\/folder holds lock queues below it \(\/cli\/folder\/q1, \/cli\/folder\/q2\): .*--here/);
      assert.ok(!refused.lines.some((l) => l.startsWith('held')), refused.lines.join('\n'));
      assert.deepEqual((await children(other, '/cli/folder')).sort(), ['q1', 'q2']);

      const here = run(zk.connectString, '/cli/folder', '--hold', '0', '--here');
      assert.equal(await exitOf(here), 0, here.stderr);
      assert.match(await here.line('held'), /^held node=\/cli\/folder\/[0-9a-f]{32}-lock-\d{10} /);
    } finally {
      await kazoo.close();
    }
  });

  test('hostile node names are printed visibly: bidi override and zero-width space as [U+…], no raw invisible character', { timeout: 60000 }, async () => {
    const hostile = '/cli/host\u202eile\u200b[x](command:foo)';
    const r = run(zk.connectString, hostile, '--hold', '0');
    assert.equal(await exitOf(r), 0, r.stderr);
    const out = r.lines.join('\n') + r.stderr;
    assert.doesNotMatch(out, /[\u202e\u200b\u001b]/);
    const held = r.lines.find((l) => l.startsWith('held '))!;
    assert.ok(held.startsWith('held node=/cli/host[U+202E]ile[U+200B][x](command:foo)/'), held);
  });

  test('digest credentials from the environment (never from argv, never printed) lock a protected subtree', { timeout: 60000 }, async () => {
    const alice = await connectOtherClient(zk.connectString);
    try {
      alice.client.addAuthInfo('digest', Buffer.from(`alice:${SECRET}`));
      const acl = [new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id('digest', digestId('alice', SECRET)))];
      await new Promise<void>((resolve, reject) => alice.client.create('/cli-secret', Buffer.alloc(0), acl, zookeeper.CreateMode.PERSISTENT, (e) => (e ? reject(e) : resolve())));
      const denied = run(zk.connectString, '/cli-secret', '--hold', '0');
      assert.equal(await exitOf(denied), 1);
      assert.ok(denied.lines.includes('failed error=noAuth'), denied.lines.join('\n'));
      assert.match(denied.lines.at(-1)!, /^hint: .*--digest <user>.*ZOOSCOPE_DIGEST_PASSWORD/);
      const viaFlag = runWith({ env: { ZOOSCOPE_DIGEST_PASSWORD: SECRET } }, zk.connectString, '/cli-secret', '--digest', 'alice');
      const node = /node=(\S+)/.exec(await viaFlag.line('held'))![1];
      assert.deepEqual(await children(alice, '/cli-secret'), [path.basename(node)]);
      viaFlag.proc.kill('SIGINT');
      assert.equal(await exitOf(viaFlag), 0);
      const viaEnv = runWith({ env: { ZOOSCOPE_DIGEST: `alice:${SECRET}` } }, zk.connectString, '/cli-secret', '--hold', '0');
      assert.equal(await exitOf(viaEnv), 0, viaEnv.stderr);
      assert.deepEqual(await children(alice, '/cli-secret'), []);
      // A password on the command line is refused (ps and shell history show it); a user without a password too.
      const inArgv = run(zk.connectString, '/cli-secret', '--auth', `alice:${SECRET}`);
      assert.equal(await exitOf(inArgv), 2);
      assert.match(inArgv.stderr, /^zooscope lock: [^\n]*ZOOSCOPE_DIGEST_PASSWORD[^\n]*\n$/);
      const noPassword = run(zk.connectString, '/cli-secret', '--digest', 'alice');
      assert.equal(await exitOf(noPassword), 2);
      assert.match(noPassword.stderr, /ZOOSCOPE_DIGEST_PASSWORD/);
      for (const r of [denied, viaFlag, viaEnv, inArgv, noPassword]) {
        assert.ok(!(r.lines.join('\n') + r.stderr).includes(SECRET), 'the password was printed');
      }
    } finally {
      alice.close();
    }
  });
});
