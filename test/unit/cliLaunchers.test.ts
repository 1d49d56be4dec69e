// The `zooscope` launcher the extension puts on the terminal's PATH: it runs the bundled CLI with the extension
// host's own executable, which may be Electron (desktop VS Code) and then runs as Node only with
// ELECTRON_RUN_AS_NODE=1. Here a stand-in "Electron" refuses to run otherwise, and no node is on the PATH.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { cmdLauncher, launcherName, writeLauncher } from '../../src/vscode/terminal/cliLaunchers';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-launcher-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** A folder whose name a shell would split or unquote wrongly. */
const odd = path.join(work, `it's a "dir" $HOME`);
fs.mkdirSync(odd);
const electron = path.join(odd, 'electron');
fs.writeFileSync(electron, `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo 'not as node' >&2; exit 9; }\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
const cli = path.join(odd, 'cli.js');
fs.writeFileSync(cli, 'process.stdout.write(JSON.stringify({ args: process.argv.slice(2), asNode: process.env.ELECTRON_RUN_AS_NODE }));\n');

function runLauncher(binDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Found through PATH alone, as a terminal finds it; nothing else on PATH (no node).
    execFile('zooscope', args, { env: { PATH: binDir } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

test('the launcher runs the CLI with the host\'s executable as Node, passing every argument unchanged', async () => {
  const binDir = path.join(work, 'bin');
  const file = writeLauncher(binDir, { runtime: electron, cli });
  assert.equal(path.basename(file), launcherName());
  assert.equal(fs.statSync(file).mode & 0o777, 0o755);
  const args = ['locks', 'a b', `it's`, '$HOME', '"q"', '*', ''];
  const ran = await runLauncher(binDir, args);
  assert.equal(ran.code, 0, ran.stderr);
  assert.deepEqual(JSON.parse(ran.stdout), { args, asNode: '1' });
});

test('an unchanged launcher is left alone; a new target replaces it', async () => {
  const binDir = path.join(work, 'bin-rewrite');
  const file = writeLauncher(binDir, { runtime: electron, cli });
  const before = fs.statSync(file).ino;
  writeLauncher(binDir, { runtime: electron, cli });
  assert.equal(fs.statSync(file).ino, before, 'rewritten although nothing changed');
  const other = path.join(odd, 'other.js');
  fs.writeFileSync(other, 'process.stdout.write("other")');
  writeLauncher(binDir, { runtime: electron, cli: other });
  assert.deepEqual(await runLauncher(binDir, []), { code: 0, stdout: 'other', stderr: '' });
  assert.deepEqual(fs.readdirSync(binDir), ['zooscope'], 'a part file was left behind');
});

test('Windows: a .cmd launcher that sets ELECTRON_RUN_AS_NODE and keeps a % in a path literal', () => {
  assert.equal(launcherName('win32'), 'zooscope.cmd');
  const text = cmdLauncher({ runtime: 'C:\\Program Files\\Code\\Code.exe', cli: 'C:\\Users\\a%b\\ext\\dist\\cli.js' });
  const lines = text.split('\r\n');
  assert.deepEqual(lines.filter((l) => !l.startsWith('rem ')), [
    '@echo off', 'setlocal', 'set ELECTRON_RUN_AS_NODE=1', '"C:\\Program Files\\Code\\Code.exe" "C:\\Users\\a%%b\\ext\\dist\\cli.js" %*', '',
  ]);
});
