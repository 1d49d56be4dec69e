// Reaching ZooKeeper through an SSH bastion: a real sshd on loopback (test/support/servers/sshServer.ts) in front of real
// ZooKeeper servers. Key and agent authentication, a wrong key, an unknown and a changed host key, a tunnel killed
// under a held lock, and failover in an ensemble behind the bastion. Every connection of the session, its probes,
// four-letter words and AdminServer commands go through the bastion's tunnels.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LockManager } from '../../src/zk/locks';
import { probeServer } from '../../src/zk/probes/serverProbe';
import { askAdmin, askWord } from '../../src/zk/servers/serverCommands';
import { ZkSession } from '../../src/zk/session/session';
import type { Dialer } from '../../src/zk/tunnel/dialer';
import { SshDialer } from '../../src/zk/tunnel/dialer';
import { fetchHostKey, trustHostKey } from '../../src/zk/tunnel/hostKeys';
import type { SshTunnelSettings } from '../../src/zk/tunnel/sshSettings';
import { ownerOf, trail } from '../support/clients/lockHelpers';
import { openFailure } from '../support/clients/openFailure';
import { freePort } from '../support/ports';
import { alive } from '../support/processes';
import { fingerprintOf, KEY_PASSPHRASE, SshBastion, startAgent, startSshBastion } from '../support/servers/sshServer';
import { eventually, within } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startEnsemble, startStandalone, ZkCluster } from '../support/servers/zkServer';

/** A dialer through `settings` that records every host:port it was asked for. */
function countingDialer(settings: SshTunnelSettings): { dialer: Dialer; dialed: string[] } {
  const inner = new SshDialer(settings);
  const dialed: string[] = [];
  return { dialed, dialer: { via: inner.via, dial: (host, port) => { dialed.push(`${host}:${port}`); return inner.dial(host, port); } } };
}

describe('a standalone ZooKeeper behind an SSH bastion', () => {
  let bastion: SshBastion;
  let zk: ZkCluster;
  const closers: (() => void)[] = [];

  before(async () => {
    [bastion, zk] = await Promise.all([startSshBastion(), startStandalone({ adminServer: true })]);
  });
  after(async () => {
    for (const close of closers) close();
    await Promise.all([bastion?.stop(), zk?.stop()]);
  });

  const open = async (settings: SshTunnelSettings): Promise<ZkSession> => {
    const session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 8000, ssh: settings });
    closers.push(() => session.close());
    await session.open();
    return session;
  };

  test('key authentication: the session connects through a tunnel and reads and writes', async () => {
    const session = await open(bastion.settings());
    const dialer = session.dialer as SshDialer;
    const tunnel = dialer.openTunnels.find((t) => t.connected);
    assert.ok(tunnel, 'a connected tunnel');
    assert.equal(`${tunnel.remoteAddress}:${tunnel.remotePort}`, zk.connectString);
    assert.equal(session.serverAddress, zk.connectString);
    await session.libraryCall('create', '/through-ssh', (cb) => session.client.create('/through-ssh', Buffer.from('hi'), cb));
    assert.equal((await session.getData('/through-ssh')).data.toString(), 'hi');
    session.close();
    await eventually(() => !alive(tunnel.pid!), 15000, 'the tunnel\'s ssh gone after close');
  });

  test('the probes, four-letter words and AdminServer commands go through the bastion', async () => {
    const { dialer, dialed } = countingDialer(bastion.settings());
    const [member] = zk.members;
    const probe = await probeServer('127.0.0.1', member.clientPort, 8000, undefined, dialer);
    assert.equal(probe.outcome, 'zookeeper', JSON.stringify(probe));
    assert.match(await askWord('127.0.0.1', member.clientPort, 'srvr', { dialer, timeoutMs: 8000 }), /Zookeeper version/);
    const ruok = await askAdmin('127.0.0.1', member.adminPort!, 'ruok', { dialer, timeoutMs: 8000 });
    assert.equal(ruok.command, 'ruok');
    assert.deepEqual(dialed, [member.address, member.address, `127.0.0.1:${member.adminPort}`]);
  });

  test('a member the bastion cannot reach is refused, said as the bastion\'s answer', async () => {
    const { dialer } = countingDialer(bastion.settings());
    // The test's own sshd port is open; port 1 on loopback is not.
    const probe = await probeServer('127.0.0.1', 1, 8000, undefined, dialer);
    assert.equal(probe.outcome, 'refused', JSON.stringify(probe));
    assert.match(probe.detail ?? '', /^SSH bastion .* cannot reach 127\.0\.0\.1:1: .*refused/i);
  });

  test('agent authentication: the key lives only in an ssh-agent', async () => {
    const agent = await startAgent(bastion.dir, [bastion.clientKey]);
    try {
      const session = await open(bastion.settings({ identityFile: undefined, agentSocket: agent.socket }));
      assert.equal(session.state, 'connected');
      session.close();
    } finally {
      await agent.stop();
    }
  });

  test('a key with a passphrase: the passphrase reaches ssh through SSH_ASKPASS, never argv', async () => {
    const session = new ZkSession({
      connectString: zk.connectString, sessionTimeoutMs: 15000, ssh: bastion.settings({ identityFile: bastion.protectedKey, secret: KEY_PASSPHRASE }),
    });
    closers.push(() => session.close());
    const opened = session.open();
    await eventually(() => (session.dialer as SshDialer).openTunnels.length > 0, 15000, 'a tunnel');
    const tunnel = (session.dialer as SshDialer).openTunnels[0];
    const argv = fs.readFileSync(`/proc/${tunnel.pid}/cmdline`, 'utf8');
    assert.ok(!argv.includes(KEY_PASSPHRASE), 'the passphrase is not in ssh\'s argv');
    await opened;
    assert.equal(session.state, 'connected');
    session.close();
  });

  test('a chain: through a jump host to the bastion (here the same sshd twice), as ssh -J does', async () => {
    // The jump's own ssh reads only the config file, not the options ZooScope gives the outer one.
    const config = path.join(bastion.dir, 'jump_config');
    const knownHosts = path.join(bastion.dir, 'jump_known_hosts');
    // The jump by another name: ssh refuses a jump host that is the destination itself.
    fs.writeFileSync(knownHosts, `[localhost]:${bastion.port} ${fs.readFileSync(bastion.hostPublicKey, 'utf8')}`);
    fs.writeFileSync(config, ['Host *', `  IdentityFile ${bastion.clientKey}`, '  IdentityAgent none', `  UserKnownHostsFile ${knownHosts}`, '  BatchMode yes'].join('\n') + '\n');
    const session = await open(bastion.settings({ jumps: [bastion.destination.replace('127.0.0.1', 'localhost')], configFile: config }));
    const tunnel = (session.dialer as SshDialer).openTunnels.find((t) => t.connected)!;
    // The outer ssh runs the jump's ssh (ProxyJump) as its child.
    const children = fs.readFileSync(`/proc/${tunnel.pid}/task/${tunnel.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    assert.ok(children.some((pid) => /ssh.*-W/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '))), 'a jump ssh under the tunnel');
    assert.equal(session.state, 'connected');
    session.close();
  });

  test('a shared connection of the user\'s (ControlMaster) running to the bastion: tunnels still make their own', async () => {
    const config = path.join(bastion.dir, 'master_config');
    fs.writeFileSync(config, ['Host *', `  IdentityFile ${bastion.clientKey}`, '  IdentityAgent none', `  UserKnownHostsFile ${bastion.knownHosts}`,
      '  BatchMode yes', `  ControlPath ${path.join(bastion.dir, 'cm-%C')}`, '  ControlMaster auto'].join('\n') + '\n');
    const target = ['-F', config, '-p', String(bastion.port), '-l', os.userInfo().username, '127.0.0.1'];
    // -f: ssh goes to the background once the master is up; `-O exit` ends it.
    execFileSync('ssh', ['-f', '-N', '-M', ...target]);
    try {
      const session = await open(bastion.settings({ configFile: config }));
      assert.equal(session.state, 'connected');
      session.close();
    } finally {
      execFileSync('ssh', ['-O', 'exit', ...target], { stdio: 'ignore' });
    }
  });

  test('a key the bastion does not accept fails at once with one line naming the bastion', async () => {
    const session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, ssh: bastion.settings({ identityFile: bastion.strangerKey }) });
    const failure = await openFailure(session);
    assert.equal(failure.reason, 'security');
    assert.match(failure.message, /SSH bastion \S+ refused authentication \(it accepts: publickey\)/);
    assert.ok(!session.lastSecurityProblem?.includes('\n'), 'one line');
  });

  test('a bastion that cannot be reached: open() fails with a line saying the bastion, not ZooKeeper, is the problem', async () => {
    const closedPort = await freePort();
    const failure = await openFailure(new ZkSession({
      connectString: zk.connectString, sessionTimeoutMs: 15000, ssh: bastion.settings({ destination: `127.0.0.1:${closedPort}` }),
    }));
    assert.equal(failure.reason, 'unreachable');
    assert.match(failure.message, new RegExp(`SSH bastion 127\\.0\\.0\\.1:${closedPort}: cannot connect to 127\\.0\\.0\\.1 port ${closedPort}: Connection refused`));
  });

  test('an unknown host key is refused until the user accepts its fingerprint', async () => {
    const accepted = path.join(bastion.dir, 'zooscope_known_hosts');
    const empty = path.join(bastion.dir, 'empty_known_hosts');
    fs.writeFileSync(empty, '');
    const settings = bastion.settings({ knownHostsFiles: [empty], acceptedHostKeysFile: accepted });
    const refused = await openFailure(new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, ssh: settings }));
    assert.equal(refused.reason, 'security');
    assert.match(refused.message, /SSH bastion \S+: the ED25519 host key of \S+ is not known/);
    const presented = await fetchHostKey(settings);
    assert.equal(presented.fingerprint, fingerprintOf(bastion.hostPublicKey));
    // Accepting another fingerprint trusts nothing.
    await assert.rejects(trustHostKey(settings, accepted, 'SHA256:not-the-one'), /nothing was trusted/);
    assert.equal(fs.existsSync(accepted) ? fs.readFileSync(accepted, 'utf8') : '', '');
    await trustHostKey(settings, accepted, presented.fingerprint);
    const session = await open(settings);
    assert.equal(session.state, 'connected');
    session.close();
  });

  test('the tunnel killed under a held lock: the lock turns unsure, then is held again through a new tunnel', async () => {
    const other: OtherClient = await connectOtherClient(zk.connectString, 15000);
    const m = new LockManager({ connectString: zk.connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 8000, ssh: bastion.settings() });
    closers.push(() => m.close(), () => other.close());
    const h = await m.acquire('/ssh/lock');
    await h.whenHeld();
    const node = h.snapshot.node!;
    const session = m.lockSession!;
    const id = session.sessionId;
    const states = trail(h);
    const dialer = session.dialer as SshDialer;
    const tunnel = dialer.openTunnels.find((t) => t.connected)!;
    process.kill(tunnel.pid!, 'SIGKILL');
    await eventually(() => h.state === 'held' && session.state === 'connected' && dialer.openTunnels.some((t) => t !== tunnel && t.connected), 30000, 'held again through a new tunnel');
    assert.deepEqual(states, ['held', 'suspended', 'held']);
    assert.equal(session.sessionId, id);
    assert.match(session.lastDrop ?? '', /^the SSH tunnel to 127\.0\.0\.1:\d+ through \S+ closed: /);
    assert.equal(h.snapshot.node, node);
    assert.equal(await ownerOf(other, node), id);
    await h.release();
  });

  test('the bastion drops its connections: the session suspends, says the bastion closed the tunnel, and reconnects', async () => {
    const session = await open(bastion.settings());
    const id = session.sessionId;
    const dropped = new Promise<string>((resolve) => session.once('dropped', resolve));
    const reconnected = new Promise<void>((resolve) => session.once('reconnected', resolve));
    assert.ok(bastion.dropConnections() >= 1, 'the bastion had a connection');
    const line = await within(dropped, 30000, 'the drop to be reported');
    assert.match(line, /^the SSH tunnel to 127\.0\.0\.1:\d+ through \S+ closed: the bastion ended the connection \(/);
    await within(reconnected, 30000, 'the session to reconnect through a new tunnel');
    assert.equal(session.sessionId, id);
    assert.equal(session.state, 'connected');
    session.close();
  });

  // Last: it replaces the bastion's host key.
  test('a changed host key is refused, naming the fingerprint it now presents', async () => {
    await bastion.changeHostKey();
    const failure = await openFailure(new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, ssh: bastion.settings() }));
    assert.equal(failure.reason, 'security');
    assert.ok(failure.message.includes(`its host key has changed (it now presents ${fingerprintOf(bastion.hostPublicKey)}); refused`), failure.message);
  });
});

describe('a 3-server ensemble behind one SSH bastion', () => {
  let bastion: SshBastion;
  let zk: ZkCluster;
  const closers: (() => void)[] = [];

  before(async () => {
    [bastion, zk] = await Promise.all([startSshBastion(), startEnsemble(3)]);
  });
  after(async () => {
    for (const close of closers) close();
    await Promise.all([bastion?.stop(), zk?.stop()]);
  });

  test('the member the session is on is killed: it fails over to another member through a new tunnel, same session', async () => {
    const session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 20000, requestTimeoutMs: 8000, ssh: bastion.settings() });
    closers.push(() => session.close());
    await session.open();
    const id = session.sessionId;
    const attached = session.serverAddress!;
    await zk.member(Number(attached.split(':').pop())).kill();
    await eventually(() => session.state === 'connected' && session.serverAddress !== undefined && session.serverAddress !== attached, 30000, 'connected to another member');
    assert.equal(session.sessionId, id);
    const tunnel = (session.dialer as SshDialer).openTunnels.find((t) => t.connected);
    assert.equal(tunnel && `${tunnel.remoteAddress}:${tunnel.remotePort}`, session.serverAddress);
    await session.sync('/');
  });
});
