// The `zooscope` CLI as a package of its own (npm run pack:cli): packed, installed from the tarball without a
// registry into a folder outside the checkout, and run from there with a PATH that has node but not the checkout,
// against a real ZooKeeper. Proves the bundle needs nothing of the checkout's node_modules at run time.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { repoRoot } from '../support/thirdParty/driver';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

interface Ran { code: number; stdout: string; stderr: string }

function run(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, timeout: 120000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const root = repoRoot();
const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

describe('zooscope CLI package (npm run pack:cli)', () => {
  let work: string;
  let tgz: string;
  let prefix: string;
  let zk: ZkCluster;
  let other: OtherClient;
  /** Only the installed bin folder and node's own: nothing of the checkout, no NODE_PATH, no credentials. */
  let env: NodeJS.ProcessEnv;
  const zooscope = (...args: string[]) => run(path.join(prefix, 'bin', 'zooscope'), args, { cwd: work, env });

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-clipack-'));
    const packDir = path.join(work, 'pack');
    const packing = run(process.execPath, [path.join(root, 'scripts', 'pack-cli.mjs'), '--out-dir', packDir], { cwd: root, env: process.env });
    zk = await startStandalone();
    const packed = await packing;
    assert.equal(packed.code, 0, `pack-cli failed: ${packed.stderr}`);
    tgz = path.join(packDir, `zooscope-cli-${version}.tgz`);
    assert.ok(fs.existsSync(tgz), `no ${tgz}: ${packed.stdout}`);
    prefix = path.join(work, 'prefix');
    const npmEnv = { ...process.env, npm_config_cache: path.join(work, 'npm-cache') };
    const installed = await run('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tgz], { cwd: work, env: npmEnv });
    assert.equal(installed.code, 0, `npm install failed: ${installed.stderr}`);
    env = { PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath)].join(path.delimiter), HOME: work, LANG: 'C.UTF-8' };
    assert.ok(!env.PATH!.includes(root), 'the PATH must not lead into the checkout');
    other = await connectOtherClient(zk.connectString, 20000);
  });

  after(async () => {
    other?.close();
    await zk?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('the tarball holds the bundle, its manifest, README and license: no sources, maps or node_modules', async () => {
    const listed = await run('tar', ['-tzf', tgz], { cwd: work, env: process.env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(listed.stdout.trim().split('\n').sort(), ['package/LICENSE', 'package/README.md', 'package/cli.js', 'package/package.json']);
    const installedDir = path.join(prefix, 'lib', 'node_modules', 'zooscope-cli');
    const manifest = JSON.parse(fs.readFileSync(path.join(installedDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.name, 'zooscope-cli');
    assert.equal(manifest.version, version);
    assert.deepEqual(manifest.bin, { zooscope: 'cli.js' });
    assert.equal(manifest.dependencies, undefined, 'the bundle carries its runtime dependencies');
    assert.deepEqual(manifest.peerDependenciesMeta, { kerberos: { optional: true } });
    assert.match(String((manifest.engines as { node?: string }).node), /^>=\d+/);
    assert.ok(!fs.existsSync(path.join(installedDir, 'node_modules')), 'npm installed dependencies beside the CLI');
    assert.ok(!fs.readFileSync(path.join(installedDir, 'cli.js'), 'utf8').includes('sourceMappingURL'), 'the bundle points to a source map it does not ship');
  });

  test('--version prints the extension\'s version and --help the usage, from outside the checkout', async () => {
    const shown = await zooscope('--version');
    assert.deepEqual([shown.code, shown.stdout, shown.stderr], [0, `${version}\n`, '']);
    const help = await zooscope('--help');
    assert.equal(help.code, 0, help.stderr);
    for (const command of ['zooscope lock ', 'zooscope locks ', 'zooscope shell ', 'zooscope --version']) assert.ok(help.stdout.includes(command), help.stdout);
  });

  test('its README says how to install the tarball and carries the installed CLI\'s own --help', async () => {
    const readme = fs.readFileSync(path.join(prefix, 'lib', 'node_modules', 'zooscope-cli', 'README.md'), 'utf8');
    const help = await zooscope('--help');
    assert.ok(readme.includes(help.stdout.trimEnd()), 'README.md and --help differ');
    assert.ok(readme.includes(`npm install -g zooscope-cli-${version}.tgz`), readme);
    assert.doesNotMatch(readme, /\{\{\w+\}\}/);
  });

  test('shell and locks work against a real server', async () => {
    await other.mkdirp('/clipack/locks/orders');
    await other.create('/clipack/data', 'made-by-test-client');
    const read = await zooscope('shell', zk.connectString, 'get', '/clipack/data');
    assert.deepEqual([read.code, read.stdout, read.stderr], [0, 'made-by-test-client\n', '']);
    const created = await zooscope('shell', zk.connectString, 'create', '/clipack/from-cli', 'made-by-package');
    assert.equal(created.code, 0, created.stderr);
    assert.equal((await other.getData('/clipack/from-cli')).data.toString(), 'made-by-package');

    const holder = await other.create(`/clipack/locks/orders/${'f'.repeat(32)}__lock__`, 'worker-a', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    const locks = await zooscope('locks', zk.connectString, '/clipack/locks', '--json');
    assert.equal(locks.code, 0, locks.stderr);
    const analysis = JSON.parse(locks.stdout) as { queues: { path: string; participants: { path: string; role: string; session: string }[] }[] };
    assert.deepEqual(analysis.queues.map((q) => q.path), ['/clipack/locks/orders']);
    assert.deepEqual(analysis.queues[0].participants.map((p) => [p.path, p.role, p.session]), [[holder, 'holder', other.sessionId]]);
  });

  test('--kerberos without the optional module: one line saying how to add it', async () => {
    const tried = await zooscope('shell', zk.connectString, '--kerberos', 'ls', '/');
    assert.notEqual(tried.code, 0);
    assert.equal(tried.stdout, '');
    assert.match(tried.stderr, /"kerberos", which is not installed here: run npm install kerberos/);
    assert.equal(tried.stderr.trimEnd().split('\n').length, 1, tried.stderr);
  });
});
