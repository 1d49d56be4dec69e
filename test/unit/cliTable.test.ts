// The command table is the CLI: every command in it answers `--help`, `-h` and `zooscope help <name>` with its own
// usage, `zooscope --help` lists them all, a usage names exactly the options the command reads, and every flag that
// takes a value follows one rule, whatever the command: a missing or empty value, or one starting with `-` not
// written `--flag=value`, is refused in the flag's own words (exit 2, one line, before anything connects).
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { commandHelp, usageText } from '../../src/cli/command';
import { OptionTable, parseCommandLine } from '../../src/cli/commandLine';
import { COMMANDS } from '../../src/cli/commands';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, SECRET_FLAGS } from '../../src/cli/connectionOptions';
import { runZooscope } from '../../src/cli/dispatch';
import { createOutput } from '../../src/cli/output';

async function zooscope(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = createOutput({
    stdout: new Writable({ write(chunk: Buffer, _enc, done) { stdout += chunk.toString(); done(); } }),
    stderr: new Writable({ write(chunk: Buffer, _enc, done) { stderr += chunk.toString(); done(); } }),
  });
  const code = await runZooscope(argv, out, '9.9.9', {});
  out.dispose();
  return { code, stdout, stderr };
}

/** The `--flags` a help text names. */
const flagsIn = (text: string) => new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)/g)].map((m) => m[1]));

/** The options of a table a user is told about (aliases are kept for scripts only). */
const shownOptions = (table: OptionTable) => new Set(Object.keys(table).filter((name) => table[name].aliasOf === undefined));

/** Every option a command reads: its own and, when it connects, the connection options. */
const optionsOf = (command: (typeof COMMANDS)[number]): OptionTable => (command.connects ? { ...CONNECTION_OPTIONS, ...command.options } : command.options);

describe('zooscope help, from the command table', () => {
  test('every command answers --help, -h and `zooscope help <name>` with its usage on stdout, exit 0, whatever else is on the line', async () => {
    assert.ok(COMMANDS.length >= 8);
    for (const command of COMMANDS) {
      const help = commandHelp(command);
      assert.ok(help.includes(usageText(command.usage)), command.name);
      for (const argv of [[command.name, '--help'], [command.name, '-h'], [command.name, '127.0.0.1:1', '--bogus', '--help'], ['help', command.name]]) {
        const r = await zooscope(...argv);
        assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${help}\n`, ''], argv.join(' '));
      }
    }
  });

  test('`zooscope --help` and `zooscope help` list every command with its summary and usage; an unknown one is exit 2', async () => {
    const main = await zooscope('--help');
    assert.equal(main.code, 0, main.stderr);
    assert.deepEqual(await zooscope('help'), main);
    assert.deepEqual(await zooscope('-h'), main);
    for (const command of COMMANDS) {
      assert.ok(main.stdout.includes(command.summary), command.name);
      for (const line of command.usage.split('\n')) assert.ok(main.stdout.includes(line.trim()), line);
    }
    assert.ok(main.stdout.includes(CONNECTION_USAGE));
    for (const argv of [['help', 'nope'], ['nope'], ['help', 'lock', 'extra']]) {
      const r = await zooscope(...argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^zooscope(?: help)?: unknown command "[^"]+"\n/);
    }
    assert.deepEqual(await zooscope('--version'), { code: 0, stdout: '9.9.9\n', stderr: '' });
  });

  test('a command\'s usage names exactly the options it reads, and the security options are the connection options', () => {
    for (const command of COMMANDS) {
      const shown = flagsIn(`${command.usage}\n${command.details ?? ''}`);
      assert.deepEqual(shown, shownOptions(command.options), command.name);
      assert.equal(command.usage.includes('[security options]'), command.connects, `${command.name}: [security options] in the usage if and only if it connects`);
      for (const spec of Object.values(command.options)) if (spec.aliasOf !== undefined) assert.ok(spec.aliasOf in command.options, command.name);
    }
    const secrets = new Set(Object.keys(SECRET_FLAGS).map((flag) => flag.slice(2)));
    assert.deepEqual(new Set([...flagsIn(CONNECTION_USAGE)].filter((flag) => !secrets.has(flag))), shownOptions(CONNECTION_OPTIONS));
  });
});

describe('one rule for every flag that takes a value, in every command', () => {
  test('a missing, empty or dash-led value is refused in the flag\'s own words: exit 2, one line, nothing on stdout', async () => {
    let checked = 0;
    for (const command of COMMANDS) {
      for (const [name, spec] of Object.entries(optionsOf(command))) {
        if (spec.takes === undefined) continue;
        for (const tail of [[], [''], ['-x'], ['--json'], ['-1']]) {
          const flag = `--${name}`;
          const r = await zooscope(command.name, flag, ...tail);
          assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', `zooscope ${command.name}: ${flag} takes ${spec.takes}\n`], `${command.name} ${flag} ${JSON.stringify(tail)}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 100, `${checked} cases`);
  });

  test('a value starting with - is taken when written --flag=value', () => {
    for (const command of COMMANDS) {
      const table = optionsOf(command);
      for (const [name, spec] of Object.entries(table)) {
        if (spec.takes === undefined) continue;
        const line = parseCommandLine([`--${name}=-x`, 'word'], table);
        assert.ok(!line.help);
        const canonical = spec.aliasOf ?? name;
        assert.deepEqual(line.values[canonical], spec.multiple ? ['-x'] : '-x', `${command.name} --${name}`);
        assert.deepEqual(line.positionals, ['word']);
      }
    }
  });

  test('a flag without a value refuses one; an unknown option and a secret flag are refused by every command', async () => {
    for (const command of COMMANDS) {
      const flag = Object.entries(optionsOf(command)).find(([, spec]) => spec.takes === undefined)?.[0];
      if (flag) {
        const r = await zooscope(command.name, `--${flag}=yes`);
        assert.deepEqual([r.code, r.stderr], [2, `zooscope ${command.name}: --${flag} takes no value\n`], command.name);
      }
      const unknown = await zooscope(command.name, '--bogus');
      assert.equal(unknown.code, 2);
      assert.equal(unknown.stderr, `zooscope ${command.name}: unknown option --bogus\n${usageText(command.usage)}\n`);
      for (const [secret, message] of Object.entries(SECRET_FLAGS)) {
        for (const argv of [[secret, 'hunter2'], [`${secret}=hunter2`]]) {
          const r = await zooscope(command.name, ...argv);
          assert.deepEqual([r.code, r.stderr], [2, `zooscope ${command.name}: ${message}\n`], `${command.name} ${argv.join(' ')}`);
        }
      }
    }
  });

  test('repeated flags keep every value in order, across an alias; a single one keeps the last', () => {
    const line = parseCommandLine(['--ssh-jump', 'a', '--ssh-jump=b', '--digest', 'x', '--auth', 'y'], CONNECTION_OPTIONS);
    assert.ok(!line.help);
    assert.deepEqual(line.values['ssh-jump'], ['a', 'b']);
    assert.equal(line.values.digest, 'y');
    assert.equal(line.values.auth, undefined);
    assert.equal(line.spelled.digest, '--auth');
  });

  test('the words after a command\'s own are not ours: zooscope shell <connectString> ls -R / --bogus', () => {
    const shell = COMMANDS.find((c) => c.name === 'shell');
    assert.ok(shell?.restAfter !== undefined);
    const table: OptionTable = { ...CONNECTION_OPTIONS, ...shell.options };
    const line = parseCommandLine(['--timeout', '5', 'host:2181', '--read-only', 'ls', '-R', '/', '--bogus'], table, { restAfter: shell.restAfter });
    assert.ok(!line.help);
    assert.deepEqual([line.positionals, line.rest, line.values.timeout, line.values['read-only']], [['host:2181'], ['ls', '-R', '/', '--bogus'], '5', true]);
  });
});
