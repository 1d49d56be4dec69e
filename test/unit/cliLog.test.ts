import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runZooscope } from '../../src/cli/dispatch';
import type { Output } from '../../src/cli/output';
import { logFile, records } from '../support/fixtures/serverLogFixtures';

test('zooscope log --json: one JSON line a transaction, data as text or base64, a torn file one stderr line', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-log-'));
  try {
    fs.mkdirSync(path.join(dir, 'version-2'));
    fs.writeFileSync(path.join(dir, 'version-2', 'log.1'), logFile([
      { zxid: 1n, session: 0x100000abcn, time: 1700000000123n, type: 1, record: records.create('/a', 'hello') },
      { zxid: 2n, session: 0x100000abcn, type: 5, record: records.setData('/a', Buffer.from([0xff, 0]), 1) },
    ]));
    fs.writeFileSync(path.join(dir, 'version-2', 'log.3'), logFile([{ zxid: 3n, type: 2, record: records.delete('/a') }]).subarray(0, 30));
    const lines: string[] = [];
    const errors: string[] = [];
    const out = {
      text: (t: string) => lines.push(t), exact: (t: string) => lines.push(...t.split('\n').filter(Boolean)), error: (t: string) => errors.push(t), closed: false,
    } as unknown as Output;
    assert.equal(await runZooscope(['log', dir, '--json'], out, 'test'), 1);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(parsed[0], { zxid: '0x1', time: 1700000000123, session: '0x100000abc', op: 'create', path: '/a', data: 'hello', acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], ephemeral: false, parentCVersion: 1 });
    assert.equal(parsed[1].dataBase64, '/wA=');
    assert.equal(parsed.length, 2);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /log\.3.*torn/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('zooscope log --json: a hostile path keeps its exact value, its hidden characters as JSON escapes, one line still one line', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-log-'));
  const hostile = '/a\u202Eb\n{"op":"delete","path":"/victim"}\u200B';
  try {
    fs.writeFileSync(path.join(dir, 'log.1'), logFile([{ zxid: 1n, session: 1n, type: 2, record: records.delete(hostile) }]));
    let written = '';
    const out = { text: () => assert.fail('--json writes JSON lines only'), exact: (t: string) => { written += t; }, error: () => undefined, closed: false } as unknown as Output;
    assert.equal(await runZooscope(['log', path.join(dir, 'log.1'), '--json'], out, 'test'), 0);
    assert.equal(written.split('\n').length, 2, written);
    assert.doesNotMatch(written, /[\u202E\u200B]/);
    assert.equal((JSON.parse(written) as { path: string }).path, hostile);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('zooscope log (text): a path with a line break stays on its transaction\'s line, its hidden characters visible', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-log-'));
  try {
    fs.writeFileSync(path.join(dir, 'log.1'), logFile([
      { zxid: 1n, session: 1n, type: 2, record: records.delete('/a\n0x2 2026-01-01T00:00:00.000Z 0x1 delete /victim\u202E') },
      { zxid: 2n, session: 1n, type: 2, record: records.delete('/b') },
    ]));
    let written = '';
    const out = { text: (t: string) => { written += `${t}\n`; }, exact: (t: string) => { written += t; }, error: () => undefined, closed: false } as unknown as Output;
    assert.equal(await runZooscope(['log', path.join(dir, 'log.1')], out, 'test'), 0);
    const lines = written.trimEnd().split('\n');
    assert.equal(lines.length, 2, written);
    assert.match(lines[0], /delete \/a\[U\+000A\]0x2 .*\/victim\[U\+202E\]$/);
    assert.match(lines[1], /^0x2 .* delete \/b$/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
