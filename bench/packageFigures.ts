// Bench 4: what ships and how fast it starts. Sizes of .tmp/zooscope.vsix (`npm run package`) and
// dist/extension.js; activation time as the extension itself logged it ("ZooScope activated in N ms") in the
// logs a UI test run left under .tmp/ or test-results/. It cannot be measured outside VS Code (the bundle
// imports vscode), so without such logs there is no figure.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Row, summarize } from './stats';

export interface ActivationLog {
  file: string;
  mtime: string;
  ms: number;
  line: string;
}

export interface PackageFigures {
  rows: Row[];
  vsix?: { path: string; bytes: number; mtime: string };
  bundle?: { path: string; bytes: number; mtime: string };
  activation: ActivationLog[];
  notes: string[];
}

const ACTIVATED = /ZooScope activated in (\d+) ms.*$/;

function walk(dir: string, depth: number, out: string[]): void {
  if (depth < 0) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'extensions') walk(full, depth - 1, out);
    } else if (entry.isFile() && entry.name.endsWith('.log')) {
      // The output channel's own file (…/exthost*/output_logging_*/N-ZooScope.log) or any exthost log.
      if (/zooscope/i.test(entry.name) || /[/\\]exthost\d*[/\\]/.test(full)) out.push(full);
    }
  }
}

/** Every "ZooScope activated in N ms" line in the logs under `roots`, newest file first. */
export function findActivationLogs(roots: string[]): ActivationLog[] {
  const files: string[] = [];
  for (const root of roots) walk(root, 12, files);
  const found: (ActivationLog & { mtimeMs: number })[] = [];
  for (const file of files) {
    let text: string;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
      if (stat.size > 20 * 1024 * 1024) continue;
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const m = ACTIVATED.exec(line);
      if (m) found.push({ file, mtime: stat.mtime.toISOString(), mtimeMs: stat.mtimeMs, ms: Number(m[1]), line: line.trim() });
    }
  }
  // The same line can be in the channel's file and in a copy of the logs (test-results/logs): keep one.
  const seen = new Set<string>();
  return found
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .filter((f) => (seen.has(f.line) ? false : (seen.add(f.line), true)))
    .map(({ file, mtime, ms, line }) => ({ file, mtime, ms, line }));
}

function sizeOf(file: string): { path: string; bytes: number; mtime: string } | undefined {
  try {
    const stat = fs.statSync(file);
    return { path: file, bytes: stat.size, mtime: stat.mtime.toISOString() };
  } catch {
    return undefined;
  }
}

export function packageFigures(repoRoot: string): PackageFigures {
  const notes: string[] = [];
  const rows: Row[] = [];
  const one = (value: number) => ({ n: 1, median: value, min: value, max: value });
  const vsix = sizeOf(path.join(repoRoot, '.tmp', 'zooscope.vsix'));
  if (vsix) {
    rows.push({ bench: 'package', case: `.tmp/zooscope.vsix (${vsix.bytes} bytes)`, unit: 'KiB', summary: one(vsix.bytes / 1024), goal: { op: '<', value: 1024 } });
  } else notes.push('no .tmp/zooscope.vsix: `npm run package` did not run or failed');
  const bundle = sizeOf(path.join(repoRoot, 'dist', 'extension.js'));
  if (bundle) rows.push({ bench: 'package', case: `dist/extension.js (${bundle.bytes} bytes)`, unit: 'KiB', summary: one(bundle.bytes / 1024) });
  else notes.push('no dist/extension.js');

  const activation = findActivationLogs([path.join(repoRoot, '.tmp'), path.join(repoRoot, 'test-results')]);
  if (activation.length) {
    const latest = activation[0];
    rows.push({ bench: 'activation', case: 'ZooScope activated in N ms (latest log)', unit: 'ms', summary: one(latest.ms) });
    notes.push(`activation: from ${path.relative(repoRoot, latest.file)} (${latest.mtime}): "${latest.line}"; timed inside activate(), so loading the bundle is not included`);
    if (activation.length > 1) {
      const all = activation.map((a) => a.ms);
      rows.push({ bench: 'activation', case: `all ${activation.length} logged under .tmp/, test-results/`, unit: 'ms', summary: summarize(all), samples: all });
    }
  } else {
    notes.push('activation: no "ZooScope activated in N ms" line under .tmp/ or test-results/ (run the UI tests, scripts/host/run-ui-tests.sh, first); it cannot be measured outside VS Code');
  }
  return { rows, vsix, bundle, activation, notes };
}
