// Password authentication to an SSH bastion, end to end: a real sshd on loopback that checks passwords against a
// system account of the test's own (test/support/servers/sshPasswordUser.ts, a new random password each run), in front of a
// real ZooKeeper. The password opens the tunnel, a wrong one fails once with one line, and the password goes to
// that sshd only: not into ssh's argv or environment, the session's lines, a file, a jump host or another bastion.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SSH_SECRET_ENV } from '../../src/cli/connectionOptions';
import { ZkSession } from '../../src/zk/session/session';
import { SshDialer } from '../../src/zk/tunnel/dialer';
import type { SshTunnelSettings } from '../../src/zk/tunnel/sshSettings';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { openFailure } from '../support/clients/openFailure';
import { alive } from '../support/processes';
import { PASSWORD_USER, resetPasswordUser } from '../support/servers/sshPasswordUser';
import { SshBastion, startSshBastion } from '../support/servers/sshServer';
import { eventually } from '../support/waiting';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const count = (text: string, pattern: RegExp) => text.split('\n').filter((line) => pattern.test(line)).length;
const ACCEPTED = new RegExp(`Accepted password for ${PASSWORD_USER} `);
const FAILED = new RegExp(`Failed password for ${PASSWORD_USER} `);

/** sshd's log lines since `from` about the connections opened since then (by client port), once each has ended. */
async function connectionsSince(bastion: SshBastion, mark: number): Promise<string> {
  const ports = () => [...bastion.logSince(mark).matchAll(/^Connection from \S+ port (\d+) /gm)].map((m) => m[1]);
  // Every way sshd says a connection ended: closed, reset, or a fatal error naming it (a client killed while
  // authenticating: `ssh_dispatch_run_fatal: Connection from … port N: Broken pipe [preauth]`).
  const ended = (port: string) => new RegExp(`^((Connection (closed|reset) by|Disconnected from|Disconnecting|Received disconnect from|Read error from remote host|Timeout before authentication for) .*port ${port}\\b|\\S+: Connection from \\S+ port ${port}: )`, 'm').test(bastion.logSince(mark));
  // The bound only says how long a failure takes; the log is in the message so a failure shows what was missing.
  await eventually(() => ports().length > 0 && ports().every(ended), 60000, `sshd on ${bastion.port} logs its connections' ends`)
    .catch((error: Error) => { throw new Error(`${error.message}; sshd said:\n${bastion.logSince(mark)}`); });
  const mine = ports();
  return bastion.logSince(mark).split('\n').filter((line) => mine.some((port) => new RegExp(`port ${port}\\b`).test(line))).join('\n');
}

/** Files under `dir` changed since `since` (ms) whose bytes contain `secret`; folders not ours to read are passed. */
function filesHolding(dir: string, secret: string, since: number, depth = 4): string[] {
  const found: string[] = [];
  let entries: fs.Dirent[] = [];
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return found; }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    try {
      if (entry.isDirectory() && depth > 0) found.push(...filesHolding(file, secret, since, depth - 1));
      else if (entry.isFile()) {
        const stat = fs.statSync(file);
        if (stat.mtimeMs >= since && stat.size < 8 << 20 && fs.readFileSync(file).includes(secret)) found.push(file);
      }
    } catch { /* gone meanwhile */ }
  }
  return found;
}

describe('a ZooKeeper behind an SSH bastion that takes a password', () => {
  let password: string;
  let bastion: SshBastion;
  let other: SshBastion;
  let zk: ZkCluster;
  let config: string;
  const sessions: ZkSession[] = [];
  const startedAt = Date.now();

  before(async () => {
    password = resetPasswordUser();
    [bastion, other, zk] = await Promise.all([startSshBastion({ passwordUser: PASSWORD_USER }), startSshBastion({ passwordUser: PASSWORD_USER }), startStandalone()]);
    // No key is offered anywhere (not the machine's own ~/.ssh/id_*): the password is the only way in. The jump's
    // own ssh reads only this file; it knows both host keys, and `localhost` names the jump.
    config = path.join(bastion.dir, 'password_config');
    const knownHosts = path.join(bastion.dir, 'both_known_hosts');
    fs.writeFileSync(knownHosts, [
      `[127.0.0.1]:${bastion.port} ${fs.readFileSync(bastion.hostPublicKey, 'utf8')}`,
      `[127.0.0.1]:${other.port} ${fs.readFileSync(other.hostPublicKey, 'utf8')}`,
      `[localhost]:${other.port} ${fs.readFileSync(other.hostPublicKey, 'utf8')}`,
    ].join(''));
    fs.writeFileSync(config, ['Host *', '  PubkeyAuthentication no', '  IdentityAgent none', `  UserKnownHostsFile ${knownHosts}`, '  StrictHostKeyChecking yes'].join('\n') + '\n');
  });
  after(async () => {
    for (const session of sessions) session.close();
    await Promise.all([bastion?.stop(), other?.stop(), zk?.stop()]);
  });

  const sessionThrough = (settings: Partial<SshTunnelSettings>, through = bastion): ZkSession => {
    const session = new ZkSession({
      connectString: zk.connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 8000,
      ssh: through.settings({ identityFile: undefined, configFile: config, knownHostsFiles: undefined, ...settings }),
    });
    sessions.push(session);
    return session;
  };

  test('the right password: the session connects through the tunnel, and creates and reads a node', async () => {
    const session = sessionThrough({ secret: password });
    await session.open();
    await session.libraryCall('create', '/through-password', (cb) => session.client.create('/through-password', Buffer.from('hi'), cb));
    assert.equal((await session.getData('/through-password')).data.toString(), 'hi');
    assert.match(bastion.log, ACCEPTED);
    session.close();
  });

  test('the password is only where sshd reads it: not in ssh\'s argv or environment, the session\'s lines, or a file in tmp', async () => {
    const lines: string[] = [];
    const session = sessionThrough({ secret: password });
    session.on('state', (state) => lines.push(`state ${state}`));
    session.on('securityProblem', (line) => lines.push(line));
    session.on('dropped', (line) => lines.push(line));
    // As in the CLI, which takes the secret from this variable: ssh must not inherit it.
    process.env[SSH_SECRET_ENV] = password;
    try {
      await session.open();
    } finally {
      delete process.env[SSH_SECRET_ENV];
    }
    const tunnel = (session.dialer as SshDialer).openTunnels.find((t) => t.connected);
    assert.ok(tunnel?.pid, 'a connected tunnel');
    const argv = fs.readFileSync(`/proc/${tunnel.pid}/cmdline`);
    const environment = fs.readFileSync(`/proc/${tunnel.pid}/environ`);
    assert.ok(environment.includes('SSH_ASKPASS='), 'the environment read is ssh\'s, which asks through askpass');
    assert.ok(!argv.includes(password), 'not in ssh\'s argv');
    assert.ok(!environment.includes(password), 'not in ssh\'s environment');
    session.close();
    await eventually(() => !alive(tunnel.pid!), 15000, 'the tunnel\'s ssh gone after close');
    lines.push(session.lastSecurityProblem ?? '', session.serverAddress ?? '');
    assert.ok(lines.some((line) => line.startsWith('state')), 'the session\'s lines were heard');
    assert.ok(!lines.some((line) => line.includes(password)), 'not in the session\'s lines');
    assert.deepEqual(filesHolding(os.tmpdir(), password, startedAt), [], 'no file in tmp holds it');
  });

  test('the CLI: the password from ZOOSCOPE_SSH_SECRET opens the tunnel; its output never holds it', async () => {
    const cli = await sharedCliBundle();
    const from = bastion.logMark;
    const env: NodeJS.ProcessEnv = { ...process.env, [SSH_SECRET_ENV]: password };
    const run = (args: string[]) => new Promise<{ code: number; out: string }>((resolve) => {
      execFile(process.execPath, [cli, 'shell', zk.connectString, '--ssh', bastion.destination, '--ssh-config', config, ...args], { env, timeout: 60000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }));
    });
    const created = await run(['create', '/cli-password', 'hello']);
    assert.equal(created.code, 0, created.out);
    const read = await run(['get', '/cli-password']);
    assert.equal(read.out, 'hello\n');
    assert.match(bastion.logSince(from), ACCEPTED);
    env[SSH_SECRET_ENV] = `${password}-wrong`;
    const refused = await run(['get', '/cli-password']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.out, /SSH bastion \S+ refused authentication/);
    for (const out of [created.out, read.out, refused.out]) assert.ok(!out.includes(password), 'not in the CLI\'s output');
  });

  test('a wrong password fails with one line naming the bastion; the bastion sees it once, and the session gives up', async () => {
    const from = bastion.logMark;
    const session = sessionThrough({ secret: `${password}-wrong` });
    const dialer = session.dialer as SshDialer;
    let dials = 0;
    const dial = dialer.dial.bind(dialer);
    dialer.dial = (host, port) => { dials++; return dial(host, port); };
    const failure = await openFailure(session);
    assert.equal(failure.reason, 'security');
    assert.match(failure.message, new RegExp(`SSH bastion ${PASSWORD_USER}@127\\.0\\.0\\.1:${bastion.port} refused authentication \\(it accepts: publickey,password\\)`));
    assert.ok(!session.lastSecurityProblem?.includes('\n'), 'one line');
    // The session gave up: closed, no tunnel left that could try again.
    assert.equal(session.state, 'closed');
    await eventually(() => dialer.openTunnels.length === 0, 15000, 'no tunnel left');
    const since = await connectionsSince(bastion, from);
    // However many tunnels the session dialed (its connection, a probe, the library's reconnect), one reached sshd
    // and tried the password once: a bastion that locks an account after N failures counts one.
    assert.ok(dials >= 1);
    assert.equal(count(since, /^Connection from /), 1, since);
    assert.equal(count(since, FAILED), 1, since);
    assert.doesNotMatch(since, ACCEPTED);
  });

  test('tunnels dialed together with a wrong password: one tries it, the others and any later one end with its refusal unsent', async () => {
    const from = bastion.logMark;
    const dialer = new SshDialer(bastion.settings({ identityFile: undefined, configFile: config, knownHostsFiles: undefined, secret: `${password}-wrong` }));
    const ending = (socket: ReturnType<SshDialer['dial']>) => new Promise<string>((resolve) => {
      socket.on('connect', () => resolve('connected'));
      socket.on('error', (error: Error) => resolve(error.message));
    });
    const [host, port] = zk.connectString.split(',')[0].split(':');
    const together = [1, 2, 3].map(() => dialer.dial(host, Number(port)));
    const lines = await Promise.all(together.map(ending));
    const refused = new RegExp(`^SSH bastion \\S+ refused authentication \\(it accepts: publickey,password\\)$`);
    for (const line of lines) assert.match(line, refused);
    assert.equal(together.filter((socket) => socket.pid !== undefined).length, 1, 'one ssh was started');
    assert.match(await ending(dialer.dial(host, Number(port))), refused);
    const since = await connectionsSince(bastion, from);
    assert.equal(count(since, /^Connection from /), 1, since);
    assert.equal(count(since, FAILED), 1, since);
  });

  test('tunnels dialed together with the right password: the first tries it alone, then the others start and all connect', async () => {
    const from = bastion.logMark;
    const dialer = new SshDialer(bastion.settings({ identityFile: undefined, configFile: config, knownHostsFiles: undefined, secret: password }));
    const [host, port] = zk.connectString.split(',')[0].split(':');
    const together = [1, 2, 3].map(() => dialer.dial(host, Number(port)));
    await Promise.all(together.map((socket) => new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    })));
    for (const socket of together) socket.destroy();
    const since = await connectionsSince(bastion, from);
    assert.equal(count(since, ACCEPTED), 3, since);
    assert.doesNotMatch(since, FAILED);
    // sshd heard the second connection only after it had accepted the first one's password.
    const lines = since.split('\n');
    const connections = lines.flatMap((line, i) => (/^Connection from /.test(line) ? [i] : []));
    assert.ok(lines.findIndex((line) => ACCEPTED.test(line)) < connections[1], since);
  });

  test('the password does not go to a jump host in front of the bastion, though it would take it', async () => {
    const from = other.logMark;
    const session = sessionThrough({ secret: password, jumps: [`${PASSWORD_USER}@localhost:${other.port}`] });
    await openFailure(session);
    const since = await connectionsSince(other, from);
    assert.doesNotMatch(since, ACCEPTED, 'the jump did not get the password');
  });

  test('a key login: a bastion that refuses the key and asks for a password gets no answer, not even the passphrase', async () => {
    // A key the bastion does not know, whose passphrase is the account's password: were the passphrase answered to
    // the bastion's "password:" prompt (or password login left on), sshd would log it as the password tried.
    const key = path.join(bastion.dir, `refused-${Date.now()}`);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', password, '-C', 'refused', '-f', key]);
    const from = bastion.logMark;
    const failure = await openFailure(sessionThrough({ configFile: bastion.settings().configFile, knownHostsFiles: [bastion.knownHosts], identityFile: key, secret: password }));
    assert.equal(failure.reason, 'security');
    assert.match(failure.message, /refused authentication/);
    const since = await connectionsSince(bastion, from);
    assert.match(since, /^Connection from /m, since);
    assert.doesNotMatch(since, /password for/, 'no password was tried');
  });

  test('another bastion given no password gets none, while a tunnel with the password is open', async () => {
    const withPassword = sessionThrough({ secret: password });
    await withPassword.open();
    const from = other.logMark;
    const failure = await openFailure(sessionThrough({}, other));
    assert.equal(failure.reason, 'security');
    const since = await connectionsSince(other, from);
    assert.doesNotMatch(since, /password for/, 'no password tried at the other bastion');
    assert.equal(withPassword.state, 'connected');
    withPassword.close();
  });
});
