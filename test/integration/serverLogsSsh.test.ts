// zooscope log's SSH form: the members of a connect string read over SSH through a bastion (a real sshd on
// loopback), with a configured read command in front of the only two commands run there (ls and cat): the same
// transactions as reading the folder itself, a data directory whose name needs quoting, and a member that cannot be
// reached said in one line while the others are read.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSshBastion, type SshBastion } from '../support/servers/sshServer';
import { startStandalone, type ZkCluster } from '../support/servers/zkServer';
import { zooscopeLog } from '../support/clients/zooscopeLog';
import { connectOtherClient } from '../support/clients/zkClient';

describe('zooscope log over SSH: the members\' logs through a bastion', () => {
  let zk: ZkCluster;
  let bastion: SshBastion;
  let dataDir: string;
  let config: string;
  let wrapperLog: string;
  let wrapper: string;

  before(async () => {
    [zk, bastion] = await Promise.all([startStandalone({ adminServer: false, systemProperties: { 'zookeeper.snapCount': '8' } }), startSshBastion()]);
    const other = await connectOtherClient(zk.connectString);
    try {
      await other.mkdirp('/app');
      for (let i = 0; i < 12; i++) await other.setData('/app', `v${i}`);
    } finally {
      other.close();
    }
    await zk.members[0].stop();
    // A data directory whose name a shell would split and unquote.
    dataDir = path.join(bastion.dir, 'it\'s data $(touch pwned)');
    fs.cpSync(path.join(zk.members[0].dir, 'data'), dataDir, { recursive: true });
    // The member is "localhost" (ssh refuses a jump host that is the destination itself); both names reach this sshd.
    const hostKey = fs.readFileSync(bastion.hostPublicKey, 'utf8');
    const knownHosts = path.join(bastion.dir, 'log_known_hosts');
    fs.writeFileSync(knownHosts, `[127.0.0.1]:${bastion.port} ${hostKey}[localhost]:${bastion.port} ${hostKey}`);
    config = path.join(bastion.dir, 'log_ssh_config');
    fs.writeFileSync(config, ['Host localhost', `  Port ${bastion.port}`, 'Host *', `  IdentityFile ${bastion.clientKey}`, '  IdentityAgent none', `  UserKnownHostsFile ${knownHosts}`, '  BatchMode yes'].join('\n') + '\n');
    // A read command standing in for `sudo -n`: it logs what it was asked to run, then runs it.
    wrapperLog = path.join(bastion.dir, 'read-command.log');
    wrapper = path.join(bastion.dir, 'read-as-zookeeper');
    fs.writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${wrapperLog}'\nexec "$@"\n`, { mode: 0o755 });
  });

  after(async () => {
    await Promise.all([zk?.stop(), bastion?.stop()]);
  });

  const ssh = () => ['--ssh', bastion.destination, '--ssh-identity', bastion.clientKey, '--ssh-config', config];

  test('the same transactions as the folder itself; only ls and cat ran, behind the read command; nothing left behind', async () => {
    const local = await zooscopeLog([dataDir, '--json']);
    assert.equal(local.code, 0, local.errors.join('\n'));
    // This process's copies only: other test files run the SSH form beside this one.
    const copiesOfThisProcess = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`zooscope-logs-${process.pid}-`)).length;
    const before = copiesOfThisProcess();
    const remote = await zooscopeLog([`localhost:${zk.members[0].clientPort}`, '--data-dir', dataDir, '--read-command', wrapper, ...ssh(), '--json']);
    assert.equal(remote.code, 0, remote.errors.join('\n'));
    assert.deepEqual(remote.lines, local.lines);
    assert.ok(local.lines.length > 12);
    assert.match(remote.errors.join('\n'), /read the logs of 1 member over SSH/);
    const ran = fs.readFileSync(wrapperLog, 'utf8').trim().split('\n');
    assert.ok(ran.length >= 2 && ran.every((line) => /^(ls -1 -- |cat -- )/.test(line)), ran.join('\n'));
    assert.ok(ran.some((line) => line.startsWith(`cat -- ${dataDir}/version-2/log.`)), 'the quoted name reached the member whole');
    assert.ok(!fs.existsSync(path.join(os.homedir(), 'pwned')) && !fs.existsSync('pwned'), 'nothing in the name ran');
    assert.equal(copiesOfThisProcess(), before, 'the copies are removed');
  });

  test('a member that cannot be reached is one line; the others are read', async () => {
    const run = await zooscopeLog([`localhost:${zk.members[0].clientPort},nosuchhost.invalid:2181`, '--data-dir', dataDir, ...ssh(), '--history', '/app']);
    assert.equal(run.code, 1);
    const problems = run.errors.filter((line) => line.includes('nosuchhost.invalid'));
    assert.equal(problems.length, 1, run.errors.join('\n'));
    assert.match(problems[0], /could not be read over SSH/);
    assert.equal(run.lines.filter((line) => line.includes(' setData /app')).length, 12);
  });
});
