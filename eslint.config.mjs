import tseslint from 'typescript-eslint';

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
    // The ZooKeeper layer must stay free of VS Code.
    files: ['src/zk/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
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
