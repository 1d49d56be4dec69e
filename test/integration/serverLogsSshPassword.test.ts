// The members' logs read over SSH through a bastion that takes a password (a real sshd checking a system account's
// password): the bastion's hop is ZooScope's own dialer, the member's ssh reaches it through a one-use bridge socket.
// The password reaches the bastion's prompt only: a member whose sshd would accept the very same password for the
// member's user is never sent it (its ssh is key-only). A wrong password is the dialer's one line, and no bridge is left.
// A key's passphrase for the bastion works the same way; a cancelled fetch ends the member's ssh, the bridge and the hop.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fetchRemoteLogs } from '../../src/zk/serverLogs/remoteLogs';
import type { SshTunnelSettings } from '../../src/zk/tunnel/sshSettings';
import { connectOtherClient } from '../support/clients/zkClient';
import { zooscopeLog } from '../support/clients/zooscopeLog';
import { PASSWORD_USER, resetPasswordUser } from '../support/servers/sshPasswordUser';
import { processesUsing } from '../support/processes';
import { KEY_PASSPHRASE, startSshBastion, type SshBastion } from '../support/servers/sshServer';
import { eventually } from '../support/waiting';
import { startStandalone, type ZkCluster } from '../support/servers/zkServer';

/** This process's bridge folders (proxyBridge.ts names them by pid). */
const bridges = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(`zooscope-bridge-${process.pid}-`));
const PASSWORD_TRIED = /(Accepted|Failed) password for /;

describe('the members\' logs over SSH through a bastion that takes a password', () => {
  let password: string;
  let zk: ZkCluster;
  /** Takes the password (as root, for PASSWORD_USER); no key of the test's. */
  let bastion: SshBastion;
  /** The member reached with a key: the one whose logs are read. */
  let member: SshBastion;
  /** A member whose sshd would accept PASSWORD_USER with the bastion's password: it must never be offered it. */
  let passwordMember: SshBastion;
  let dataDir: string;
  let settings: SshTunnelSettings;
  let scratch: string;

  before(async () => {
    password = resetPasswordUser();
    [zk, bastion, member, passwordMember] = await Promise.all([
      startStandalone({ adminServer: false }), startSshBastion({ passwordUser: PASSWORD_USER }), startSshBastion(), startSshBastion({ passwordUser: PASSWORD_USER }),
    ]);
    const other = await connectOtherClient(zk.connectString);
    try {
      await other.mkdirp('/app');
      for (let i = 0; i < 12; i++) await other.setData('/app', `v${i}`);
    } finally {
      other.close();
    }
    await zk.members[0].stop();
    dataDir = path.join(zk.members[0].dir, 'data');
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-test-pwlogs-'));
    const knownHosts = path.join(scratch, 'known_hosts');
    const key = (server: SshBastion) => fs.readFileSync(server.hostPublicKey, 'utf8');
    fs.writeFileSync(knownHosts, `[127.0.0.1]:${bastion.port} ${key(bastion)}[127.0.0.1]:${member.port} ${key(member)}[localhost]:${member.port} ${key(member)}[localhost]:${passwordMember.port} ${key(passwordMember)}`);
    // The bastion's user comes from here (the destination names none), so each member has its own: `localhost` is
    // the key member as this user; `pwmember` is the password member as PASSWORD_USER, whose password is the bastion's.
    const config = path.join(scratch, 'ssh_config');
    fs.writeFileSync(config, [
      'Host 127.0.0.1', `  User ${PASSWORD_USER}`,
      'Host localhost', `  Port ${member.port}`, `  IdentityFile ${member.clientKey}`,
      'Host pwmember', '  Hostname localhost', `  Port ${passwordMember.port}`, `  User ${PASSWORD_USER}`, `  IdentityFile ${member.clientKey}`,
      'Host *', '  IdentityAgent none', '  IdentitiesOnly yes', `  UserKnownHostsFile ${knownHosts}`,
    ].join('\n') + '\n');
    settings = { destination: `127.0.0.1:${bastion.port}`, configFile: config, knownHostsFiles: [knownHosts], agentSocket: 'none' };
  });

  after(async () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    await Promise.all([zk?.stop(), bastion?.stop(), member?.stop(), passwordMember?.stop()]);
  });

  test('the password opens the bastion\'s hop: the member\'s files are copied whole; no bridge is left', async () => {
    const into = path.join(scratch, 'copies');
    const fetched = await fetchRemoteLogs(['localhost'], { ssh: { ...settings, secret: password, secretKind: 'password' }, dataDir, into });
    assert.deepEqual(fetched.problems, []);
    assert.equal(fetched.sources.length, 1);
    const local = fs.readdirSync(path.join(dataDir, 'version-2')).sort();
    assert.deepEqual(fs.readdirSync(path.join(into, '1')).sort(), local);
    for (const name of local) assert.ok(fs.readFileSync(path.join(into, '1', name)).equals(fs.readFileSync(path.join(dataDir, 'version-2', name))), name);
    assert.match(bastion.log, new RegExp(`Accepted password for ${PASSWORD_USER} `));
    assert.deepEqual(bridges(), [], 'each bridge\'s folder and socket removed after use');
  });

  test('the CLI takes the bastion\'s password from ZOOSCOPE_SSH_SECRET for the SSH form', async () => {
    const run = await zooscopeLog(['localhost:2181', '--data-dir', dataDir, '--ssh', settings.destination, '--ssh-config', settings.configFile!, '--history', '/app'], { ZOOSCOPE_SSH_SECRET: password });
    assert.equal(run.code, 0, run.errors.join('\n'));
    assert.equal(run.lines.filter((line) => line.includes(' setData /app')).length, 12, run.lines.join('\n'));
  });

  test('a member that would take the same password for its user is never sent it: one line, no password tried there', async () => {
    const mark = passwordMember.logMark;
    const bastionMark = bastion.logMark;
    const fetched = await fetchRemoteLogs(['pwmember'], { ssh: { ...settings, secret: password, secretKind: 'password' }, dataDir, into: path.join(scratch, 'leak') });
    assert.equal(fetched.sources.length, 0, 'read: the member let its ssh in');
    assert.equal(fetched.problems.length, 1);
    assert.doesNotMatch(fetched.problems[0].reason, /\n/);
    assert.match(fetched.problems[0].reason, /Permission denied \(publickey,password\)/);
    assert.match(bastion.logSince(bastionMark), new RegExp(`Accepted password for ${PASSWORD_USER} `), 'the bastion\'s hop was made');
    const memberLog = passwordMember.logSince(mark);
    assert.match(memberLog, /Connection from /, 'the member\'s ssh reached it');
    assert.doesNotMatch(memberLog, PASSWORD_TRIED, memberLog);
  });

  test('a wrong password is the bastion\'s one line, tried once for all members; no bridge is left', async () => {
    const mark = bastion.logMark;
    const fetched = await fetchRemoteLogs(['localhost', 'pwmember'], { ssh: { ...settings, secret: 'not the password', secretKind: 'password' }, dataDir, into: path.join(scratch, 'wrong') });
    assert.equal(fetched.sources.length, 0);
    assert.equal(fetched.problems.length, 2);
    for (const problem of fetched.problems) {
      assert.match(problem.reason, /^SSH bastion .*127\.0\.0\.1.* refused authentication/, problem.reason);
      assert.doesNotMatch(problem.reason, /\n|kex_exchange/);
    }
    assert.equal(bastion.logSince(mark).split('\n').filter((line) => /Failed password for /.test(line)).length, 1, bastion.logSince(mark));
    assert.deepEqual(bridges(), []);
  });

  test('a bastion key\'s passphrase opens the hop the same way (the member takes its own key)', async () => {
    // The key member is its own bastion here: reached as 127.0.0.1 with the protected key, then as localhost.
    const viaKey: SshTunnelSettings = { ...settings, destination: `${os.userInfo().username}@127.0.0.1:${member.port}`, identityFile: member.protectedKey, secret: KEY_PASSPHRASE, secretKind: 'passphrase' };
    const mark = member.logMark;
    const fetched = await fetchRemoteLogs(['localhost'], { ssh: viaKey, dataDir, into: path.join(scratch, 'passphrase') });
    assert.deepEqual(fetched.problems, []);
    assert.equal(fetched.sources.length, 1);
    assert.match(member.logSince(mark), /Accepted publickey for \S+ from 127\.0\.0\.1/);
    assert.deepEqual(bridges(), []);
  });

  test('cancelled while copying: the member\'s ssh, the bridge and the bastion\'s hop end; nothing is left', async () => {
    const wrapperLog = path.join(scratch, 'read-command.log');
    const hold = path.join(scratch, 'hold');
    const wrapper = path.join(scratch, 'read-as-zookeeper');
    fs.writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${wrapperLog}'\nif [ "$1" = cat ]; then while [ -e '${hold}' ]; do sleep 0.1; done; fi\nexec "$@"\n`, { mode: 0o755 });
    fs.writeFileSync(hold, '');
    const stop = new AbortController();
    const bridgeMarker = `zooscope-bridge-${process.pid}-`;
    const hopMarker = `localhost:${member.port}`;
    try {
      const fetching = fetchRemoteLogs(['localhost'], { ssh: { ...settings, secret: password, secretKind: 'password' }, dataDir, readCommand: [wrapper], into: path.join(scratch, 'cancelled'), signal: stop.signal });
      const rejected = assert.rejects(fetching, (error: Error) => error.name === 'AbortError' || stop.signal.reason === error);
      await eventually(() => fs.existsSync(wrapperLog) && /^cat -- /m.test(fs.readFileSync(wrapperLog, 'utf8')), 60000, 'a file is being copied');
      // The member's ssh and its bridge name the bridge's folder; the bastion's hop forwards to the member's sshd.
      assert.ok(processesUsing(bridgeMarker).length >= 2, 'the member\'s ssh and its bridge');
      assert.ok(processesUsing(hopMarker).length >= 1, 'the bastion\'s hop');
      stop.abort();
      await rejected;
    } finally {
      fs.rmSync(hold, { force: true });
    }
    await eventually(() => processesUsing(bridgeMarker).length === 0 && processesUsing(hopMarker).length === 0, 30000, 'every process of the fetch ended');
    assert.deepEqual(bridges(), []);
    assert.ok(!fs.existsSync(path.join(scratch, 'cancelled', '1')), 'no copy left');
  });
});
