// Export files are private (issue 24): created 0600 whatever the umask, never written through a symbolic link, and an
// existing file is replaced by a 0600 one rather than rewritten with its old mode.
import { afterEach, beforeEach, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createPrivateFile, SymlinkRefusedError } from '../../src/zk/transfer/privateFile';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('createPrivateFile', () => {
  let dir: string;
  let umask: number;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-private-'));
    // The most permissive umask, so only the code's own mode can keep the file private.
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a new file is created 0600 and holds what was written', () => {
    const file = path.join(dir, 'export.json');
    const out = createPrivateFile(file);
    out.write('{"a":');
    out.write('1}');
    out.commit();
    assert.equal(modeOf(file), 0o600);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"a":1}');
    assert.deepEqual(fs.readdirSync(dir), ['export.json']);
  });

  test('a symbolic link at the name is refused and its target is untouched', () => {
    const target = path.join(dir, 'elsewhere.txt');
    fs.writeFileSync(target, 'keep me', { mode: 0o644 });
    const link = path.join(dir, 'export.json');
    fs.symlinkSync(target, link);
    assert.throws(() => createPrivateFile(link).write('secret'), SymlinkRefusedError);
    assert.equal(fs.readFileSync(target, 'utf8'), 'keep me');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    assert.deepEqual(fs.readdirSync(dir).sort(), ['elsewhere.txt', 'export.json']);
  });

  test('an existing world-readable file is replaced by a 0600 one', () => {
    const file = path.join(dir, 'export.json');
    fs.writeFileSync(file, 'old and longer than the new text', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const out = createPrivateFile(file);
    out.write('new');
    out.commit();
    assert.equal(modeOf(file), 0o600);
    assert.equal(fs.readFileSync(file, 'utf8'), 'new');
  });

  test('a discarded file leaves what was at the name as it was, and no temporary file behind', () => {
    const file = path.join(dir, 'export.json');
    fs.writeFileSync(file, 'before');
    const out = createPrivateFile(file);
    out.write('half');
    out.discard();
    assert.equal(fs.readFileSync(file, 'utf8'), 'before');
    assert.deepEqual(fs.readdirSync(dir), ['export.json']);
  });
});
