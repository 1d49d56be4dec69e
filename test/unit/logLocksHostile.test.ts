// zooscope log --locks on hostile logs: a checksum that lies, a torn last entry, a 2 GB length, garbage after the
// header, a lock named with bidi controls. Each trouble is said in single lines on stderr, what comes before it is
// still told (the hold and the hand-over), nothing hangs, and names reach stdout only as visible text.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runZooscope } from '../../src/cli/dispatch';
import type { Output } from '../../src/cli/output';
import { TxnType } from '../../src/zk/serverLogs/txnOpCodes';
import { logEntry, logFileHeader, records, snapshotFile, txnPayload, type FixtureTxn } from '../support/fixtures/serverLogFixtures';

const NAME = '\u202Eevil';
const lock = (n: number) => `/locks/${NAME}/_c_0f0e0d0c-0b0a-0908-0706-050403020100-lock-${String(n).padStart(10, '0')}`;
const at = (zxid: bigint, session: bigint, type: number, record: Buffer): FixtureTxn => ({ zxid, session, type, record, time: 1_700_000_000_000n + zxid * 1000n });

/** A hold by session A, a wait by B, the hand-over; then the trouble. */
const GOOD = [
  at(2n, 0xan, TxnType.create, records.create(lock(0), '', true, 1)),
  at(3n, 0xbn, TxnType.create, records.create(lock(1), '', true, 2)),
  at(4n, 0xan, TxnType.delete, records.delete(lock(0))),
];

const TROUBLES: { name: string; tail: Buffer; says: RegExp }[] = [
  { name: 'a checksum that lies', tail: Buffer.concat([logEntry(txnPayload(at(5n, 0xbn, TxnType.delete, records.delete(lock(1)))), { checksum: 12345n }), logEntry(txnPayload(at(6n, 0xcn, TxnType.setData, records.setData('/x', 'y', 1))))]), says: /checksum/ },
  { name: 'a torn last entry', tail: logEntry(txnPayload(at(5n, 0xbn, TxnType.delete, records.delete(lock(1))))).subarray(0, 20), says: /torn|cut/ },
  { name: 'a length of 2 GB', tail: Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), Buffer.from([0x7f, 0xff, 0xff, 0xf0]), Buffer.alloc(64, 1)]), says: /length/ },
  { name: 'garbage after the header', tail: Buffer.from('this is not a ZooKeeper log entry at all, just text that goes on and on'), says: /./ },
];

for (const trouble of TROUBLES) {
  test(`zooscope log --locks with ${trouble.name}: single lines on stderr, the hand-over before it still told, names visible`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-hostile-locks-'));
    try {
      fs.writeFileSync(path.join(dir, 'snapshot.1'), snapshotFile({ nodes: [{ path: '' }, { path: '/locks' }, { path: `/locks/${NAME}` }], digest: { zxid: 1n, version: 2, digest: 1n } }));
      fs.writeFileSync(path.join(dir, 'log.2'), Buffer.concat([logFileHeader(), ...GOOD.map((t) => logEntry(txnPayload(t))), trouble.tail]));
      let stdout = '';
      const errors: string[] = [];
      const out = {
        text: (t: string) => { stdout += `${t}\n`; }, exact: (t: string) => { stdout += t; }, json: (v: unknown) => { stdout += JSON.stringify(v); },
        error: (t: string) => errors.push(t), closed: false,
      } as unknown as Output;
      const code = await runZooscope(['log', dir, '--locks', '/locks'], out, 'test');
      assert.equal(code, 1, `${stdout}\n${errors.join('\n')}`);
      assert.ok(errors.length >= 1 && errors.length <= 3, errors.join('\n'));
      assert.ok(errors.every((line) => !line.includes('\n')), 'each trouble is one line');
      assert.ok(errors.some((line) => trouble.says.test(line)), errors.join('\n'));
      assert.doesNotMatch(stdout, /\u202E/, 'no raw bidi control on stdout');
      assert.match(stdout, /\[U\+202E\]evil/, stdout);
      assert.match(stdout, /acquisitions/i, 'the figures are still printed');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
