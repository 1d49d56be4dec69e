// How the `zooscope` CLI is bundled, shared by scripts/build.mjs (dist/cli.js, also shipped in the vsix) and
// scripts/pack-cli.mjs (the npm package of its own), so both print the same `zooscope --version`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The extension's version: the CLI's too. */
export function extensionVersion() {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;
}

/** esbuild options every Node bundle of the project shares (the extension, the CLI). */
export function nodeBundleOptions({ production }) {
  return {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  };
}

/** esbuild options for the CLI bundle; the shebang is kept from src/cli/main.ts. */
export function cliBuildOptions({ outfile, production }) {
  return {
    ...nodeBundleOptions({ production }),
    entryPoints: [path.join(repoRoot, 'src', 'cli', 'main.ts')],
    outfile,
    // src/cli/main.ts declares it; a bundle built without it (the tests' own) says the version is unknown.
    define: { ZOOSCOPE_CLI_VERSION: JSON.stringify(extensionVersion()) },
  };
}
