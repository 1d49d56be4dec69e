// `zooscope` on the integrated terminal's PATH: the extension's environment variable collection prepends a folder
// whose launcher runs the bundled dist/cli.js with the extension host's own Node (or Electron as Node).
import * as assert from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../../support/waiting';
import { services } from './zooscope';

function extensionVersion(): string {
  const ext = vscode.extensions.getExtension('zooscope.zooscope');
  assert.ok(ext, 'extension not loaded');
  return (ext.packageJSON as { version: string }).version;
}

describe('zooscope on the terminal PATH', () => {
  it('the collection prepends a folder whose zooscope runs the bundled CLI, with no node on PATH', async () => {
    const s = await services();
    const { collection, binDir } = s.cliOnPath;
    const mutator = collection.get('PATH');
    assert.ok(mutator, 'PATH is not in the collection');
    assert.strictEqual(mutator.type, vscode.EnvironmentVariableMutatorType.Prepend);
    assert.strictEqual(mutator.value, `${binDir}${path.delimiter}`);
    assert.match(String(collection.description), /zooscope/);
    // The folder alone as PATH: found as a terminal finds it, and it needs no node of the terminal's own.
    const shown = await new Promise<{ error: Error | null; stdout: string; stderr: string }>((resolve) => {
      execFile('zooscope', ['--version'], { env: { PATH: mutator.value } }, (error, stdout, stderr) => resolve({ error, stdout, stderr }));
    });
    assert.deepStrictEqual([shown.error?.message, shown.stdout, shown.stderr], [undefined, `${extensionVersion()}\n`, '']);
  });

  it('a terminal VS Code starts runs zooscope --version', async () => {
    await services();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-terminal-'));
    const result = path.join(dir, 'version.txt');
    // Written whole (a rename) once the command has ended, with its exit status.
    const script = 'zooscope --version > "$0.part" 2>&1; echo "exit=$?" >> "$0.part"; mv "$0.part" "$0"';
    const terminal = vscode.window.createTerminal({ name: 'zooscope PATH test', shellPath: '/bin/sh', shellArgs: ['-c', script, result] });
    try {
      const written = await waitFor('the terminal\'s zooscope --version', async () => fs.existsSync(result) && fs.readFileSync(result, 'utf8'), 60000);
      assert.strictEqual(written, `${extensionVersion()}\nexit=0\n`);
    } finally {
      terminal.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('zooscope.terminal.addCliToPath off takes PATH out of the collection; on puts it back', async () => {
    const { cliOnPath } = await services();
    const config = vscode.workspace.getConfiguration('zooscope.terminal');
    try {
      await config.update('addCliToPath', false, vscode.ConfigurationTarget.Global);
      await waitFor('PATH gone from the collection', async () => cliOnPath.collection.get('PATH') === undefined);
    } finally {
      await config.update('addCliToPath', undefined, vscode.ConfigurationTarget.Global);
    }
    const back = await waitFor('PATH back in the collection', async () => cliOnPath.collection.get('PATH'));
    assert.strictEqual(back.value, `${cliOnPath.binDir}${path.delimiter}`);
  });
});
