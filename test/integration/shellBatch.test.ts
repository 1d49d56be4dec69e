// `zooscope shell <connect>` with commands on stdin (not a terminal): one command per line, only their output,
// numbered history and redo, WATCHER:: lines for watches while printwatches is on, "Not connected" after close,
// and the last command's exit code.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { runZooscopeShell } from '../support/clients/shellRunners';

describe('zooscope shell reading commands from stdin', () => {
  let zk: ZkCluster;
  let cli: string;

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone()]);
  });
  after(async () => {
    await zk?.stop();
  });

  test('runs each line in order and prints only the commands\' output', async () => {
    const lines = [
      'create /b "two words"',
      'get -w /b',
      'set /b changed',
      'ls -w /',
      'create /c',
      'printwatches off',
      'get -w /b',
      'set /b again',
      'printwatches on',
      'history',
      'redo 1',
      'redo 10',
      'redo 99',
      'get /nope',
    ];
    const run = await runZooscopeShell(cli, zk.connectString, [], lines.join('\n') + '\n');
    const watcher = (type: string, path: string) => ['', 'WATCHER::', '', `WatchedEvent state:SyncConnected type:${type} path:${path}`];
    assert.equal(run.stdout, [
      'two words',
      ...watcher('NodeDataChanged', '/b'),
      '[b, zookeeper]',
      ...watcher('NodeChildrenChanged', '/'),
      'changed',
      ...lines.slice(0, 10).map((l, i) => `${i} - ${l}`),
      // redo 1 runs `get -w /b` and takes its place in the history, so redo 10 runs it again.
      'again',
      'again',
      '',
    ].join('\n'), JSON.stringify(run));
    assert.equal(run.stderr, 'Created /b\nCreated /c\nCommand index out of range\nNode does not exist: /nope\n');
    // zkCli exits with its last command's code.
    assert.equal(run.code, 1);
  });

  test('close leaves the shell saying "Not connected"; quit stops reading', async () => {
    const run = await runZooscopeShell(cli, zk.connectString, [], 'close\nls /\nprintwatches off\nquit\nls /\n');
    assert.equal(run.stdout, '\nWATCHER::\n\nWatchedEvent state:Closed type:None path:null\nNot connected\nNot connected\n');
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
  });

  test('`connect` to another host takes no credentials when no one can answer; to its own servers it takes them', async () => {
    const port = zk.members[0].clientPort;
    // An `ls` after each connect: a request queued while the new session connects may reach the server before
    // the session's digest does (the library sends queued requests first), and whoami must come after both.
    const lines = ['whoami', `connect localhost:${port}`, 'ls /zookeeper', 'whoami', `connect 127.0.0.1:${port}`, 'ls /zookeeper', 'whoami'];
    const run = await runZooscopeShell(cli, `127.0.0.1:${port}`, ['--digest', 'alice'], lines.join('\n') + '\n', { ZOOSCOPE_DIGEST_PASSWORD: 'pw-kept-here' });
    const answers = run.stdout.split('Auth scheme: User\n').slice(1);
    assert.equal(answers.length, 3, JSON.stringify(run));
    assert.match(answers[0], /digest: alice/);
    assert.doesNotMatch(answers[1], /digest/, 'the credentials went to another host unasked');
    assert.match(answers[2], /digest: alice/);
    assert.doesNotMatch(run.stdout + run.stderr, /pw-kept-here/);
  });

  test('--read-only refuses every write in zkCli\'s words and reads on', async () => {
    assert.equal((await runZooscopeShell(cli, zk.connectString, ['create', '/ro-kept', 'kept'])).code, 0);
    const lines = ['create /ro-cli x', 'set /ro-kept nope', 'delete /ro-kept', 'deleteall /ro-kept', 'setquota -n 3 /ro-kept', 'get /ro-kept'];
    const run = await runZooscopeShell(cli, zk.connectString, ['--read-only'], lines.join('\n') + '\n');
    assert.equal(run.stderr, ['/ro-cli', '/ro-kept', '/ro-kept', '/ro-kept', '/ro-kept'].map((p) => `Not a read-only call: ${p}\n`).join(''));
    assert.equal(run.stdout, 'kept\n');
    assert.equal(run.code, 0);
    const check = await runZooscopeShell(cli, zk.connectString, ['ls', '/']);
    assert.doesNotMatch(check.stdout, /ro-cli/);
    assert.match(check.stdout, /ro-kept/);
  });

  test('a connect string whose host holds a control character exits 2 with one line', async () => {
    const run = await runZooscopeShell(cli, 'evil\x1b]0;t\x07:2181', ['ls', '/']);
    assert.equal(run.code, 2);
    assert.ok(!/[\x07\x1b]/.test(run.stderr), JSON.stringify(run.stderr));
    assert.match(run.stderr, /^zooscope shell: bad connect string "evil\[U\+001B\]\]0;t\[U\+0007\]:2181": host .* holds the hidden character U\+001B; .*\n$/);
  });

  test('our own bad arguments exit 2 before connecting; an unknown zkCli command exits 127', async () => {
    const bad = await runZooscopeShell(cli, zk.connectString, ['--nope', 'ls', '/']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^zooscope shell: unknown option --nope\n/);
    const unknown = await runZooscopeShell(cli, zk.connectString, ['frobnicate']);
    assert.equal(unknown.code, 127);
    assert.match(unknown.stderr, /\nCommand not found: Command not found frobnicate\n$/);
  });
});
