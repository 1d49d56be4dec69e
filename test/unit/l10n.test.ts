// Every user-visible string has its Simplified Chinese translation, and every %key% of package.json exists in
// both package.nls files.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const CALL = /(?<![\w.])(?:vscode\.l10n\.t|t)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

function l10nStrings(dir: string): Set<string> {
  const found = new Set<string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) l10nStrings(full).forEach((s) => found.add(s));
    else if (entry.name.endsWith('.ts')) {
      for (const m of fs.readFileSync(full, 'utf8').matchAll(CALL)) {
        found.add(m[2].replace(/\\(['"`\\])/g, '$1'));
      }
    }
  }
  return found;
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, string>;

test('every l10n.t string in src has a zh-cn translation', () => {
  const bundle = readJson('l10n/bundle.l10n.zh-cn.json');
  const strings = l10nStrings(path.join(root, 'src'));
  assert.ok(strings.size > 50, `found only ${strings.size} strings: the scanner is broken`);
  const missing = [...strings].filter((s) => !(s in bundle));
  assert.deepEqual(missing, []);
  for (const [english, chinese] of Object.entries(bundle)) {
    const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort().join();
    assert.equal(placeholders(chinese), placeholders(english), `placeholders differ for "${english}"`);
  }
});

test('every %key% in package.json exists in package.nls.json and package.nls.zh-cn.json', () => {
  const manifest = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
  const keys = [...manifest.matchAll(/"%([\w.]+)%"/g)].map((m) => m[1]);
  assert.ok(keys.length > 20);
  const en = readJson('package.nls.json');
  const zh = readJson('package.nls.zh-cn.json');
  assert.deepEqual(keys.filter((k) => !(k in en)), []);
  assert.deepEqual(keys.filter((k) => !(k in zh)), []);
  assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort());
});

test('every zh-cn translation is of a string src still shows (none left behind by removed code)', () => {
  const bundle = readJson('l10n/bundle.l10n.zh-cn.json');
  const strings = l10nStrings(path.join(root, 'src'));
  assert.deepEqual(Object.keys(bundle).filter((english) => !strings.has(english)), []);
});
