import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import tseslint from 'typescript-eslint';

// Import boundaries (no-restricted-imports): which layer may use what.
const noVscode = { name: 'vscode', message: 'Only src/vscode may import VS Code.' };
const noNode = (why) => ({
  paths: builtinModules.map((name) => ({ name, message: `No Node built-ins here: ${why}.` })),
  patterns: [{ group: ['node:*'], message: `No Node built-ins here: ${why}.` }],
});
const restrict = (paths, node) => ({ paths: [...paths, ...node.paths], patterns: node.patterns });
// src/vscode's feature folders: each may use core/ and common/, and another feature only through its index. Every
// folder but those two is a feature, read from the disk so a new one is fenced without anyone listing it.
const FEATURES = fs.readdirSync(path.join(import.meta.dirname, 'src/vscode'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'core' && entry.name !== 'common')
  .map((entry) => entry.name)
  .sort();
const featureBoundaries = FEATURES.map((feature) => ({
  files: [`src/vscode/${feature}/**/*.ts`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{
        group: FEATURES.filter((other) => other !== feature).map((other) => `../${other}/*`),
        message: 'Another feature is used only through its index (its register() and exported API).',
      }],
    }],
  },
}));
const noFeatures = {
  files: ['src/vscode/core/**/*.ts'],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{
        group: FEATURES.flatMap((f) => [`../${f}`, `../${f}/*`, `../../${f}`, `../../${f}/*`]),
        message: 'core/ serves every feature and may use none.',
      }],
    }],
  },
};
const noLayers = {
  group: ['../zk', '../zk/*', '../vscode', '../vscode/*', '../cli', '../cli/*'],
  message: 'src/shared is used by src/zk, src/vscode, src/cli and the webview, and uses none of them.',
};
const withLayers = (rule, pattern) => ({ ...rule, patterns: [...rule.patterns, pattern] });
// common/ is the leaf every other folder of src/vscode builds on: what needs core/ belongs in core/.
const commonIsLeaf = {
  files: ['src/vscode/common/**/*.ts'],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{
        group: ['core', ...FEATURES].flatMap((f) => [`../${f}`, `../${f}/*`, `../../${f}`, `../../${f}/*`]),
        message: 'common/ is a leaf: core/ and every feature build on it, and it may use none of them.',
      }],
    }],
  },
};
const noZkClient = { name: 'node-zookeeper-client', message: 'The webview runs in the browser: ZooKeeper is reached through the host.' };
// The webview (src/webview/<view>/) imports only src/shared of the other layers: what crosses is in the messages.
const webviewLayers = {
  group: ['zk', 'vscode', 'cli'].flatMap((layer) => [`../${layer}`, `../${layer}/*`, `../../${layer}`, `../../${layer}/*`]),
  message: 'The webview reaches the host only by messages: the types they carry are in src/shared.',
};

// src/zk builds upward, floor by floor (docs/architecture.md draws it): the root's files are the ground and use no
// folder; a folder uses the root's files and the folders on lower floors, never one on its own floor or above.
// Folders not listed here share a floor above all the others until each is given its own.
const ZK_FLOORS = [
  ['tunnel'], ['probes'], ['security'], ['protocol'], ['session', 'serverLogs'], ['servers', 'tree'],
  ['search', 'decoders'], ['write', 'shell', 'analysis'], ['transfer', 'locks', 'history', 'census'], ['compare', 'metrics'],
];
const zkFolders = fs.readdirSync(new URL('src/zk', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const zkFloors = [...ZK_FLOORS, zkFolders.filter((folder) => !ZK_FLOORS.flat().includes(folder))];
const zkFloorOf = (folder) => zkFloors.findIndex((floor) => floor.includes(folder));
const zkUpward = (files, up, notBelow) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', {
      // This block replaces the rule's options for src/zk: VS Code stays out here too.
      paths: [noVscode],
      patterns: notBelow.length === 0 ? [] : [{
        group: notBelow.flatMap((folder) => [`${up}/${folder}`, `${up}/${folder}/*`]),
        message: 'src/zk builds upward: its root files use no folder, a folder only the root files and the folders on lower floors (ZK_FLOORS in eslint.config.mjs).',
      }],
    }],
  },
});
const zkBuildsUpward = [
  zkUpward(['src/zk/*.ts'], '.', zkFolders),
  ...zkFolders.map((folder) => zkUpward([`src/zk/${folder}/**/*.ts`], '..',
    zkFolders.filter((other) => other !== folder && zkFloorOf(other) >= zkFloorOf(folder)))),
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'media/**', 'scripts/**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test's test()/describe() return promises the runner itself awaits.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }],
      }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // The ZooKeeper layer and the CLI must stay free of VS Code.
    files: ['src/zk/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  ...zkBuildsUpward,
  {
    // src/shared is bundled into the webview too: no VS Code and no Node built-ins. It is what the layers share, so
    // it uses none of them (src/zk imports it; the reverse would be a cycle).
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', withLayers(restrict([noVscode], noNode('src/shared is bundled into the webview')), noLayers)] },
  },
  {
    // The webview runs in the browser: it talks to the host only by messages (src/shared/lockQueueMessages.ts).
    files: ['src/webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', withLayers(restrict([noVscode, noZkClient], noNode('the webview runs in the browser')), webviewLayers)] },
  },
  ...featureBoundaries,
  noFeatures,
  commonIsLeaf,
  {
    // Text from ZooKeeper reaches the user only through src/vscode/common (notifier, quick input, progress, tree
    // items): those make links, icons and hidden characters literal. Calling VS Code's surfaces directly skips that.
    files: ['src/vscode/**/*.ts'],
    ignores: ['src/vscode/common/**', 'src/vscode/core/commands.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "MemberExpression[object.property.name='window'][property.name=/^(showInformationMessage|showWarningMessage|showErrorMessage|setStatusBarMessage|showQuickPick|showInputBox|createQuickPick|createInputBox|withProgress)$/]",
        message: 'Use src/vscode/common (notifier, quickInput, progress): they make ZooKeeper text literal.',
      }, {
        selector: "CallExpression[callee.property.name='registerCommand']",
        message: 'Register commands through core/commands (registerCommands): it reports failures the same way for all.',
      }, {
        selector: "CallExpression[callee.property.name='executeCommand'][arguments.0.value=/^zooscope\\./]",
        message: 'Name our commands by the constants of core/commandIds.',
      }],
    },
  },
);
