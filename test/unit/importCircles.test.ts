// No two source files import each other, directly or around a loop (type-only imports count too: a loop of types
// still means neither file can be read, moved or tested without the other). Lint fences the layers and the floors
// between folders; this keeps the files inside one folder honest.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(__dirname, '../../..');
const IMPORT = /^\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => resolveImport(file, m[1])).filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.map((f) => path.relative(root, f)).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

test('the circle finder finds a loop of three files and nothing in a chain', () => {
  const loop = new Map([['/r/a.ts', ['/r/b.ts']], ['/r/b.ts', ['/r/c.ts']], ['/r/c.ts', ['/r/a.ts']], ['/r/d.ts', ['/r/a.ts']]]);
  assert.strictEqual(circles(loop).length, 1);
  assert.strictEqual(circles(loop)[0].length, 3);
  assert.deepStrictEqual(circles(new Map([['/r/a.ts', ['/r/b.ts']], ['/r/b.ts', []]])), []);
});

test('no source files import each other around a loop', () => {
  const found = circles(importGraph(sourceFiles(path.join(root, 'src'))));
  assert.deepStrictEqual(found, [], `import circles:\n${found.map((c) => c.join(' ↔ ')).join('\n')}`);
});
