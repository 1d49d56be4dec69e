// The shell's reading of command lines as zkCli 3.8 reads them: its tokenizing regex, commons-cli 1.5.0's option
// rules and error texts, and the Java formats it prints (Date, Id, StatsTrack).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { tokenizeLine } from '../../src/zk/shell/tokenize';
import { OptionParseError, parseOptions } from '../../src/zk/shell/zkCliOptions';
import { cliCommand, commandListUsage } from '../../src/zk/shell/commands';
import { javaDateString, javaDecodeInt, juteId } from '../../src/zk/shell/javaFormat';
import { validatePath } from '../../src/zk/shell/zkCliErrors';
import { formatStatsTrack, parseStatsTrack } from '../../src/zk/tree/quota';
import { ZkShell } from '../../src/zk/shell';
import { holdsCredentials } from '../../src/zk/shell/interactive';

test('lines split into words as ZooKeeperMain.parseCommand splits them', () => {
  assert.deepEqual(tokenizeLine('  create /a "hello world"  '), ['create', '/a', 'hello world']);
  assert.deepEqual(tokenizeLine("set /a 'it''s'"), ['set', '/a', 'it', 's']);
  assert.deepEqual(tokenizeLine('set /a x"y z"'), ['set', '/a', 'x"y', 'z"']);
  // An unclosed quote matches no word: the search goes on after it.
  assert.deepEqual(tokenizeLine('get "abc'), ['get', 'abc']);
  assert.deepEqual(tokenizeLine('create /a ""'), ['create', '/a', '']);
  assert.deepEqual(tokenizeLine('ls\t/\u00a0x'), ['ls', '/\u00a0x']);
  // Blanks alone: the regex backtracks and one blank becomes the word (zkCli then says "Command not found").
  assert.deepEqual(tokenizeLine('   '), [' ']);
  assert.deepEqual(tokenizeLine(''), []);
});

function parseError(command: string, words: string[]): string {
  try {
    parseOptions(cliCommand(command)!.options, words);
  } catch (error) {
    assert.ok(error instanceof OptionParseError);
    return error.toString();
  }
  return 'no error';
}

test('options follow commons-cli 1.5.0: values, clusters, errors', () => {
  const set = cliCommand('set')!.options;
  assert.deepEqual(parseOptions(set, ['set', '-s', '-v', '3', '/a', 'x']).args, ['set', '/a', 'x']);
  assert.equal(parseOptions(set, ['set', '-sv3', '/a', 'x']).values.get('v'), '3');
  assert.equal(parseOptions(set, ['set', '-v=4', '/a', 'x']).values.get('v'), '4');
  assert.equal(parseOptions(set, ['set', '-v', '-1', '/a', 'x']).values.get('v'), '-1');
  assert.equal(parseOptions(set, ['set', '-v', '"7"', '/a', 'x']).values.get('v'), '7');
  // Options after the path count too; `--` ends them.
  assert.deepEqual(parseOptions(set, ['set', '/a', 'x', '-s']).values.has('s'), true);
  assert.deepEqual(parseOptions(set, ['set', '--', '-s', 'x']).args, ['set', '-s', 'x']);
  assert.deepEqual(parseOptions(set, ['set', '-', 'x']).args, ['set', '-', 'x']);
  assert.equal(parseError('set', ['set', '-v', '-s', '/a', 'x']), 'org.apache.commons.cli.MissingArgumentException: Missing argument for option: v');
  assert.equal(parseError('set', ['set', '/a', 'x', '-v']), 'org.apache.commons.cli.MissingArgumentException: Missing argument for option: v');
  assert.equal(parseError('ls', ['ls', '-x', '/']), 'org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: -x');
  assert.equal(parseError('ls', ['ls', '-sx', '/']), 'org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: -sx');
  assert.equal(parseError('ls', ['ls', '--s', '/']), 'org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: --s');
  assert.equal(parseError('setquota', ['setquota', '/a']),
    'org.apache.commons.cli.MissingOptionException: Missing required option: [-n num soft quota, -b bytes soft quota, -N num hard quota, -B bytes hard quota]');
  assert.equal(parseError('setquota', ['setquota', '-n', '1', '-B', '2', '/a']),
    "org.apache.commons.cli.AlreadySelectedException: The option 'B' was specified but an option from this group has already been selected: 'n'");
  assert.equal(parseError('delquota', ['delquota', '/a']), 'no error');
});

test('the command list is zkCli 3.8.0\'s, in Java\'s order', () => {
  const lines = commandListUsage().split('\n');
  assert.equal(lines[0], 'ZooKeeper -server host:port -client-configuration properties-file cmd args');
  assert.equal(lines[1].startsWith('\taddWatch [-m mode] path'), true);
  assert.equal(lines[2], '\taddauth scheme auth');
  assert.equal(lines.length, 30);
  assert.ok(!lines.some((l) => l.startsWith('\tls2') || l.startsWith('\trmr')));
});

test('Java formats: Date.toString in UTC, Id.toString, Integer.decode', () => {
  assert.equal(javaDateString(Date.UTC(2026, 10, 3, 4, 5, 6), 'UTC'), 'Tue Nov 03 04:05:06 UTC 2026');
  assert.equal(javaDateString(0, 'UTC'), 'Thu Jan 01 00:00:00 UTC 1970');
  assert.equal(juteId('digest', 'bob:a,b}%\n'), "'digest,'bob:a%2Cb%7D%25%0A\n");
  assert.equal(javaDecodeInt('0x10'), 16);
  assert.equal(javaDecodeInt('010'), 8);
  assert.equal(javaDecodeInt('-3'), -3);
  assert.equal(javaDecodeInt('x'), undefined);
});

test('paths are refused with the Java client\'s messages', () => {
  const message = (path: string, sequential = false) => {
    try {
      validatePath(path, sequential);
      return 'ok';
    } catch (error) {
      return (error as Error).message;
    }
  };
  assert.equal(message('a'), 'Path must start with / character');
  assert.equal(message('/a/'), 'Path must not end with / character');
  assert.equal(message('/a/', true), 'ok');
  assert.equal(message('/a//b'), 'Invalid path string "/a//b" caused by empty node name specified @3');
  assert.equal(message('/a/..'), 'Invalid path string "/a/.." caused by relative paths not allowed @4');
  assert.equal(message('/a\u0001'), 'Invalid path string "/a\u0001" caused by invalid character @2');
});

test('StatsTrack text round-trips as zkCli 3.8 writes it', () => {
  const text = 'count=5,bytes=-1=;byteHardLimit=-1;countHardLimit=3';
  assert.equal(formatStatsTrack(parseStatsTrack(text)), text);
  assert.equal(formatStatsTrack(parseStatsTrack('count=4,bytes=16')), 'count=4,bytes=16');
  assert.equal(parseStatsTrack('count=,bytes=2').get('count'), -1n);
});

test('the prompt shows the connect string made visible, and says when the shell is read-only', () => {
  const shell = (readOnly?: boolean) => new ZkShell({
    sink: { out: () => undefined, err: () => undefined }, connectString: 'zk:2181/x\u202ey', readOnly,
    openSession: () => { throw new Error('not connecting'); },
  });
  assert.equal(shell().prompt, '[zk: zk:2181/x[U+202E]y(CLOSED) 0] ');
  assert.equal(shell(true).prompt, '(read-only) [zk: zk:2181/x[U+202E]y(CLOSED) 0] ');
});

test('addauth lines with auth data are the ones the history file leaves out', () => {
  assert.ok(holdsCredentials('addauth digest bob:secret'));
  assert.ok(holdsCredentials('  addauth   sasl "token with spaces"'));
  assert.ok(holdsCredentials('addauth custom t0ken'));
  assert.ok(!holdsCredentials('addauth digest'), 'no secret given');
  assert.ok(!holdsCredentials('get /addauth'));
  assert.ok(!holdsCredentials('ls /'));
});
