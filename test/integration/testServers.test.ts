// The test servers themselves: a server started on a port that another ZooKeeper took first must not pass the
// other one off as itself (two suites or demos on one machine once fed one demo's data to the other's server), and a
// restart outlasts a port taken for a moment while the member was down (seen once in a secured failover test).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, listensOn } from '../support/ports';
import { sleep } from '../support/waiting';
import { spawnSync } from 'node:child_process';
import { processesUsing } from '../support/processes';
import { SecuredZkServer } from '../support/servers/securedZkServer';
import { makeTestCertificates } from '../support/servers/testCertificates';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

describe('test servers', () => {
  let first: ZkCluster;
  before(async () => { first = await startStandalone(); });
  after(() => first?.stop());

  test('listensOn tells whose listening socket a port is', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      assert.equal(listensOn(process.pid, port), true);
      assert.equal(listensOn(first.members[0].pid!, port), false);
      assert.equal(listensOn(process.pid, await freePort()), false);
      assert.equal(listensOn(first.members[0].pid!, first.members[0].clientPort), true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a restart waits out a port taken while the member was down (the JVM could not bind it and exited)', async () => {
    const member = first.members[0];
    await member.stop();
    // What a client connection given the port as its local port does to the restarting JVM.
    const squatter = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(member.clientPort, '127.0.0.1', resolve));
    const freed = sleep(1500).then(() => new Promise((resolve) => squatter.close(resolve)));
    try {
      await member.restart();
      assert.equal(member.running, true);
      assert.equal(listensOn(member.pid!, member.clientPort), true);
    } finally {
      await freed;
    }
  });

  test('a server whose port another ZooKeeper serves fails to start instead of answering with the other', async () => {
    const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-taken-'));
    try {
      await assert.rejects(startStandalone({ clientPort: first.members[0].clientPort, baseDir }), /exited|did not start/);
    } finally {
      fs.rmSync(baseDir, { recursive: true, force: true });
    }
  });

  test('a secured server whose port was taken before its JVM bound it starts again on other ports', async () => {
    const squatter = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as net.AddressInfo).port;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-port-taken-'));
    let handedOut = 0;
    let server: SecuredZkServer | undefined;
    try {
      server = await SecuredZkServer.start({
        certificates: makeTestCertificates(dir),
        tls: { keyStore: 'pkcs12', clientAuth: 'none' },
        // The first port handed out is the squatter's: the first JVM cannot bind it and exits.
        choosePort: () => (handedOut++ === 0 ? Promise.resolve(taken) : freePort()),
      });
      assert.notEqual(server.plainPort, taken);
      assert.ok(handedOut > 2, 'a second start took new ports');
      assert.ok(listensOn(process.pid, taken), 'the squatter still has its port');
    } finally {
      await server?.dispose();
      await new Promise((resolve) => squatter.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a test file whose hook failed after starting a server ends, and the server with it', () => {
    // What securedServerAccess did when one of its two servers could not start: the other one, never handed to
    // the file's after hook, kept the file's process open until the runner's timeout, and outlived it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-half-started-'));
    const fixture = path.join(dir, 'halfStarted.test.js');
    const support = path.join(__dirname, '..', 'support', 'servers', 'zkServer.js');
    fs.writeFileSync(fixture, `
const { before, describe, test } = require('node:test');
const { startStandalone } = require(${JSON.stringify(support)});
describe('half started', () => {
  before(async () => {
    await startStandalone({ baseDir: ${JSON.stringify(path.join(dir, 'zk'))} });
    throw new Error('the second server did not start');
  });
  test('never runs', () => {});
});`);
    try {
      const env = { ...process.env };
      delete env.NODE_TEST_CONTEXT;
      // As scripts/test-node.sh runs a tier.
      const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', fixture], { encoding: 'utf8', env, timeout: 120_000 });
      assert.equal(run.signal, null, 'the file ended by itself');
      assert.match(run.stdout, /^# cancelled 1$/m, run.stdout);
      assert.deepEqual(processesUsing(path.join(dir, 'zk')), [], 'no server of the file outlived it');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
