// Several members' logs read as one, and a log read while its server writes it: real ZooKeeper 3.8.0 servers.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { firstZxidOfName, logSource, readLogSet, type LogSetItem } from '../../src/zk/serverLogs/logSet';
import { hex } from '../../src/zk/stat';
import type { Txn } from '../../src/zk/serverLogs/txnTypes';
import { startEnsemble, startStandalone, type ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, eventually } from '../support/clients/zkClient';

async function collect(items: AsyncIterable<LogSetItem>): Promise<{ zxids: bigint[]; issues: string[] }> {
  const zxids: bigint[] = [];
  const issues: string[] = [];
  for await (const item of items) {
    if (item.kind === 'txn') zxids.push(item.txn.zxid);
    else issues.push(item.issue.message);
  }
  return { zxids, issues };
}

/** Writes `count` nodes in a session of their own; returns that session's id (hex). */
async function writeSome(connectString: string, prefix: string, count: number): Promise<string> {
  const client = await connectOtherClient(connectString);
  try {
    await client.mkdirp(prefix);
    for (let i = 0; i < count; i++) await client.create(`${prefix}/n${i}`, `value ${i}`);
    return client.sessionId;
  } finally {
    client.close();
  }
}

/** Until the server has logged the close of `session` (a client's close is not waited for). */
async function closeLogged(dir: string, session: string): Promise<void> {
  await eventually(async () => (await collectTxns(readLogSet([logSource(dir)]))).some((t) => t.record.op === 'closeSession' && hex(t.session) === session), 30000, `the close of ${session} in the log`);
}

async function collectTxns(items: AsyncIterable<LogSetItem>): Promise<Txn[]> {
  const txns: Txn[] = [];
  for await (const item of items) if (item.kind === 'txn') txns.push(item.txn);
  return txns;
}

const logsOf = (dir: string) => fs.readdirSync(dir).filter((name) => firstZxidOfName(name) !== undefined)
  .sort((a, b) => (firstZxidOfName(a)! < firstZxidOfName(b)! ? -1 : 1));

describe('a 3-member ensemble\'s logs, copied off each member: merged by zxid across a new epoch', () => {
  let zk: ZkCluster;
  let copies: string;
  const memberCopy = (i: number) => path.join(copies, `member-${i}`);

  before(async () => {
    zk = await startEnsemble(3, { systemProperties: { 'zookeeper.snapCount': '8' } });
    await writeSome(zk.connectString, '/first', 20);
    // Every member down and up again: a new election, a new epoch.
    for (const member of zk.members) await member.stop();
    await Promise.all(zk.members.map((member) => member.restart()));
    let attempt = 0;
    await eventually(async () => {
      try {
        await writeSome(zk.connectString, `/second-${++attempt}`, 20);
        return true;
      } catch {
        return false;
      }
    }, 60000, 'the restarted ensemble to take writes');
    for (const member of zk.members) await member.stop();
    copies = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-members-'));
    zk.members.forEach((member, i) => fs.cpSync(path.join(member.dir, 'data', 'version-2'), path.join(memberCopy(i), 'version-2'), { recursive: true }));
  });

  after(async () => {
    await zk?.stop();
    if (copies) fs.rmSync(copies, { recursive: true, force: true });
  });

  test('the members together: every zxid once, in order, both epochs, no gap said; a member missing a file is filled by another', async () => {
    const all = await collect(readLogSet([0, 1, 2].map((i) => logSource(memberCopy(i)))));
    assert.deepEqual(all.issues, []);
    assert.ok(all.zxids.every((z, i) => i === 0 || z > all.zxids[i - 1]), 'strictly increasing');
    assert.equal(new Set(all.zxids.map((z) => z >> 32n)).size, 2, `two epochs: ${all.zxids.map(hex).join(' ')}`);
    for (const i of [0, 1, 2]) {
      const alone = await collect(readLogSet([logSource(memberCopy(i))]));
      assert.deepEqual(alone.issues, [], `member ${i}`);
      assert.ok(alone.zxids.every((z) => all.zxids.includes(z)), `member ${i}`);
    }

    const dir = path.join(memberCopy(0), 'version-2');
    const logs = logsOf(dir);
    assert.ok(logs.length >= 3, `snapCount 8 rolls the log: ${logs.join(' ')}`);
    const middle = logs[1];
    const lost = (await collect(readLogSet([{ name: 'x', files: [path.join(dir, middle)] }]))).zxids;
    fs.rmSync(path.join(dir, middle));
    const holed = await collect(readLogSet([logSource(memberCopy(0))]));
    assert.deepEqual(holed.issues, [gapLine(lost[0], lost[lost.length - 1])]);
    const filled = await collect(readLogSet([logSource(memberCopy(0)), logSource(memberCopy(1))]));
    assert.deepEqual(filled.issues, []);
    assert.deepEqual(filled.zxids, all.zxids);
  });

  test('a stretch no member holds is one line naming its zxids, and everything else is read', async () => {
    const firstEpoch = (await collect(readLogSet([logSource(memberCopy(2))]))).zxids.filter((z) => z >> 32n === 1n);
    const target = firstEpoch[Math.floor(firstEpoch.length / 2)];
    const everything = await collect(readLogSet([0, 1, 2].map((i) => logSource(memberCopy(i)))));
    for (const i of [0, 1, 2]) {
      const dir = path.join(memberCopy(i), 'version-2');
      const holding = logsOf(dir).filter((name) => firstZxidOfName(name)! <= target).pop()!;
      fs.rmSync(path.join(dir, holding));
    }
    const left = await collect(readLogSet([0, 1, 2].map((i) => logSource(memberCopy(i)))));
    const missing = everything.zxids.filter((z) => !left.zxids.includes(z));
    assert.ok(missing.includes(target));
    assert.ok(missing.every((z, i) => i === 0 || z === missing[i - 1] + 1n), `one stretch: ${missing.map(hex).join(' ')}`);
    assert.deepEqual(left.issues, [gapLine(missing[0], missing[missing.length - 1])]);
  });
});

function gapLine(from: bigint, to: bigint): string {
  return `no log given holds zxid ${hex(from)}${to > from ? `–${hex(to)} (${to - from + 1n} transactions)` : ''}: what happened then is not known`;
}

describe('a running server\'s log', () => {
  let zk: ZkCluster;
  let dir: string;

  before(async () => {
    zk = await startStandalone({ adminServer: false });
    dir = path.join(zk.members[0].dir, 'data');
    await closeLogged(dir, await writeSome(zk.connectString, '/before', 5));
  });

  after(async () => {
    await zk?.stop();
  });

  test('read while the server writes it: said in one line with how far it was read; read when it is quiet: nothing said', async () => {
    const log = path.join(dir, 'version-2', logsOf(path.join(dir, 'version-2'))[0]);
    // The file's time must be able to move: past the clock's grain since the last write (a wait, not a speed).
    const written = fs.statSync(log).mtimeMs;
    await eventually(async () => Date.now() > written + 50, 5000, 'the clock to pass the last write');
    const quiet = await collect(readLogSet([logSource(dir)]));
    assert.deepEqual(quiet.issues, [], 'a running server that writes nothing meanwhile is no trouble');

    const items = readLogSet([logSource(dir)]);
    const first = await items.next();
    assert.equal(first.done, false);
    await writeSome(zk.connectString, '/during', 5);
    const rest = await collect(items);
    assert.equal(rest.issues.length, 1, rest.issues.join('\n'));
    const last = rest.zxids[rest.zxids.length - 1] ?? (first.value as { txn: { zxid: bigint } }).txn.zxid;
    assert.equal(rest.issues[0], `${log}: changed while it was read, so a running server is writing it; read up to zxid ${hex(last)}, later transactions are not included`);
    assert.ok(last >= quiet.zxids[quiet.zxids.length - 1], 'read at least what was there when the read began');
  });
});
