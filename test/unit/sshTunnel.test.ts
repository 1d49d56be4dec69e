// The SSH tunnel's pure parts: the bastion's name, the ssh command line (what is forced, where the secret goes),
// ssh's stderr as one line naming the bastion, and the CLI flags. The real tunnels: integration/sshTunnel.test.ts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseCommandLine } from '../../src/cli/commandLine';
import { CONNECTION_OPTIONS, connectionSettings, SECRET_FLAGS, SSH_SECRET_ENV } from '../../src/cli/connectionOptions';
import { answersPrompt } from '../../src/zk/tunnel/askpass';
import { SECRET_ENV, sshTunnelCommand } from '../../src/zk/tunnel/sshCommand';
import { classifySshFailure, isFinalTunnelFailure } from '../../src/zk/tunnel/sshFailure';
import { parseSshDestination, sshSettingsProblem } from '../../src/zk/tunnel/sshSettings';

/** The connection options as every command reads them; the other words are positional. */
function parse(args: string[], env: NodeJS.ProcessEnv = {}) {
  const line = parseCommandLine(args, CONNECTION_OPTIONS, { refused: SECRET_FLAGS });
  assert.ok(!line.help);
  return { options: connectionSettings(line.values, env, line.spelled.digest), rest: line.positionals };
}

/** The value of `-o key=value` in argv. */
const option = (args: string[], key: string) => args.filter((_, i) => args[i - 1] === '-o').find((a) => a.startsWith(`${key}=`))?.slice(key.length + 1);

test('a bastion is [user@]host[:port] or an alias; nothing ssh would read as an option or a list', () => {
  assert.deepEqual(parseSshDestination('ops@bastion.example.com:2222'), { user: 'ops', host: 'bastion.example.com', port: 2222 });
  assert.deepEqual(parseSshDestination('prod-bastion'), { user: undefined, host: 'prod-bastion', port: undefined });
  assert.deepEqual(parseSshDestination('[2001:db8::1]:22'), { user: undefined, host: '2001:db8::1', port: 22 });
  for (const bad of ['-oProxyCommand=evil', 'a b', 'host:0', 'host:70000', 'a,b', 'user@', '', 'x\ny', 'bastion\u202e.com', 'ops\u200b@b']) {
    assert.equal(parseSshDestination(bad), undefined, bad);
  }
  assert.match(sshSettingsProblem({ destination: 'ok', jumps: ['-J'] }) ?? '', /jump host "-J" is not/);
  assert.equal(sshSettingsProblem({ destination: 'ok', jumps: ['j1:2200', 'me@j2'] }), undefined);
});

test('the command forwards stdio to the member through the bastion, with strict host keys and no prompts', () => {
  const { program, args, env } = sshTunnelCommand({ destination: 'ops@bastion:2222', jumps: ['j1', 'me@j2:2200'], identityFile: '/k/id' }, 'zk-1.internal', 2181);
  assert.ok(path.isAbsolute(program) && path.basename(program) === 'ssh', program);
  assert.equal(option(args, 'StrictHostKeyChecking'), 'yes');
  assert.equal(option(args, 'BatchMode'), 'yes');
  assert.equal(option(args, 'ForwardAgent'), 'no');
  assert.equal(option(args, 'RemoteCommand'), 'none');
  assert.equal(option(args, 'ControlPath'), 'none', 'never through a shared connection, which would skip the host key check');
  assert.equal(option(args, 'UserKnownHostsFile'), undefined, 'the user\'s config decides unless ZooScope has keys of its own');
  assert.deepEqual(args.slice(-12), ['-i', '/k/id', '-J', 'j1,me@j2:2200', '-l', 'ops', '-p', '2222', '-W', 'zk-1.internal:2181', '--', 'bastion']);
  assert.equal(env.SSH_ASKPASS, undefined);
  assert.equal(sshTunnelCommand({ destination: 'b' }, '::1', 2181).args.slice(-3)[0], '[::1]:2181');
  assert.throws(() => sshTunnelCommand({ destination: 'b' }, '-oProxyCommand=x', 1), /not a host name/);
});

test('a secret goes to ssh through SSH_ASKPASS, never in argv nor its environment', () => {
  const route = { SSH_ASKPASS: '/tmp/askpass.sh', SSH_ASKPASS_REQUIRE: 'force' };
  const { args, env } = sshTunnelCommand({ destination: 'b', secret: 'hunter2 pass' }, 'zk', 2181, route);
  assert.ok(!args.join(' ').includes('hunter2'));
  assert.equal(env.SSH_ASKPASS, route.SSH_ASKPASS);
  assert.equal(env.SSH_ASKPASS_REQUIRE, 'force');
  assert.equal(SECRET_ENV, SSH_SECRET_ENV, 'the CLI\'s variable is the one the tunnel keeps from ssh');
  assert.equal(option(args, 'BatchMode'), 'no');
  assert.throws(() => sshTunnelCommand({ destination: 'b', secret: 's' }, 'zk', 2181), /askpass/);
});

test('askpass answers a password to password prompts only, never a passphrase prompt or a yes/no question', () => {
  const password = { kind: 'password' as const };
  for (const prompt of ['ops@10.0.0.5\'s password: ', '(ops@bastion) Password: ']) assert.ok(answersPrompt(password, prompt), prompt);
  for (const prompt of ['Enter passphrase for key \'/k/id\': ', 'Are you sure you want to continue connecting (yes/no/[fingerprint])? ', 'Verification code: ', 'Allow use of key /k/id?', '']) {
    assert.ok(!answersPrompt(password, prompt), prompt);
  }
});

test('ZooScope\'s accepted keys are checked after the user\'s known_hosts files', () => {
  const { args } = sshTunnelCommand({ destination: 'b', acceptedHostKeysFile: '/data/zoo scope/known_hosts' }, 'zk', 2181);
  assert.equal(option(args, 'UserKnownHostsFile'), '~/.ssh/known_hosts ~/.ssh/known_hosts2 "/data/zoo scope/known_hosts"');
});

const exit = { code: 255, signal: null, wasUp: false };

test('ssh\'s stderr becomes one line that names the bastion; which failures are final', () => {
  const changed = classifySshFailure([
    '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@',
    '@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @',
    'The fingerprint for the ED25519 key sent by the remote host is',
    'SHA256:AbCd+/xyz0123=.',
    'Host key verification failed.',
  ], 'bastion', 'zk:2181', exit);
  assert.equal(changed.kind, 'hostKeyChanged');
  assert.equal(changed.fingerprint, 'SHA256:AbCd+/xyz0123=');
  assert.match(changed.line, /^SSH bastion bastion: its host key has changed \(it now presents SHA256:AbCd\+\/xyz0123=\); refused/);
  const unknown = classifySshFailure(['No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.', 'Host key verification failed.'], 'b', 'zk:2181', exit);
  assert.equal(unknown.kind, 'hostKeyUnknown');
  assert.equal(unknown.keyHost, '[127.0.0.1]:2222', 'the host whose key it is, as ssh names it (a jump host\'s may differ from the bastion)');
  assert.equal(classifySshFailure(['ops@b: Permission denied (publickey,password).'], 'b', 'zk:2181', exit).line, 'SSH bastion b refused authentication (it accepts: publickey,password)');
  assert.equal(classifySshFailure(['channel 0: open failed: connect failed: Connection refused', 'stdio forwarding failed'], 'b', 'zk:2181', exit).kind, 'memberRefused');
  assert.equal(classifySshFailure(['ssh: connect to host b port 22: Connection timed out'], 'b', 'zk:2181', exit).kind, 'bastionUnreachable');
  assert.equal(classifySshFailure(['ssh: Could not resolve hostname nowhere: Name or service not known'], 'nowhere', 'zk:2181', exit).kind, 'bastionUnresolved');
  const closed = classifySshFailure(['Authenticated to b ([127.0.0.1]:22) using "publickey".'], 'b', 'zk:2181', { code: null, signal: 'SIGKILL', wasUp: true });
  assert.equal(closed.line, 'the SSH tunnel to zk:2181 through b closed: ssh ended by SIGKILL');
  // The bastion hanging up reads differently depending on whether ssh was reading or writing at that moment.
  const up = { code: 255, signal: null, wasUp: true };
  for (const said of ['Connection to 127.0.0.1 closed by remote host.', 'client_loop: send disconnect: Broken pipe', 'Read from remote host 127.0.0.1: Connection reset by peer']) {
    assert.equal(classifySshFailure([said], 'b', 'zk:2181', up).line, `the SSH tunnel to zk:2181 through b closed: the bastion ended the connection (${said})`);
  }
  for (const f of [changed, unknown]) assert.ok(!f.line.includes('\n'));
  assert.ok(isFinalTunnelFailure('hostKeyChanged') && isFinalTunnelFailure('authFailed'));
  assert.ok(!isFinalTunnelFailure('memberRefused') && !isFinalTunnelFailure('closed') && !isFinalTunnelFailure('bastionUnreachable'));
});

test('CLI: --ssh, --ssh-jump, --ssh-identity, --ssh-config become tunnel settings; the secret only from the environment', () => {
  const { options, rest } = parse(['--ssh', 'ops@bastion:2222', 'zk:2181', '--ssh-jump', 'j1,j2', '--ssh-jump', 'j3', '--ssh-identity', '/k/id'], { [SSH_SECRET_ENV]: 'pp' });
  assert.deepEqual(options.ssh, { destination: 'ops@bastion:2222', jumps: ['j1', 'j2', 'j3'], identityFile: '/k/id', secret: 'pp' });
  assert.deepEqual(rest, ['zk:2181']);
  assert.equal(parse([]).options.ssh, undefined);
  assert.deepEqual(parse(['--ssh', 'alias', '--ssh-config', '/c']).options.ssh, { destination: 'alias', configFile: '/c' });
  assert.throws(() => parse(['--ssh']), /--ssh takes a bastion/);
  assert.throws(() => parse(['--ssh', '-oProxyCommand=x']), /--ssh takes a bastion/);
  assert.throws(() => parse(['--ssh-jump', 'j1']), /need --ssh <bastion>/);
  assert.throws(() => parse(['--ssh-password', 'x']), new RegExp(`refused: a secret on the command line .* ${SSH_SECRET_ENV}`));
});
