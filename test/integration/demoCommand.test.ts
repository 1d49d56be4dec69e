// `npm run demo` end to end: runs scripts/demo.sh (with ZOOSCOPE_DEMO_PREBUILT=1, so npm ci / build / compile are
// skipped when their outputs exist; the ensure-* steps and everything the demo starts are real), waits for the URL,
// checks code-server, the installed extension, the profile's settings, the ZooKeeper data and the live lock queues,
// then sends SIGINT and checks that the demo exits 0 and that no process or port it started is left.
//   npx tsc -p tsconfig.test.json && node --test out/test/integration/demoCommand.test.js
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { hostTools } from '../support/servers/codeServer';
import { sessionIdHex } from '../../src/zk/stat';
import { fourLetterWord } from '../support/ports';
import { alive, commandLine, processesUsing } from '../support/processes';
import { waitFor } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';

const REPO = path.resolve(__dirname, '..', '..', '..');
const ROOT = '/zooscope-demo';

function toolsInstalled(): boolean {
  try { hostTools(); return true; } catch { return false; }
}
// Warm: about 15 s. Cold (code-server not yet installed), the demo installs it first: about 2 minutes more.
const TIMEOUT_MS = toolsInstalled() ? 90_000 : 360_000;
/** How long each lock queue may take to fill again before the test says it did not (a failure's bound only). */
const QUEUE_FILL_MS = 120_000;

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-demo-test-'));
let demo: ChildProcess | undefined;
let seenPids: number[] = [];
let client: OtherClient | undefined;

after(async () => {
  client?.close();
  // Only on failure is anything left: kill it so the next tests start clean.
  if (demo?.pid !== undefined && demo.exitCode === null && demo.signalCode === null) {
    try { process.kill(-demo.pid, 'SIGKILL'); } catch { /* gone */ }
  }
  for (const pid of [...seenPids, ...processesUsing(stateDir)]) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    try { process.kill(-pid, 'SIGKILL'); } catch { /* not a group leader */ }
  }
  fs.rmSync(stateDir, { recursive: true, force: true });
});

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

/** True when something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000, () => { socket.destroy(); resolve(true); });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

void test('npm run demo starts ZooKeeper, demo data, lock clients and VS Code, and Ctrl-C stops them all', { timeout: TIMEOUT_MS + 2 * QUEUE_FILL_MS }, async (t) => {
  const started = Date.now();
  demo = spawn('bash', [path.join(REPO, 'scripts', 'demo.sh'), '--dir', stateDir], {
    cwd: REPO,
    env: { ...process.env, ZOOSCOPE_DEMO_PREBUILT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so a failed test can kill all of it
  });
  const proc = demo;
  let output = '';
  proc.stdout!.on('data', (c: Buffer) => { output += c.toString(); });
  proc.stderr!.on('data', (c: Buffer) => { output += c.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })));

  // The URL, printed last.
  const url = await Promise.race([
    waitFor('the demo URL', async () => /Open in your browser:\s+(http:\/\/\S+)/.exec(output)?.[1], TIMEOUT_MS - 30_000, 100),
    exited.then(({ code, signal }) => { throw new Error(`demo exited early (${code ?? signal})`); }),
  ]).catch((error: Error) => {
    throw new Error(`${error.message}\n--- demo output:\n${output}`);
  });
  t.diagnostic(`URL after ${((Date.now() - started) / 1000).toFixed(1)} s: ${url}`);
  assert.match(output.trimEnd(), /Press Ctrl-C to stop everything\.\n=+$/, 'the banner is the last thing printed');
  assert.doesNotMatch(output, /FAILED/);

  const csPort = Number(new URL(url).port);
  const zkPort = Number(/ZooKeeper:\s+127\.0\.0\.1:(\d+)/.exec(output)?.[1]);
  const adminPort = Number(/AdminServer http:\/\/127\.0\.0\.1:(\d+)\//.exec(output)?.[1]);
  assert.ok(csPort > 0 && zkPort > 0 && adminPort > 0, `ports in the banner: ${csPort}, ${zkPort}, ${adminPort}`);
  // In use when asked, or taken between the question and the JVM's bind (another suite's demo on this machine).
  if (zkPort !== 2181) assert.match(output, /port 2181 (is in use|was taken meanwhile)/, 'says why it did not take 2181');
  assert.equal(new URL(url).searchParams.get('folder'), path.join(REPO, 'demo'));
  // The folder the banner offers for Server History holds the server's logs.
  const pastFolder = /Its past:.* choose (\S+)/.exec(output)?.[1];
  assert.ok(pastFolder && fs.readdirSync(path.join(pastFolder, 'version-2')).some((name) => name.startsWith('log.')), `server logs in ${pastFolder}`);

  // code-server answers, and serves the workbench for the demo folder.
  const health = await get(`http://127.0.0.1:${csPort}/healthz`);
  assert.equal(health.status, 200);
  assert.match(health.body, /"status"\s*:\s*"(alive|expired)"/);
  const page = await get(url);
  assert.equal(page.status, 200);
  assert.match(page.body, /workbench/i);

  // ZooScope is installed from the vsix, and the profile holds the demo connection (and no password).
  const extensions = fs.readdirSync(path.join(stateDir, 'code-server', 'extensions'));
  assert.ok(extensions.some((name) => /^zooscope\.zooscope-\d+\.\d+\.\d+$/.test(name)), `extensions: ${extensions.join(', ')}`);
  const settingsText = fs.readFileSync(path.join(stateDir, 'code-server', 'user-data', 'User', 'settings.json'), 'utf8');
  const settings = JSON.parse(settingsText) as Record<string, unknown>;
  // With its AdminServer port, so the Ensemble view and the watch tables read via the AdminServer.
  assert.deepEqual(settings['zooscope.connections'],
    [{ id: 'demo', name: 'Demo (local ZooKeeper)', connectString: `127.0.0.1:${zkPort}`, adminPort }]);
  assert.doesNotMatch(settingsText, /password/i);

  // ZooKeeper: 4lw whitelisted, AdminServer on loopback, the seeded data, live lock queues.
  assert.equal(await fourLetterWord(zkPort, 'ruok'), 'imok');
  assert.match(await fourLetterWord(zkPort, 'mntr'), /zk_server_state\s+standalone/);
  assert.equal((await get(`http://127.0.0.1:${adminPort}/commands/ruok`)).status, 200);
  client = await connectOtherClient(`127.0.0.1:${zkPort}`);
  const zk = client;
  assert.equal((await zk.children(`${ROOT}/wide`)).length, 20000);
  const queues = [
    { path: `${ROOT}/locks/curator-mutex`, size: 4, shape: /^_c_[0-9a-f-]{36}-lock-\d{10}$/ },
    { path: `${ROOT}/locks/kazoo-lock`, size: 3, shape: /^[0-9a-f]{32}__lock__\d{10}$/ },
  ];
  for (const queue of queues) {
    // A holder rests 3 s between a release and queueing again: wait for the full queue. The bound is only how long
    // a failure takes to say so: with both cores busy the demo's clients took longer than 8 s to queue again (run T2).
    const names = await waitFor(`${queue.size} nodes in ${queue.path}`, async () => {
      const children = await zk.children(queue.path);
      return children.length === queue.size && children;
    }, QUEUE_FILL_MS, 100);
    const owners = new Set<string>();
    for (const name of names) {
      assert.match(name, queue.shape);
      const { stat } = await zk.getData(`${queue.path}/${name}`);
      const owner = sessionIdHex(stat.ephemeralOwner);
      assert.notEqual(BigInt(owner), 0n, `${name} is ephemeral`);
      owners.add(owner);
    }
    assert.equal(owners.size, queue.size, `one session per contender in ${queue.path}`);
  }
  zk.close();
  client = undefined;

  // What runs: the demo itself, ZooKeeper's java, code-server and its helpers.
  seenPids = processesUsing(stateDir);
  const commands = seenPids.map(commandLine);
  t.diagnostic(`${seenPids.length} processes: ${commands.map((c) => c.slice(0, 100)).join(' | ')}`);
  assert.ok(seenPids.includes(proc.pid!), 'the demo process (bash exec-ed into node) is found');
  assert.ok(commands.some((c) => c.startsWith('java ') && c.includes('QuorumPeerMain')), 'ZooKeeper runs');
  assert.ok(commands.some((c) => c.includes('code-server')), 'code-server runs');
  assert.ok(await listening(zkPort) && await listening(adminPort) && await listening(csPort));

  // Ctrl-C: only the demo process gets the signal (a terminal would also signal ZooKeeper's java; this is harder).
  const stopStarted = Date.now();
  process.kill(proc.pid!, 'SIGINT');
  let timer: NodeJS.Timeout | undefined;
  const end = await Promise.race([exited, new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`demo did not exit within 30 s of SIGINT:\n${output}`)), 30_000);
  })]).finally(() => clearTimeout(timer));
  t.diagnostic(`stopped in ${((Date.now() - stopStarted) / 1000).toFixed(1)} s`);
  assert.deepEqual(end, { code: 0, signal: null }, output);

  for (const [name, port] of [['ZooKeeper', zkPort], ['AdminServer', adminPort], ['code-server', csPort]] as const) {
    assert.equal(await listening(port), false, `${name} port ${port} is closed`);
  }
  const left = await waitFor('no process left', async () => {
    const pids = processesUsing(stateDir);
    return pids.length === 0 ? [] : undefined;
  }, 30_000, 100).catch(() => processesUsing(stateDir));
  assert.deepEqual(left.map(commandLine), [], 'processes left running');
  for (const pid of seenPids) assert.ok(!alive(pid), `pid ${pid} is gone`);
  assert.match(output, /stopped code-server[\s\S]*stopped lock clients[\s\S]*stopped ZooKeeper/);
});
