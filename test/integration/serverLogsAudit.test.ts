// `zooscope log --audit` on what a real ZooKeeper 3.8.0 wrote with audit.enable=true: two clients in two sessions
// (one authenticated by digest, so its audit user differs) create, change and delete nodes; each write's client and
// user must be the ones the server's audit log gives for that session, and a write whose audit line is gone must get
// none. The server runs in India's zone (UTC+05:30) so its audit times are not UTC, as on many real servers.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startStandalone, type ZkCluster } from '../support/servers/zkServer';
import { zooscopeLog } from '../support/clients/zooscopeLog';
import { connectOtherClient } from '../support/clients/zkClient';

/** The audit file's own word, split plainly (not by the reader under test): session → its users and addresses. */
function auditTruth(file: string): Map<string, { users: Set<string>; ips: Set<string> }> {
  const truth = new Map<string, { users: Set<string>; ips: Set<string> }>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const fields = Object.fromEntries(line.split('\t').map((field) => [field.replace(/^.*?(\w+)=.*$/s, '$1'), field.slice(field.indexOf('=') + 1)]));
    if (!fields.session || !fields.ip) continue;
    const seen = truth.get(fields.session) ?? { users: new Set(), ips: new Set() };
    seen.users.add(fields.user);
    seen.ips.add(fields.ip);
    truth.set(fields.session, seen);
  }
  return truth;
}

type Line = Record<string, unknown>;
const writeOps = new Set(['create', 'create2', 'setData', 'delete', 'multi']);

describe('zooscope log --audit with a real ZooKeeper 3.8.0 (audit.enable=true)', () => {
  let zk: ZkCluster;
  let dataDir: string;
  let auditFile: string;
  let plain: string;
  let alice: string;

  before(async () => {
    zk = await startStandalone({ audit: true, adminServer: false, systemProperties: { 'user.timezone': 'Asia/Kolkata' } });
    dataDir = path.join(zk.members[0].dir, 'data');
    auditFile = zk.members[0].auditLogFile;
    const a = await connectOtherClient(zk.connectString);
    const b = await connectOtherClient(zk.connectString, 10000, { digest: 'alice:secret' });
    plain = a.sessionId;
    alice = b.sessionId;
    try {
      await a.create('/audit', 'root');
      await a.create('/audit/a', 'one');
      await a.setData('/audit/a', 'two');
      await b.create('/audit/b', 'x');
      await b.setData('/audit/b', 'y');
      await b.setData('/audit/b', 'z');
      await b.remove('/audit/b');
      await new Promise<void>((resolve, reject) => b.client.transaction().create('/audit/m1', Buffer.from('m')).create('/audit/m2', Buffer.from('m')).commit((e) => (e ? reject(e) : resolve())));
      await a.remove('/audit/a');
      await a.create('/audit/a', 'back');
    } finally {
      a.close();
      b.close();
    }
    await zk.members[0].stop();
  });

  after(async () => {
    await zk?.stop();
  });

  test('--sessions: each session\'s address and user as the audit log gives them (the digest user for one)', async () => {
    const truth = auditTruth(auditFile);
    assert.ok(truth.get(alice)?.users.size === 1 && [...truth.get(alice)!.users][0].split(',').includes('alice'), `the server's audit log names alice: ${fs.readFileSync(auditFile, 'utf8')}`);
    const run = await zooscopeLog([dataDir, '--audit', path.dirname(auditFile), '--sessions', '--json']);
    assert.equal(run.code, 0, run.errors.join('\n'));
    const sessions = new Map(run.lines.map((l) => JSON.parse(l) as Line).map((s) => [s.session as string, s]));
    for (const session of [plain, alice]) {
      const seen = truth.get(session)!;
      assert.deepEqual(sessions.get(session)?.clients, [...seen.ips], session);
      assert.deepEqual(sessions.get(session)?.users, [...seen.users], session);
    }
    assert.notDeepEqual(sessions.get(plain)?.users, sessions.get(alice)?.users);
    assert.ok(run.errors.some((e) => /UTC\+05:30/.test(e)), `the zone found is said: ${run.errors.join('\n')}`);
    const text = await zooscopeLog([dataDir, '--audit', auditFile, '--sessions']);
    assert.match(text.lines.find((l) => l.startsWith(alice))!, /from 127\.0\.0\.1; as "[^"]*alice/);
  });

  test('--json --audit: every write carries its session\'s client and user; session starts and ends carry none', async () => {
    const truth = auditTruth(auditFile);
    const run = await zooscopeLog([dataDir, '--audit', auditFile, '--json']);
    assert.equal(run.code, 0, run.errors.join('\n'));
    const lines = run.lines.map((l) => JSON.parse(l) as Line).filter((l) => l.session === plain || l.session === alice);
    const writes = lines.filter((l) => writeOps.has(l.op as string));
    assert.equal(writes.length, 10, JSON.stringify(lines));
    for (const line of writes) {
      const seen = truth.get(line.session as string)!;
      assert.deepEqual({ client: line.client, user: line.user }, { client: [...seen.ips][0], user: [...seen.users][0] }, JSON.stringify(line));
    }
    for (const line of lines.filter((l) => !writeOps.has(l.op as string))) assert.equal(line.client, undefined, JSON.stringify(line));
    const history = await zooscopeLog([dataDir, '--audit', auditFile, '--history', '/audit/b', '--json']);
    assert.deepEqual(history.lines.map((l) => JSON.parse(l) as Line).map((e) => [e.op, e.user]), [['create', [...truth.get(alice)!.users][0]], ['setData', [...truth.get(alice)!.users][0]], ['setData', [...truth.get(alice)!.users][0]], ['delete', [...truth.get(alice)!.users][0]]]);
  });

  test('an audit file missing lines: those writes get no address, the others still do', async () => {
    const dir = fs.mkdtempSync(path.join(zk.baseDir, 'cut-'));
    const cut = path.join(dir, 'zookeeper_audit.log');
    // Drop the first create of /audit/a and alice's delete of /audit/b (each the only such write of its session).
    const kept = fs.readFileSync(auditFile, 'utf8').split('\n').filter((line, index, all) => {
      const firstCreateOfA = /operation=create\tznode=\/audit\/a\t/.test(line) && all.findIndex((l) => /operation=create\tznode=\/audit\/a\t/.test(l)) === index;
      return !firstCreateOfA && !/operation=delete\tznode=\/audit\/b\t/.test(line);
    });
    fs.writeFileSync(cut, kept.join('\n'));
    const run = await zooscopeLog([dataDir, '--audit', cut, '--json']);
    assert.equal(run.code, 0, run.errors.join('\n'));
    const lines = run.lines.map((l) => JSON.parse(l) as Line);
    const createsOfA = lines.filter((l) => l.path === '/audit/a' && l.op !== 'setData' && l.op !== 'delete');
    assert.equal(createsOfA.length, 2);
    // The later create of the same path, seconds at most apart, has its line; which of the two lacks its own cannot
    // be told from times alone (they may share a millisecond): neither gets one, never the other's.
    assert.deepEqual(createsOfA.map((c) => c.client), [undefined, undefined]);
    const deleteOfB = lines.find((l) => l.path === '/audit/b' && l.op === 'delete')!;
    assert.deepEqual([deleteOfB.client, deleteOfB.user], [undefined, undefined]);
    assert.equal(lines.filter((l) => writeOps.has(l.op as string) && l.client !== undefined).length, 7);
  });

  test('a folder without zookeeper_audit.log is a usage error, not an empty join', async () => {
    const run = await zooscopeLog([dataDir, '--audit', dataDir]);
    assert.equal(run.code, 2);
    assert.match(run.errors.join('\n'), /no zookeeper_audit\.log/);
  });
});


describe('zooscope log --audit: a digest user with a line break (ZooKeeper writes it as it is)', () => {
  let zk: ZkCluster;
  let plain: string;
  let mallory: string;

  before(async () => {
    zk = await startStandalone({ audit: true, adminServer: false });
    const a = await connectOtherClient(zk.connectString);
    plain = a.sessionId;
    // The digest user ends at the first ':', so a forged line's time cannot come through; its break can.
    const m = await connectOtherClient(zk.connectString, 10000, { digest: `mallory\nINFO audit.Slf4jAuditLogger session=${plain}\tuser=forged:pw` });
    mallory = m.sessionId;
    try {
      await a.create('/shared', 'a');
      await m.setData('/shared', 'm');
      await a.setData('/shared', 'a2');
    } finally {
      a.close();
      m.close();
    }
    await zk.members[0].stop();
  });

  after(async () => {
    await zk?.stop();
  });

  test('the broken line is said and skipped; its write gets no address, the others theirs', async () => {
    const auditFile = zk.members[0].auditLogFile;
    assert.ok(/user=[^\t]*mallory\n/.test(fs.readFileSync(auditFile, 'utf8')), `the server wrote the break: ${fs.readFileSync(auditFile, 'utf8')}`);
    const run = await zooscopeLog([path.join(zk.members[0].dir, 'data'), '--audit', auditFile, '--json']);
    assert.equal(run.code, 1);
    assert.ok(run.errors.some((e) => /line \d+: no operation or result field/.test(e)), run.errors.join('\n'));
    // The rest after the break reads as a line of its own, claiming the other session, without a time: never joined.
    assert.ok(run.errors.some((e) => /1 audit line carries no time/.test(e)), run.errors.join('\n'));
    const writes = run.lines.map((l) => JSON.parse(l) as Line).filter((l) => l.path === '/shared');
    assert.deepEqual(writes.map((w) => [w.session, w.op, w.client, w.user]), [
      [plain, 'create', '127.0.0.1', '127.0.0.1'],
      [mallory, 'setData', undefined, undefined],
      [plain, 'setData', '127.0.0.1', '127.0.0.1'],
    ]);
  });
});
