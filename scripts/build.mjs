// Bundles the extension and the `zooscope` CLI with esbuild; types are checked separately by `tsc --noEmit`.
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';
import { cliBuildOptions, nodeBundleOptions } from './lib/cliBuild.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = nodeBundleOptions({ production });

const builds = [
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  cliBuildOptions({ outfile: 'dist/cli.js', production }),
  // The lock-queue webview's front-end runs in the browser.
  { ...common, platform: 'browser', format: 'iife', target: 'es2020', entryPoints: ['src/webview/lockQueue/main.ts'], outfile: 'dist/webview/lockQueue.js' },
];

// The webview's icon font ships from dist/ (the vsix has no node_modules).
fs.mkdirSync('dist/webview', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/webview/${file}`);

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
