// `zooscope lock` as a user runs it: the bundled CLI (built with esbuild into .tmp, as `npm run build` builds
// dist/cli.js) against a real server, driven through its stable line prefixes and exit codes, also queued behind
// a real Curator holder.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as esbuild from 'esbuild';
import { startStandalone, ZkCluster } from '../support/zkServer';
import { connectOtherClient, eventually, OtherClient } from '../support/zkClient';
import { children, newManager } from '../support/lockHelpers';
import { repoRoot, ThirdPartyClient } from '../support/thirdParty/driver';
import { startCurator } from '../support/thirdParty/curator';
import { LockManager } from '../../src/zk/locks';

interface CliRun {
  proc: ChildProcess;
  lines: string[];
  exit: Promise<number | null>;
  line(prefix: string, timeoutMs?: number): Promise<string>;
}

describe('zooscope lock (CLI)', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let curator: ThirdPartyClient;
  let cli: string;
  const managers: LockManager[] = [];
  const runs: CliRun[] = [];

  before(async () => {
    const root = repoRoot();
    cli = path.join(root, '.tmp', `cli-test-${process.pid}`, 'cli.js');
    await esbuild.build({ entryPoints: [path.join(root, 'src/cli/main.ts')], outfile: cli, bundle: true, platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning' });
    zk = await startStandalone();
    other = await connectOtherClient(zk.connectString);
    curator = await startCurator(zk.connectString);
  });
  after(async () => {
    for (const r of runs) if (r.proc.exitCode === null) r.proc.kill('SIGKILL');
    for (const m of managers) m.close();
    await curator?.close();
    other?.close();
    await zk?.stop();
    fs.rmSync(path.dirname(cli), { recursive: true, force: true });
  });

  function run(...args: string[]): CliRun {
    const proc = spawn(process.execPath, [cli, 'lock', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let stderr = '';
    proc.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
    readline.createInterface({ input: proc.stdout! }).on('line', (l) => lines.push(l));
    const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const result: CliRun = {
      proc, lines, exit,
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
});
