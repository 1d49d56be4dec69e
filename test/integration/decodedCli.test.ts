// `zooscope get --decoded` and the shell's `get --decoded` on a real server holding nodes written in Kafka's and
// HBase's formats (fixtures from test/support/fixtures/decodedFixtures); plain `get` still prints the bytes as zkCli does.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { fixtures } from '../support/fixtures/decodedFixtures';
import { LEADER_LSN, memberPath, MIB, statusPath, touchMemberRecord, writeStatusValue } from '../support/fixtures/patroniLagFixtures';
import { FORGED_ROW, forgedLines, HOSTILE_BROKER, HOSTILE_BROKER_PATH } from '../support/fixtures/hostileFixture';

let cli: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 60000, env: { ...process.env, ZOOSCOPE_DIGEST: undefined } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const fixture = (name: string) => fixtures.find((f) => f.name === name)!;

describe('get --decoded (CLI and shell)', () => {
  let zk: ZkCluster;
  let writer: OtherClient;
  const broker = fixture('kafka broker v5');
  const master = fixture('hbase master');

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone()]);
    writer = await connectOtherClient(zk.connectString, 20000);
    await writer.mkdirp('/brokers/ids');
    await writer.create(broker.path, Buffer.from(broker.data));
    await writer.create(HOSTILE_BROKER_PATH, HOSTILE_BROKER);
    await writer.mkdirp('/hbase');
    await writer.create(master.path, Buffer.from(master.data));
    await writer.create('/plain', 'just text');
    await writer.mkdirp('/service/pg/members');
    await writer.create(statusPath, Buffer.from(writeStatusValue(LEADER_LSN)));
    await writer.create(memberPath('pg2'), Buffer.from(touchMemberRecord('replica', 'streaming', LEADER_LSN - 16 * MIB)));
  });

  after(async () => {
    writer?.close();
    await zk?.stop();
  });

  test('zooscope get --decoded prints the decoded data as JSON', async () => {
    const { code, stdout, stderr } = await run(['get', zk.connectString, broker.path, '--decoded']);
    assert.equal(code, 0, stderr);
    const doc = JSON.parse(stdout) as { path: string; decoded: { system: string; summary: string; fields: Record<string, unknown> } };
    assert.equal(doc.path, broker.path);
    assert.equal(doc.decoded.system, 'kafka');
    assert.equal(doc.decoded.summary, 'broker 1 · kafka1:9092 · rack r1');
    assert.equal(doc.decoded.fields.rack, 'r1');
    const hbase = JSON.parse((await run(['get', zk.connectString, master.path, '--decoded'])).stdout) as { decoded: { fields: Record<string, string> } };
    assert.equal(hbase.decoded.fields.host_name, 'hm1.example');
  });

  test('a node no system knows is decoded as null; without --decoded the data is printed', async () => {
    const decoded = await run(['get', zk.connectString, '/plain', '--decoded']);
    assert.equal(decoded.code, 0, decoded.stderr);
    assert.equal((JSON.parse(decoded.stdout) as { decoded: unknown }).decoded, null);
    const plain = await run(['get', zk.connectString, '/plain']);
    assert.equal(plain.stdout, 'just text\n');
  });

  test('the shell: get --decoded prints JSON, plain get prints the bytes as zkCli does', async () => {
    const decoded = await run(['shell', zk.connectString, 'get', '--decoded', master.path]);
    assert.equal(decoded.code, 0, decoded.stderr);
    const doc = JSON.parse(decoded.stdout) as { decoded: { system: string; election: string } };
    assert.equal(doc.decoded.system, 'hbase');
    assert.equal(doc.decoded.election, 'leader');
    const plain = await run(['shell', zk.connectString, 'get', broker.path]);
    assert.equal(plain.stdout, `${new TextDecoder().decode(broker.data)}\n`);
  });

  test('a Patroni member is decoded with the status it lags behind, by the CLI and by the shell', async () => {
    for (const args of [['get', zk.connectString, memberPath('pg2'), '--decoded'], ['shell', zk.connectString, 'get', '--decoded', memberPath('pg2')]]) {
      const { code, stdout, stderr } = await run(args);
      assert.equal(code, 0, stderr);
      const doc = JSON.parse(stdout) as { decoded: { summary: string; fields: Record<string, unknown> } };
      assert.equal(doc.decoded.summary, 'replica · streaming · lag 16 MiB', args[0]);
      assert.equal(doc.decoded.fields.lag, String(16 * MIB), args[0]);
    }
  });

  test('the hostile broker (a host with line breaks and an override): no forged row from the CLI or the shell', async () => {
    const cliRun = await run(['get', zk.connectString, HOSTILE_BROKER_PATH, '--decoded']);
    assert.equal(cliRun.code, 0, cliRun.stderr);
    assert.deepEqual(forgedLines(cliRun.stdout), []);
    // The CLI's JSON keeps the values: the escapes read back as the bytes' text.
    const doc = JSON.parse(cliRun.stdout) as { decoded: { summary: string; fields: Record<string, unknown> } };
    const host = (JSON.parse(HOSTILE_BROKER.toString('utf8')) as { host: string }).host;
    assert.equal(doc.decoded.fields.host, host);
    assert.ok(doc.decoded.summary.includes(`\n${FORGED_ROW}`));
    const shellRun = await run(['shell', zk.connectString, 'get', '--decoded', HOSTILE_BROKER_PATH]);
    assert.equal(shellRun.code, 0, shellRun.stderr);
    assert.deepEqual(forgedLines(shellRun.stdout), []);
    assert.ok(shellRun.stdout.includes(`kafka7\\n${FORGED_ROW}\\n[U+202E]2909:evil`), shellRun.stdout);
  });

  test('a missing node is an error, not an empty document', async () => {
    const { code, stderr } = await run(['get', zk.connectString, '/nope', '--decoded']);
    assert.equal(code, 1);
    assert.match(stderr, /zooscope get:/);
  });
});
