// The guards of `zooscope copy` and `zooscope diff`, as a user meets them, against real servers: a mirror whose
// source and target overlap on one server is refused however the server is spelled (127.0.0.1 / localhost, both
// ways round); an unrelated second server is not; a mirror that deletes asks on a terminal (a real pseudo-terminal
// through util-linux `script`), stops from a pipe without --yes and writes with it; a read past --max-nodes stops
// with one line; and a plan prints a hostile path (line break, U+202E, icon and link syntax) as one visible line.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { RAW_HIDDEN } from '../support/fixtures/hostileFixture';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

let cli: string;
const env = { ...process.env, ZOOSCOPE_DIGEST: undefined, ZOOSCOPE_DIGEST_PASSWORD: undefined };

/** The CLI with stdin, stdout and stderr as pipes (as from a script). */
function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 120000, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const quoted = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The CLI on a pseudo-terminal (util-linux `script`): `answer` is typed once the question shows. Resolves with what
 * the terminal showed and the CLI's exit code (`script -e` passes it on).
 */
function runOnTerminal(args: string[], answer: string): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, cli, ...args].map(quoted).join(' ');
  const proc = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let answered = false;
  const onData = (chunk: Buffer) => {
    screen += chunk.toString();
    if (!answered && screen.includes('[y/N] ')) {
      answered = true;
      proc.stdin.write(answer);
    }
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);
  const timer = setTimeout(() => proc.kill('SIGKILL'), 60000);
  return new Promise((resolve) => proc.on('exit', (code) => {
    clearTimeout(timer);
    resolve({ code, screen });
  }));
}

async function tree(client: OtherClient, root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    found.push(at);
    for (const name of (await client.children(at)).sort()) await walk(`${at === '/' ? '' : at}/${name}`);
  };
  await walk(root);
  return found;
}

describe('zooscope copy and diff: overlap, confirmation, bounds and plan lines (CLI)', () => {
  let one: ZkCluster;
  let two: ZkCluster;
  let a: OtherClient;
  let b: OtherClient;
  let dir: string;
  let port: number;

  before(async () => {
    [cli, one, two] = await Promise.all([sharedCliBundle(), startStandalone({ adminServer: false }), startStandalone({ adminServer: false })]);
    [a, b] = await Promise.all([connectOtherClient(one.connectString, 30000), connectOtherClient(two.connectString, 30000)]);
    port = one.members[0].clientPort;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-guards-'));
    for (const node of ['/app', '/app/x', '/app/y', '/app/copy', '/app/copy/old', '/app/copy/old/z']) await a.create(node, 'v');
  });

  after(async () => {
    a?.close();
    b?.close();
    await Promise.all([one?.stop(), two?.stop()]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a mirror between one server spelled twice is refused both ways round (exit 2, one line), nothing written; another server is not', async () => {
    const before = await tree(a, '/app');
    for (const [from, to] of [[`127.0.0.1:${port}/app/copy`, `localhost:${port}/app`], [`127.0.0.1:${port}/app`, `localhost:${port}/app/copy`]]) {
      const refused = await run(['copy', '--mirror', from, to]);
      assert.equal(refused.code, 2, `${from} → ${to}: ${refused.stdout}${refused.stderr}`);
      const lines = refused.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, refused.stderr);
      assert.match(lines[0], /^zooscope copy: the source and the target overlap on the same ZooKeeper servers/);
      assert.equal(refused.stdout, '');
      assert.deepEqual(await tree(a, '/app'), before);
    }
    const elsewhere = await run(['copy', '--mirror', `127.0.0.1:${port}/app`, `${two.connectString}/app-copy`]);
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.ok((await tree(b, '/app-copy')).includes('/app-copy/copy/old/z'));
  });

  test('a mirror that deletes: from a pipe without --yes it stops after the plan (exit 2, one line, nothing written); with --yes it writes', async () => {
    await b.mkdirp('/piped/extra/deeper');
    const target = `${two.connectString}/piped`;
    const stopped = await run(['copy', '--mirror', `${one.connectString}/app/copy`, target]);
    assert.equal(stopped.code, 2, stopped.stderr);
    assert.match(stopped.stdout, /^delete {4}\/piped\/extra$/m, 'the plan is printed first');
    const lines = stopped.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, stopped.stderr);
    assert.match(lines[0], /^zooscope copy: the plan deletes 2 node\(s\) and stdin is not a terminal .*nothing written; add --yes/);
    assert.deepEqual(await tree(b, '/piped'), ['/piped', '/piped/extra', '/piped/extra/deeper']);

    const written = await run(['copy', '--mirror', '--yes', `${one.connectString}/app/copy`, target]);
    assert.equal(written.code, 0, written.stderr);
    assert.deepEqual(await tree(b, '/piped'), ['/piped', '/piped/old', '/piped/old/z']);
  });

  test('on a terminal a mirror that deletes asks first: "n" writes nothing (exit 6), "y" writes', async () => {
    await b.mkdirp('/asked/extra');
    const target = `${two.connectString}/asked`;
    const declined = await runOnTerminal(['copy', '--mirror', `${one.connectString}/app/copy`, target], 'n\r');
    assert.match(declined.screen, /delete 1 node\(s\) as planned above\? \[y\/N\] /, declined.screen);
    assert.equal(declined.code, 6, declined.screen);
    assert.match(declined.screen, /not confirmed: nothing written/);
    assert.deepEqual(await tree(b, '/asked'), ['/asked', '/asked/extra']);

    const confirmed = await runOnTerminal(['copy', '--mirror', `${one.connectString}/app/copy`, target], 'y\r');
    assert.equal(confirmed.code, 0, confirmed.screen);
    await eventually(async () => (await tree(b, '/asked')).join() === '/asked,/asked/old,/asked/old/z', 10000, 'the mirror written');
  });

  test('a subtree with more nodes than --max-nodes: one clear line, exit 2, nothing written (copy and diff)', async () => {
    await a.mkdirp('/many');
    for (let i = 0; i < 30; i++) await a.create(`/many/n${i}`, 'x');
    const copied = await run(['copy', '--max-nodes', '10', `${one.connectString}/many`, `${two.connectString}/many`]);
    assert.equal(copied.code, 2, copied.stdout + copied.stderr);
    const lines = copied.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, copied.stderr);
    assert.match(lines[0], /^zooscope copy: the source holds more than 10 nodes .*(reading \/many).*raise --max-nodes/);
    assert.equal(await b.exists('/many'), undefined);

    const diffed = await run(['diff', '--max-nodes', '10', `${one.connectString}/many`, `${two.connectString}/app`]);
    assert.equal(diffed.code, 2, diffed.stdout + diffed.stderr);
    assert.match(diffed.stderr, /^zooscope diff: the left side holds more than 10 nodes/);
  });

  test('a plan prints a hostile path from an export as one visible line: no forged line, no raw bidi character', async () => {
    const file = path.join(dir, 'hostile.json');
    const names = ['a\ndelete    /victim', 'invoice-\u202Egnp.exe', '$(error) spoof', '[x](command:y)'];
    const node = (p: string) => ({ path: p, data: '', encoding: 'utf8' });
    fs.writeFileSync(file, JSON.stringify({ format: 'zooscope-export', version: 1, root: '/h', exportedAt: new Date().toISOString(),
      nodes: [node('/h'), ...names.map((name) => node(`/h/${name}`))] }));
    const planned = await run(['copy', '--dry-run', `file:${file}`, `${two.connectString}/hostile`]);
    assert.equal(planned.code, 0, planned.stderr);
    const lines = planned.stdout.trimEnd().split('\n');
    for (const line of lines) assert.ok(!RAW_HIDDEN.test(line), JSON.stringify(line));
    assert.ok(!lines.some((line) => line.startsWith('delete')), planned.stdout);
    assert.ok(lines.some((line) => line.includes('/hostile/a[U+000A]delete    /victim')), planned.stdout);
    assert.ok(lines.includes('create    /hostile/invoice-[U+202E]gnp.exe  (0 bytes)'), planned.stdout);
    assert.ok(lines.includes('create    /hostile/$(error) spoof  (0 bytes)'), planned.stdout);
    assert.ok(lines.includes('create    /hostile/[x](command:y)  (0 bytes)'), planned.stdout);
  });
});
