import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runLog } from '../../src/cli/logCommand';
import type { Output } from '../../src/cli/output';
import { logFile, records } from '../support/serverLogFixtures';

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
    const out = { text: (t: string) => lines.push(t), error: (t: string) => errors.push(t), closed: false } as unknown as Output;
    assert.equal(await runLog([dir, '--json'], out), 1);
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
