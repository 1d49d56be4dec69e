// The CLI bundled with esbuild as `npm run build` bundles dist/cli.js, built once per content of its inputs and
// shared by the test files that run it (each used to bundle its own copy, about a second apiece). It lives in
// .tmp/cli-bundle-<hash of src/ and package-lock.json>/, so a changed source is always bundled afresh and a parallel
// `npm run build` cannot swap it mid-test.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from '../thirdParty/driver';

/** Every file under `dir`, sorted, as paths relative to `root`. */
function filesUnder(root: string, dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(root, relative));
    else if (entry.isFile()) found.push(relative);
  }
  return found.sort();
}

function inputsHash(root: string): string {
  const hash = createHash('sha256');
  hash.update(esbuild.version);
  for (const file of [...filesUnder(root, 'src'), 'package-lock.json']) {
    hash.update(`\0${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

let bundled: Promise<string> | undefined;

/** The path of the bundled CLI (`node <path> lock …`), bundled now unless this content was bundled before. */
export function sharedCliBundle(): Promise<string> {
  bundled ??= bundle();
  return bundled;
}

async function bundle(): Promise<string> {
  const root = repoRoot();
  const dir = path.join(root, '.tmp', `cli-bundle-${inputsHash(root)}`);
  const cli = path.join(dir, 'cli.js');
  if (fs.existsSync(cli)) return cli;
  // Bundled beside and renamed: another test process may be bundling the same sources at the same time.
  const building = `${dir}.${process.pid}`;
  await esbuild.build({ entryPoints: [path.join(root, 'src', 'cli', 'main.ts')], outfile: path.join(building, 'cli.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning' });
  try {
    fs.renameSync(building, dir);
  } catch {
    fs.rmSync(building, { recursive: true, force: true }); // the other process won
  }
  return cli;
}
