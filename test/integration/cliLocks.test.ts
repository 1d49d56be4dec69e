// `zooscope locks` as a user runs it: dist/cli.js (bundled here with esbuild, as `npm run build` does) against
// a real server holding a queue with a real waiting watch.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import * as zookeeper from 'node-zookeeper-client';
import type { LockAnalysis } from '../../src/zk/analysis';
import { connectOtherClient, OtherClient } from '../support/zkClient';
import { startStandalone, ZkCluster } from '../support/zkServer';

const root = path.resolve(__dirname, '..', '..', '..');
const cli = path.join(root, 'dist', 'cli.js');
const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;
const sessionOf = (c: OtherClient) => '0x' + c.client.getSessionId().readBigUInt64BE(0).toString(16);

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 60000 }, (error, stdout, stderr) => {
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
    await esbuild.build({ entryPoints: [path.join(root, 'src', 'cli', 'main.ts')], outfile: cli, bundle: true, platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning' });
    zk = await startStandalone({ adminServer: true });
    admin = ['--admin-port', String(zk.members[0].adminPort)];
    a = await connectOtherClient(zk.connectString, 20000);
    b = await connectOtherClient(zk.connectString, 20000);
    await a.mkdirp('/app/locks/orders');
    held = await a.create(`/app/locks/orders/${'f'.repeat(32)}__lock__`, 'worker-a', EPH_SEQ);
    waiting = await b.create(`/app/locks/orders/${'0'.repeat(32)}__lock__`, 'worker-b', EPH_SEQ);
    await new Promise<void>((resolve, reject) => b.client.getData(held, () => undefined, (e) => (e ? reject(e) : resolve())));
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
      await new Promise<void>((resolve, reject) => c.client.exists(gone, () => undefined, (e) => (e ? reject(e) : resolve())));
      await new Promise((r) => setTimeout(r, 1100));
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
});
