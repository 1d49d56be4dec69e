// Smoke test inside the extension host: ZooScope is installed, activates, and registers its commands.
import * as assert from 'node:assert';
import * as vscode from 'vscode';

const EXTENSION_ID = 'zooscope.zooscope';

describe('ZooScope activation', () => {
  it('is present and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('registers every contributed command', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const contributed: { command: string }[] = ext.packageJSON?.contributes?.commands ?? [];
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('contributes the ZooScope explorer view', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    const views: Record<string, { id: string }[]> = ext?.packageJSON?.contributes?.views ?? {};
    assert.ok(views.zooscope?.some((v) => v.id === 'zooscope.explorer'), 'view zooscope.explorer not in container zooscope');
  });
});
