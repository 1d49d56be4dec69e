// Packages the extension with @vscode/vsce into .tmp/zooscope.vsix. vsce first runs the manifest's
// `vscode:prepublish` script (the production bundle: scripts/build.mjs --production), as a bare `vsce package` does.
// What goes in is decided by .vscodeignore (dist/, media/, l10n/, package.nls*.json, README.md, CHANGELOG.md,
// LICENSE, package.json); the bundle already contains the runtime dependencies, hence --no-dependencies.
// Usage: node scripts/package.mjs
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.tmp', 'zooscope.vsix');
// A guard against what should never be packed (node_modules, source maps, test output: megabytes each), not a budget
// the features share: the bundles (minified), the README's screenshots and the icon font are ~1 MiB of it.
const MAX_BYTES = 1536 * 1024;

function run(cmd, args) {
  // stdin closed: vsce otherwise waits at prompts (missing repository, license, ...).
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`package: ${[cmd, ...args].join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`);
    process.exit(1);
  }
}

fs.mkdirSync(path.dirname(out), { recursive: true });
fs.rmSync(out, { force: true });
run(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package',
  // Relative links stay relative (vsce would rewrite them to a repository's URL, and refuses without one): the
  // README's screenshots are packed beside it (.vscodeignore).
  '--allow-missing-repository', '--no-rewrite-relative-links', '--no-dependencies', '--out', out]);

const bytes = fs.statSync(out).size;
console.log(`package: ${path.relative(root, out)} ${(bytes / 1024).toFixed(1)} KiB`);
if (bytes > MAX_BYTES) {
  console.error(`package: the vsix is larger than ${MAX_BYTES / 1024} KiB: check .vscodeignore`);
  process.exit(1);
}
