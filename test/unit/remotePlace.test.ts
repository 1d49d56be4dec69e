// The members' data directory and read command, as typed in VS Code's prompts or given to `zooscope log --data-dir`:
// an absolute POSIX path, a program first, and never a control, invisible or direction-changing character (the text
// reaches the member's shell and is shown back to the user).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { remoteArgs } from '../../src/cli/commands/log/arguments';
import { dataDirProblem, logMembers, readCommandProblem, readCommandWords } from '../../src/zk/serverLogs/remotePlace';

test('the data directory: an absolute path on the members, nothing hidden in it', () => {
  assert.equal(dataDirProblem('/var/lib/zookeeper'), undefined);
  assert.equal(dataDirProblem('/srv/it\'s data $(x)'), undefined, 'quoting is ssh\'s job (shellWords), not a refusal');
  assert.equal(dataDirProblem(''), 'empty');
  assert.equal(dataDirProblem('  '), 'empty');
  assert.equal(dataDirProblem('var/lib/zookeeper'), 'relative');
  assert.equal(dataDirProblem('~/zk'), 'relative');
  assert.equal(dataDirProblem('/var/lib/zk\n/etc'), 'hidden');
  assert.equal(dataDirProblem('/var/lib/zk\u202egol'), 'hidden');
  assert.equal(dataDirProblem('/var/lib/\u200bzk'), 'hidden');
  assert.equal(dataDirProblem('/var/lib/zk\u0000'), 'hidden');
  assert.equal(dataDirProblem(`/${'a'.repeat(5000)}`), 'tooLong');
});

test('the read command: empty or a program first, nothing hidden; its words split at spaces', () => {
  assert.equal(readCommandProblem(''), undefined);
  assert.equal(readCommandProblem('sudo -n'), undefined);
  assert.equal(readCommandProblem('sudo -n -u zookeeper'), undefined);
  assert.equal(readCommandProblem('-n'), 'option');
  assert.equal(readCommandProblem('sudo\t-n'), 'hidden');
  assert.equal(readCommandProblem('sudo -n\u2066'), 'hidden');
  assert.deepEqual(readCommandWords('  sudo  -n  '), ['sudo', '-n']);
  assert.deepEqual(readCommandWords(''), []);
});

test('the members: each host of the connect string once; a bad connect string is one line', () => {
  assert.deepEqual(logMembers('zk1:2181,zk2:2181,zk1:2182/app'), ['zk1', 'zk2']);
  const bad = logMembers('');
  assert.ok(!Array.isArray(bad) && bad.problem.length > 0);
});

test('zooscope log --data-dir and --read-command are held to the same rules', () => {
  assert.throws(() => remoteArgs({ 'data-dir': '/var/lib/zk\u202e' }, ['zk1:2181'], {}), /--data-dir .*direction-changing/);
  assert.throws(() => remoteArgs({ 'data-dir': 'zk' }, ['zk1:2181'], {}), /--data-dir "zk": expected the members' absolute path/);
  assert.throws(() => remoteArgs({ 'data-dir': '/zk', 'read-command': 'sudo\n-n' }, ['zk1:2181'], {}), /--read-command .*control/);
  assert.deepEqual(remoteArgs({ 'data-dir': '/zk', 'read-command': 'sudo -n' }, ['zk1:2181,zk2:2181'], {})?.options.readCommand, ['sudo', '-n']);
});
