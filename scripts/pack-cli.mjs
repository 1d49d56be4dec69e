// Packs the `zooscope` CLI as an npm package of its own, for hosts with Node but no VS Code and no checkout:
// the CLI bundled with every runtime dependency (scripts/lib/cliBuild.mjs, as dist/cli.js is), a manifest with no
// dependencies, a README (scripts/pack-cli.README.md with the bundle's own --help) and the license, packed by
// `npm pack`. It never writes dist/: UI tests may be running the extension from there.
// Usage: node scripts/pack-cli.mjs [--out-dir <dir>]   (default .tmp; writes <dir>/zooscope-cli-<version>.tgz)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { cliBuildOptions, extensionVersion, repoRoot } from './lib/cliBuild.mjs';

const PACKAGE_NAME = 'zooscope-cli';
/** esbuild's target in cliBuildOptions. */
const NODE_RANGE = '>=18.7';

function fail(message) {
  console.error(`pack-cli: ${message}`);
  process.exit(1);
}

function outDirFromArgs(argv) {
  const at = argv.indexOf('--out-dir');
  if (at === -1) return path.join(repoRoot, '.tmp');
  if (!argv[at + 1]) fail('--out-dir needs a folder');
  return path.resolve(argv[at + 1]);
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) fail(`${[cmd, ...args].join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})\n${r.stderr ?? ''}`);
  return r.stdout;
}

function manifest(version) {
  const root = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  return {
    name: PACKAGE_NAME,
    version,
    description: 'zooscope: the command line of ZooScope for Apache ZooKeeper (lock queues, taking a lock by hand, zkCli-exact shell)',
    license: root.license,
    bin: { zooscope: 'cli.js' },
    files: ['cli.js'],
    engines: { node: NODE_RANGE },
    keywords: ['zookeeper', 'zkcli', 'distributed lock', 'lock queue', 'curator', 'kazoo', 'cli'],
    // Loaded only for --kerberos (src/zk/security/kerberos.ts); never installed by npm for this package.
    peerDependencies: { kerberos: '>=2.0.0' },
    peerDependenciesMeta: { kerberos: { optional: true } },
  };
}

function readme(version, cli) {
  const usage = run(process.execPath, [cli, '--help'], repoRoot).trimEnd();
  const template = fs.readFileSync(path.join(repoRoot, 'scripts', 'pack-cli.README.md'), 'utf8');
  const values = { version, node: NODE_RANGE, usage };
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name) => values[name] ?? fail(`unknown placeholder ${whole} in pack-cli.README.md`));
}

const outDir = outDirFromArgs(process.argv.slice(2));
const version = extensionVersion();
const stage = path.join(outDir, `${PACKAGE_NAME}-stage`);
fs.rmSync(stage, { recursive: true, force: true });
fs.mkdirSync(stage, { recursive: true });

const cli = path.join(stage, 'cli.js');
await esbuild.build(cliBuildOptions({ outfile: cli, production: true }));
fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(manifest(version), null, 2) + '\n');
fs.writeFileSync(path.join(stage, 'README.md'), readme(version, cli));
fs.copyFileSync(path.join(repoRoot, 'LICENSE'), path.join(stage, 'LICENSE'));

const [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], stage));
const tgz = path.join(outDir, packed.filename);
if (!fs.existsSync(tgz)) fail(`npm pack reported ${packed.filename}, which is not in ${outDir}`);
fs.rmSync(stage, { recursive: true, force: true });
console.log(`pack-cli: ${path.relative(process.cwd(), tgz) || tgz} (${(packed.size / 1024).toFixed(1)} KiB, ${packed.entryCount} files)`);
