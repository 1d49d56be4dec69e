// `zooscope diff` and `zooscope copy` run as the bundled CLI against two real servers: exit codes 0/1/2 as diff's,
// --json, export files on either side, the plan printed before anything is written (--dry-run writes nothing),
// a copy that then compares equal, the read-only guard, and hostile names printed inert.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

let cli: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, ZOOSCOPE_DIGEST: undefined, ZOOSCOPE_DIGEST_PASSWORD: undefined };
    execFile(process.execPath, [cli, ...args], { timeout: 120000, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('zooscope diff and zooscope copy (CLI)', () => {
  let one: ZkCluster;
  let two: ZkCluster;
  let a: OtherClient;
  let b: OtherClient;
  let dir: string;

  before(async () => {
    [cli, one, two] = await Promise.all([sharedCliBundle(), startStandalone({ adminServer: false }), startStandalone({ adminServer: false })]);
    [a, b] = await Promise.all([connectOtherClient(one.connectString, 30000), connectOtherClient(two.connectString, 30000)]);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-diff-'));
    for (const client of [a, b]) {
      await client.mkdirp('/app/conf');
      await client.create('/app/conf/same', 'x=1');
      await client.create(`/app/conf/${HOSTILE_NAMES.rtlOverride}`, 'same');
    }
    await a.create('/app/conf/differs', 'left');
    await b.create('/app/conf/differs', 'right');
    await a.create(`/app/${HOSTILE_NAMES.isolates}`, 'only here');
    await a.create('/app/session', '', zookeeper.CreateMode.EPHEMERAL);
  });

  after(async () => {
    a?.close();
    b?.close();
    await Promise.all([one?.stop(), two?.stop()]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('exit 0 when equal, 1 when different (each difference listed, hostile names inert), 2 on trouble', async () => {
    const same = await run(['diff', `${one.connectString}/app/conf/same`, `${two.connectString}/app/conf/same`]);
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /^equal \(1 nodes \| 1 nodes\)$/m);

    const differ = await run(['diff', `${one.connectString}/app`, `${two.connectString}/app`]);
    assert.equal(differ.code, 1, differ.stderr);
    const lines = differ.stdout.trimEnd().split('\n');
    for (const line of lines) assert.ok(!RAW_HIDDEN.test(line), `no raw hidden character: ${JSON.stringify(line)}`);
    assert.ok(lines.includes('data        /conf/differs  (4 bytes | 5 bytes)'), differ.stdout);
    assert.ok(lines.includes('only left   /session'), differ.stdout);
    assert.ok(lines.some((l) => l.startsWith('only left   /a[U+2066]b[U+2067]c')), differ.stdout);
    assert.ok(lines.includes('3 difference(s) (7 nodes | 5 nodes)'), differ.stdout);

    const ignoring = await run(['diff', `${one.connectString}/app`, `${two.connectString}/app`, '--ignore-ephemeral', '--ignore-data', '/conf/*']);
    assert.equal(ignoring.code, 1);
    assert.ok(!ignoring.stdout.includes('/session') && !ignoring.stdout.includes('/conf/differs'), ignoring.stdout);

    const unreachable = await run(['diff', '127.0.0.1:1/app', `${two.connectString}/app`, '--timeout', '2']);
    assert.equal(unreachable.code, 2);
    const usage = await run(['diff', `${one.connectString}/app`]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /expected <left> <right>/);
  });

  test('--json: the differences as data, hidden characters escaped', async () => {
    const result = await run(['diff', `${one.connectString}/app`, `${two.connectString}/app`, '--json']);
    assert.equal(result.code, 1);
    for (const line of result.stdout.split('\n')) assert.ok(!RAW_HIDDEN.test(line), JSON.stringify(line));
    const doc = JSON.parse(result.stdout) as { equal: boolean; differences: { path: string; kind: string }[] };
    assert.equal(doc.equal, false);
    assert.deepEqual(doc.differences.map((d) => `${d.kind} ${d.path}`).sort(),
      [`onlyLeft /${HOSTILE_NAMES.isolates}`, 'data /conf/differs', 'onlyLeft /session'].sort());
  });

  test('copy: the plan first, --dry-run writes nothing, the copy then compares equal; an export file as either side', async () => {
    const dry = await run(['copy', `${one.connectString}/app`, `${two.connectString}/copied`, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^plan: 6 create\(s\), 0 data change\(s\), 0 ACL change\(s\), 1 skipped, 0 unchanged$/m);
    assert.match(dry.stdout, /^skip {6}\/copied\/session {2}\(ephemeral in the source: never copied\)$/m);
    for (const line of dry.stdout.split('\n')) assert.ok(!RAW_HIDDEN.test(line), JSON.stringify(line));
    assert.equal(await b.exists('/copied'), undefined);

    const readOnly = await run(['copy', `${one.connectString}/app`, `${two.connectString}/copied`, '--read-only']);
    assert.equal(readOnly.code, 2);
    assert.match(readOnly.stderr, /read-only/);
    assert.equal(await b.exists('/copied'), undefined);

    const copied = await run(['copy', `${one.connectString}/app`, `${two.connectString}/copied`]);
    assert.equal(copied.code, 0, copied.stderr);
    assert.match(copied.stdout, /^done: 6 created, 0 data changed, 0 ACL\(s\) set, 0 deleted$/m);
    const equal = await run(['diff', `${one.connectString}/app`, `${two.connectString}/copied`, '--ignore-ephemeral']);
    assert.equal(equal.code, 0, equal.stdout);

    // Mirror the other server's /app onto the copy: the extra node goes, the data changes.
    const mirrored = await run(['copy', `${two.connectString}/app`, `${two.connectString}/copied`, '--mirror', '--yes']);
    assert.equal(mirrored.code, 0, mirrored.stderr);
    assert.match(mirrored.stdout, /^delete {4}\/copied\/a/m);
    assert.equal((await run(['diff', `${two.connectString}/app`, `${two.connectString}/copied`])).code, 0);

    // Export files: written by the extension's exporter format, read on either side.
    const exported = path.join(dir, 'app.json');
    const { exportSubtree } = await import('../../src/zk/transfer');
    const { ZkSession } = await import('../../src/zk/session/session');
    const session = new ZkSession({ connectString: two.connectString });
    await session.open();
    const chunks: string[] = [];
    await exportSubtree(session, '/app', (c) => chunks.push(c));
    session.close();
    fs.writeFileSync(exported, chunks.join(''));
    assert.equal((await run(['diff', exported, `${two.connectString}/copied`])).code, 0);
    assert.equal((await run(['diff', `${one.connectString}/app`, `file:${exported}`])).code, 1);
    const fromFile = await run(['copy', exported, `${one.connectString}/fromFile`]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal((await run(['diff', `file:${exported}`, `${one.connectString}/fromFile`])).code, 0);
    const notAnExport = path.join(dir, 'other.json');
    fs.writeFileSync(notAnExport, '{"hello": 1}');
    assert.equal((await run(['diff', notAnExport, `${one.connectString}/app`])).code, 2);
  });
});
