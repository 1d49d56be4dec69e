// The lint rules that keep the VS Code layer's shape: each would let a violation through if it were written
// wrong, so each is run here on a file that breaks it (linted as if it sat at the given path).
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../../..');

async function problems(file: string, code: string): Promise<string[]> {
  // Without type information: the probe files exist in no tsconfig, and the rules checked here need none.
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false, project: null } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
    },
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  assert.deepStrictEqual(result.messages.filter((m) => m.fatal), [], 'the probe parses');
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

test('a feature may use another feature only through its index', async () => {
  const inside = await problems('src/vscode/lockQueue/probe.ts', "import { HeldLocks } from '../heldLocks/heldLocks';\nexport const x = HeldLocks;\n");
  assert.match(inside.join('\n'), /only through its index/);
  const index = await problems('src/vscode/lockQueue/probe.ts', "import type { HeldLocksApi } from '../heldLocks';\nexport type X = HeldLocksApi;\n");
  assert.deepStrictEqual(index, []);
});

test('core and common use no feature', async () => {
  for (const file of ['src/vscode/core/probe.ts', 'src/vscode/common/probe.ts', 'src/vscode/core/tree/probe.ts']) {
    const up = file.includes('/tree/') ? '../..' : '..';
    const found = await problems(file, `import { register } from '${up}/search';\nexport const x = register;\n`);
    assert.match(found.join('\n'), /use none/, file);
  }
});

test('commands are registered through the wrapper and named by their constants', async () => {
  const found = await problems('src/vscode/nodes/probe.ts', [
    "import * as vscode from 'vscode';",
    "export const a = vscode.commands.registerCommand('zooscope.createNode', () => undefined);",
    "export const b = vscode.commands.executeCommand('zooscope.goToPath');",
    "export const c = vscode.commands.executeCommand('setContext', 'zooscope.hasLiveLocks', true);",
    '',
  ].join('\n'));
  assert.strictEqual(found.filter((m) => /core\/commands/.test(m)).length, 1, found.join('\n'));
  assert.strictEqual(found.filter((m) => /constants of core\/commandIds/.test(m)).length, 1, found.join('\n'));
});

test('shared uses no layer: not zk, not cli, not vscode', async () => {
  for (const from of ['../zk/analysis', '../zk/paths', '../cli/output', '../vscode/common/format']) {
    const found = await problems('src/shared/probe.ts', `import { x } from '${from}';\nexport const y = x;\n`);
    assert.match(found.join('\n'), /uses none of them/, from);
  }
  const vscode = await problems('src/shared/probe.ts', "import * as vscode from 'vscode';\nexport const y = vscode;\n");
  assert.match(vscode.join('\n'), /Only src\/vscode may import VS Code/);
  const sibling = await problems('src/shared/probe.ts', "import type { LockAnalysis } from './lockAnalysis';\nexport type Y = LockAnalysis;\n");
  assert.deepStrictEqual(sibling, []);
});

test('common is a leaf: it uses no core file', async () => {
  for (const from of ['../core/core', '../core/tree/treeItems', '../shell']) {
    const found = await problems('src/vscode/common/probe.ts', `import { x } from '${from}';\nexport const y = x;\n`);
    assert.match(found.join('\n'), /common\/ is a leaf/, from);
  }
  const sibling = await problems('src/vscode/common/probe.ts', "import { log } from './log';\nexport const y = log;\n");
  assert.deepStrictEqual(sibling, []);
});

test('shell is a feature: others reach it only through its index', async () => {
  const inside = await problems('src/vscode/nodes/probe.ts', "import { x } from '../shell/shellTerminal';\nexport const y = x;\n");
  assert.match(inside.join('\n'), /only through its index/);
  const fromCore = await problems('src/vscode/core/probe.ts', "import { register } from '../shell';\nexport const y = register;\n");
  assert.match(fromCore.join('\n'), /use none/);
});

test('src/zk builds upward: no folder uses one on its own floor or above, the root files use no folder', async () => {
  // The imports that once ran back up (security → protocol, → servers, stat → protocol, tree → write, tunnel →
  // security), one between two folders of a floor, and a root file that used folders (quota.ts did).
  const upward: [string, string][] = [
    ['src/zk/security/probe.ts', '../protocol/opcodes'],
    ['src/zk/security/probe.ts', '../servers/ensembleStatus'],
    ['src/zk/session/probe.ts', '../servers/serverTables'],
    ['src/zk/tree/probe.ts', '../write/guard'],
    ['src/zk/tunnel/probe.ts', '../security/secureTransport'],
    ['src/zk/session/probe.ts', '../serverLogs/txnTypes'],
    ['src/zk/probe.ts', './protocol/jute'],
    ['src/zk/probe.ts', './session/session'],
  ];
  for (const [file, from] of upward) {
    const found = await problems(file, `import { x } from '${from}';\nexport const y = x;\n`);
    assert.match(found.join('\n'), /src\/zk builds upward/, `${file} → ${from}`);
  }
  const downward: [string, string][] = [
    ['src/zk/compare/probe.ts', '../transfer'], ['src/zk/compare/probe.ts', '../session/session'], ['src/zk/compare/probe.ts', './snapshot'],
    ['src/zk/protocol/probe.ts', '../security/sasl'], ['src/zk/tree/probe.ts', '../paths'], ['src/zk/probe.ts', './errors'],
  ];
  for (const [file, from] of downward) {
    assert.deepStrictEqual(await problems(file, `import { x } from '${from}';\nexport const y = x;\n`), [], `${file} → ${from}`);
  }
  const vscode = await problems('src/zk/tree/probe.ts', "import * as vscode from 'vscode';\nexport const y = vscode;\n");
  assert.match(vscode.join('\n'), /Only src\/vscode may import VS Code/);
});

test('the webview reaches the other layers only through src/shared', async () => {
  for (const from of ['../../zk/history/timeline', '../../zk/history', '../../vscode/lockQueue/panelHistory', '../../cli/output']) {
    const found = await problems('src/webview/lockQueue/probe.ts', `import type { X } from '${from}';\nexport type Y = X;\n`);
    assert.match(found.join('\n'), /only by messages/, from);
  }
  const shared = await problems('src/webview/lockQueue/probe.ts', "import type { TimelineData } from '../../shared/lockHistory';\nexport type Y = TimelineData;\n");
  assert.deepStrictEqual(shared, []);
});

test('every folder of src/vscode but core and common is a fenced feature, compare included', async () => {
  const features = fs.readdirSync(path.join(root, 'src/vscode'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'core' && entry.name !== 'common').map((entry) => entry.name);
  assert.ok(features.includes('compare'), features.join(', '));
  for (const feature of features) {
    const other = features.find((f) => f !== feature)!;
    const into = await problems(`src/vscode/${feature}/probe.ts`, `import { x } from '../${other}/inside';\nexport const y = x;\n`);
    assert.match(into.join('\n'), /only through its index/, `${feature} -> ${other}`);
    const from = await problems(`src/vscode/${other}/probe.ts`, `import { x } from '../${feature}/inside';\nexport const y = x;\n`);
    assert.match(from.join('\n'), /only through its index/, `${other} -> ${feature}`);
    const fromCore = await problems('src/vscode/core/probe.ts', `import { register } from '../${feature}';\nexport const y = register;\n`);
    assert.match(fromCore.join('\n'), /use none/, `core -> ${feature}`);
  }
});
