import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

// Import boundaries (no-restricted-imports): which layer may use what.
const noVscode = { name: 'vscode', message: 'Only src/vscode may import VS Code.' };
const noNode = (why) => ({
  paths: builtinModules.map((name) => ({ name, message: `No Node built-ins here: ${why}.` })),
  patterns: [{ group: ['node:*'], message: `No Node built-ins here: ${why}.` }],
});
const restrict = (paths, node) => ({ paths: [...paths, ...node.paths], patterns: node.patterns });
const noZkClient = { name: 'node-zookeeper-client', message: 'The webview runs in the browser: ZooKeeper is reached through the host.' };

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
  {
    // src/shared is bundled into the webview too: no VS Code and no Node built-ins.
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', restrict([noVscode], noNode('src/shared is bundled into the webview'))] },
  },
  {
    // The webview runs in the browser: it talks to the host only by messages (src/shared/lockQueueMessages.ts).
    files: ['src/webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', restrict([noVscode, noZkClient], noNode('the webview runs in the browser'))] },
  },
  {
    // Text from ZooKeeper reaches the user only through src/vscode/common (notifier, quick input, progress, tree
    // items): those make links, icons and hidden characters literal. Calling VS Code's surfaces directly skips that.
    files: ['src/vscode/**/*.ts'],
    ignores: ['src/vscode/common/**'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "MemberExpression[object.property.name='window'][property.name=/^(showInformationMessage|showWarningMessage|showErrorMessage|setStatusBarMessage|showQuickPick|showInputBox|createQuickPick|createInputBox|withProgress)$/]",
        message: 'Use src/vscode/common (notifier, quickInput, progress): they make ZooKeeper text literal.',
      }],
    },
  },
);
