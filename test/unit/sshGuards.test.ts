// The guards every ssh ZooScope runs goes through (src/zk/tunnel/sshCommand.ts): hostile destinations, jumps and
// members refused on each path that reaches ssh, the secret answering only its own prompt, ssh's environment
// without any secret's variable, and ssh run by its absolute path. A stand-in `ssh` records what it was given.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseCommand } from '../../src/cli/command';
import { ensembleCommand } from '../../src/cli/commands/ensemble';
import { bastionProblem, jumpsProblem } from '../../src/vscode/connections/sshFormChecks';
import { SECRET_VARIABLE_NAMES, SECRET_VARIABLES } from '../../src/zk/secretVariables';
import { ZkSession } from '../../src/zk/session/session';
import { answersPrompt } from '../../src/zk/tunnel/askpass';
import { dialerFor, SshDialer } from '../../src/zk/tunnel/dialer';
import { checkBastionHostKey } from '../../src/zk/tunnel/hostKeyCheck';
import { fetchHostKey } from '../../src/zk/tunnel/hostKeys';
import { sshTunnelCommand } from '../../src/zk/tunnel/sshCommand';
import { SshTunnelError } from '../../src/zk/tunnel/sshFailure';
import { resolveProgram } from '../../src/zk/tunnel/sshProgram';
import type { SshTunnelSettings } from '../../src/zk/tunnel/sshSettings';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-sshguards-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** Words a shell would run something with, and what ssh would read as an option. */
const HOSTILE = ['$(touch /tmp/pwned)', 'a`id`', 'a;id', 'a|id', 'a&id', '"a"', '\'a\'', 'a>b', 'a\\b', '-oProxyCommand=id', 'a b', 'a,b', 'a\u202eb', 'a*'];

/** A stand-in ssh that logs its argv and environment, then says it authenticated and echoes (as `ssh -W` to an echo). */
function standInSsh(name: string, body = 'echo \'Authenticated to b ([127.0.0.1]:22) using "publickey".\' >&2; exec cat'): { sshPath: string; started: () => boolean; env: () => string } {
  const log = path.join(work, `${name}.env`);
  const sshPath = path.join(work, `${name}-ssh`);
  fs.writeFileSync(sshPath, `#!/bin/sh\nenv > '${log}'\n${body}\n`, { mode: 0o755 });
  return { sshPath, started: () => fs.existsSync(log), env: () => fs.readFileSync(log, 'utf8') };
}

const ending = (socket: NodeJS.EventEmitter) => new Promise<string>((resolve) => {
  socket.once('connect', () => resolve('connected'));
  socket.once('error', (error: Error) => resolve(error.message));
});

test('a hostile bastion or jump host is refused by the form, the CLI and the settings check, in one line', () => {
  const t = (text: string, ...args: unknown[]) => text.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
  for (const bad of HOSTILE) {
    assert.ok(bastionProblem(t, bad), `form bastion ${bad}`);
    assert.ok(bastionProblem(t, `ops@${bad}`) || bad === '', `form bastion user ${bad}`);
    assert.ok(jumpsProblem(t, `j1,${bad}`) || bad.includes(','), `form jump ${bad}`);
    assert.throws(() => parseCommand(ensembleCommand, ['zk:2181', '--check', '--ssh', bad], {}), /--ssh takes a bastion/, `cli --ssh ${bad}`);
    if (!bad.includes(',')) assert.throws(() => parseCommand(ensembleCommand, ['zk:2181', '--check', '--ssh', 'b', '--ssh-jump', bad], {}), /--ssh-jump takes jump hosts/, `cli --ssh-jump ${bad}`);
  }
  for (const good of ['ops@bastion.example.com:2222', 'prod-bastion', 'svc_1@10.0.0.5', '[2001:db8::1]:22']) {
    assert.equal(bastionProblem(t, good), undefined, good);
    assert.equal(jumpsProblem(t, good), undefined, good);
  }
});

test('the ssh command refuses hostile settings and members whoever builds it (no caller check needed)', () => {
  const expect = (settings: SshTunnelSettings, host: string, pattern: RegExp) => assert.throws(() => sshTunnelCommand(settings, host, 2181), pattern);
  for (const bad of HOSTILE) {
    expect({ destination: 'b', jumps: ['ok', bad] }, 'zk', /SSH jump host .* is not \[user@\]host\[:port\]/);
    expect({ destination: bad }, 'zk', /SSH bastion .* is not \[user@\]host\[:port\]/);
    // A member named by a server's /zookeeper/config goes to -W: held to the same words.
    expect({ destination: 'b' }, bad, /is not a host name and port ssh may forward to/);
  }
  expect({ destination: 'b', identityFile: 'id\nProxyCommand x' }, 'zk', /SSH identity file .* is not a file name/);
  expect({ destination: 'b', knownHostsFiles: ['a" "b'] }, 'zk', /known hosts file/);
});

test('a dialer with hostile settings is refused when made; a hostile member fails its tunnel without starting ssh', async () => {
  const ssh = standInSsh('refused');
  // The Ensemble view and Check Members Agree make their dialer from saved settings with dialerFor.
  for (const settings of [{ destination: 'b', jumps: ['$(touch x)'] }, { destination: '-oProxyCommand=id' }, { destination: 'b;id' }]) {
    assert.throws(() => dialerFor({ ...settings, sshPath: ssh.sshPath }), (error: Error) => error instanceof SshTunnelError && error.failure.kind === 'settings' && !error.message.includes('\n'));
  }
  const dialer = new SshDialer({ destination: 'user@b', sshPath: ssh.sshPath });
  const socket = dialer.dial('$(touch x)', 2181);
  assert.match(await ending(socket), /^"\$\(touch x\)":2181 is not a host name and port ssh may forward to$/);
  assert.equal(ssh.started(), false, 'no ssh was started');
});

test('a session with a hostile jump host fails as a settings problem before any ssh runs', async () => {
  const ssh = standInSsh('session');
  assert.throws(() => new ZkSession({ connectString: '127.0.0.1:1', ssh: { destination: 'b', jumps: ['j`id`'], sshPath: ssh.sshPath } }), /SSH jump host "j`id`" is not/);
  assert.equal(ssh.started(), false);
});

test('the host key check and fetch refuse hostile settings without running ssh', async () => {
  const ssh = standInSsh('hostkey');
  await assert.rejects(checkBastionHostKey({ destination: 'b', jumps: ['a|id'], sshPath: ssh.sshPath }), /SSH jump host "a\|id" is not/);
  await assert.rejects(fetchHostKey({ destination: 'b', jumps: ['a|id'], sshPath: ssh.sshPath }), /SSH jump host "a\|id" is not/);
  assert.equal(ssh.started(), false);
});

test('a passphrase answers only its key file\'s passphrase prompt; a password only password prompts', () => {
  const passphrase = { kind: 'passphrase' as const, keyFile: '/k/id' };
  assert.ok(answersPrompt(passphrase, 'Enter passphrase for key \'/k/id\': '));
  for (const prompt of ['Password: ', '(ops@bastion) Password: ', 'ops@b\'s password: ', 'Enter passphrase for key \'/k/other\': ', 'Enter passphrase for key \'/k/id\' password: ', 'Verification code: ']) {
    assert.ok(!answersPrompt(passphrase, prompt), prompt);
  }
  // As ssh prints the file: `~/` expanded, cut at 100 characters.
  assert.ok(answersPrompt({ kind: 'passphrase', keyFile: '~/.ssh/id' }, `Enter passphrase for key '${path.join(os.homedir(), '.ssh/id')}': `));
  const long = `/k/${'x'.repeat(120)}`;
  assert.ok(answersPrompt({ kind: 'passphrase', keyFile: long }, `Enter passphrase for key '${long.slice(0, 100)}': `));
  const password = { kind: 'password' as const };
  assert.ok(answersPrompt(password, 'Password: '));
  assert.ok(!answersPrompt(password, 'Enter passphrase for key \'/k/id\': '));
});

test('key authentication turns password and keyboard-interactive off; a password login keeps them', () => {
  const option = (args: string[], key: string) => args.filter((_, i) => args[i - 1] === '-o').find((a) => a.startsWith(`${key}=`))?.slice(key.length + 1);
  const route = { SSH_ASKPASS: '/a', SSH_ASKPASS_REQUIRE: 'force' };
  for (const settings of [{ destination: 'b', identityFile: '/k/id', secret: 'pp' }, { destination: 'b', identityFile: '/k/id' }, { destination: 'b', secret: 'pp', secretKind: 'passphrase' as const }]) {
    const { args } = sshTunnelCommand(settings, 'zk', 2181, route);
    assert.equal(option(args, 'PasswordAuthentication'), 'no');
    assert.equal(option(args, 'KbdInteractiveAuthentication'), 'no');
    assert.equal(option(args, 'PreferredAuthentications'), 'publickey');
  }
  const { args } = sshTunnelCommand({ destination: 'b', secret: 'pw' }, 'zk', 2181, route);
  assert.equal(option(args, 'PasswordAuthentication'), undefined);
});

test('a bastion that asks "Password:" of a key login gets no passphrase (the askpass helper, as ssh runs it)', async () => {
  // The stand-in runs the askpass helper with a password prompt, as ssh would after the key was refused.
  const ssh = standInSsh('prompt', 'answer=$("$SSH_ASKPASS" "Password: ")\necho "answer=[$answer]" >&2\necho \'Authenticated to b ([127.0.0.1]:22) using "password".\' >&2\nexec cat');
  const answered = path.join(work, 'answered');
  fs.writeFileSync(ssh.sshPath, fs.readFileSync(ssh.sshPath, 'utf8').replace('echo "answer=[$answer]" >&2', `printf '%s' "$answer" > '${answered}'`));
  const dialer = new SshDialer({ destination: 'user@b', identityFile: '/k/id', secret: 'the passphrase', sshPath: ssh.sshPath });
  const socket = dialer.dial('zk', 2181);
  assert.equal(await ending(socket), 'connected');
  socket.destroy();
  assert.equal(fs.readFileSync(answered, 'utf8'), '', 'the passphrase was not given to a password prompt');
  // The same ssh with a password: answered.
  const withPassword = new SshDialer({ destination: 'user@b', secret: 'the password', sshPath: ssh.sshPath });
  const second = withPassword.dial('zk', 2181);
  assert.equal(await ending(second), 'connected');
  second.destroy();
  assert.equal(fs.readFileSync(answered, 'utf8'), 'the password');
});

test('ssh\'s environment holds none of the secrets\' variables (digest, SASL, TLS, SSH)', async () => {
  const ssh = standInSsh('environment');
  const saved = SECRET_VARIABLE_NAMES.map((name) => [name, process.env[name]] as const);
  for (const name of SECRET_VARIABLE_NAMES) process.env[name] = `secret-of-${name}`;
  process.env.ZOOSCOPE_GUARD_MARK = 'kept';
  try {
    const socket = new SshDialer({ destination: 'user@b', secret: 'pw', sshPath: ssh.sshPath }).dial('zk', 2181);
    assert.equal(await ending(socket), 'connected');
    socket.destroy();
  } finally {
    for (const [name, value] of saved) if (value === undefined) delete process.env[name]; else process.env[name] = value;
    delete process.env.ZOOSCOPE_GUARD_MARK;
  }
  const env = ssh.env();
  assert.match(env, /^ZOOSCOPE_GUARD_MARK=kept$/m, 'the environment read is ssh\'s');
  assert.match(env, /^SSH_ASKPASS=/m);
  for (const name of SECRET_VARIABLE_NAMES) assert.doesNotMatch(env, new RegExp(`^${name}=|secret-of-${name}`, 'm'), name);
});

test('every ZOOSCOPE_ variable the code names is a secret in the list, or one known not to be', () => {
  const notSecrets = new Set(['ZOOSCOPE_CLI_VERSION', 'ZOOSCOPE_ASKPASS_SOCKET']);
  const named = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) for (const m of fs.readFileSync(file, 'utf8').matchAll(/ZOOSCOPE_[A-Z0-9_]+/g)) named.add(m[0]);
    }
  };
  walk(path.resolve(__dirname, '../../../src'));
  assert.deepEqual([...named].filter((name) => !notSecrets.has(name) && !SECRET_VARIABLE_NAMES.includes(name)), []);
  assert.equal(SECRET_VARIABLES.sshSecret, 'ZOOSCOPE_SSH_SECRET');
});

test('ssh runs by its absolute path, found once on PATH; relative PATH folders (the current one) are skipped', () => {
  assert.ok(path.isAbsolute(sshTunnelCommand({ destination: 'b' }, 'zk', 2181).program));
  const home = fs.mkdtempSync(path.join(work, 'path-'));
  const planted = path.join(home, 'ssh');
  fs.writeFileSync(planted, '#!/bin/sh\n', { mode: 0o755 });
  fs.mkdirSync(path.join(home, 'bin'));
  const real = path.join(home, 'bin', 'ssh');
  fs.writeFileSync(real, '#!/bin/sh\n', { mode: 0o755 });
  const cwd = process.cwd();
  process.chdir(home);
  try {
    assert.equal(resolveProgram('ssh', { PATH: ['.', '', 'bin', path.join(home, 'bin')].join(path.delimiter) }), real);
    assert.throws(() => resolveProgram('ssh', { PATH: ['.', ''].join(path.delimiter) }), /ssh was not found on PATH/);
    assert.throws(() => resolveProgram('./ssh'), /not an absolute path or a program name on PATH/);
  } finally {
    process.chdir(cwd);
  }
  assert.equal(resolveProgram('/opt/ssh'), '/opt/ssh');
});

test('no ssh to be found: the tunnel fails in one line instead of running a file from the current folder', async () => {
  const socket = new SshDialer({ destination: 'user@b', sshPath: 'no-such-ssh-program' }).dial('zk', 2181);
  assert.match(await ending(socket), /^cannot start no-such-ssh-program: no-such-ssh-program was not found on PATH; OpenSSH's client is not installed or not on PATH$/);
});
