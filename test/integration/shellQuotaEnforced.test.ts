// Hard quotas on a server that enforces them (ZooKeeper 3.8 refuses writes over setquota -N / -B only when its JVM
// runs with -Dzookeeper.enforceQuota=true). The quotas are set with `zooscope shell`; a write over them is made
// through zkCli.sh and through `zooscope shell`, which must print the same bytes with the same exit code, and the
// refused write must leave the tree as it was. The extension's write path (ZnodeWriter on a ZkSession) must get the
// failure the VS Code layer words as a quota refusal: code quotaExceeded with the server's -125, the operation and
// the path (the sentence itself is checked in VS Code by test/host/suite/shell.test.ts, from this same failure).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { CommandRun, runZkCli, runZooscopeShell } from '../support/clients/shellRunners';
import { ZkSession } from '../../src/zk/session/session';
import { ZnodeWriter } from '../../src/zk/write';
import { isQuotaExceeded } from '../../src/zk/tree/quota';
import * as writes from '../../src/zk/protocol/writes';

describe('hard quotas on a server that enforces them (zookeeper.enforceQuota=true)', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let session: ZkSession;
  let cli: string;
  let server: string;

  before(async () => {
    const enforcing = { adminServer: false, systemProperties: { 'zookeeper.enforceQuota': 'true' } };
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone(enforcing)]);
    server = zk.members[0].address;
    other = await connectOtherClient(zk.connectString);
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 10000, requestTimeoutMs: 10000 });
    await session.open();
  });
  after(async () => {
    session?.close();
    other?.close();
    await zk?.stop();
  });

  const show = (r: CommandRun) => JSON.stringify(r);

  /** Sets a quota with `zooscope shell` (it prints nothing when the quota fits what is there). */
  async function setQuotaWithShell(flag: '-N' | '-B', limit: number, node: string): Promise<void> {
    const set = await runZooscopeShell(cli, server, ['setquota', flag, String(limit), node]);
    assert.deepEqual(set, { stdout: '', stderr: '', code: 0 }, `zooscope shell setquota ${flag} ${limit} ${node}`);
  }

  /**
   * The write, through zkCli.sh and then through `zooscope shell` (one after the other: the first must not change
   * what the second sees): zkCli must be refused for the quota, and the shell must print what zkCli printed.
   */
  async function assertRefusedAlike(args: string[], refusedPath: string): Promise<void> {
    const theirs = await runZkCli(server, args);
    assert.equal(theirs.stderr, `Quota has exceeded : ${refusedPath}\n`, `zkCli was not refused for the quota: ${show(theirs)}`);
    assert.equal(theirs.code, 1, show(theirs));
    const mine = await runZooscopeShell(cli, server, args);
    const both = `${args.join(' ')}\nzkCli ${show(theirs)}\nshell ${show(mine)}`;
    assert.equal(mine.stdout, theirs.stdout, `stdout of ${both}`);
    assert.equal(mine.stderr, theirs.stderr, `stderr of ${both}`);
    assert.equal(mine.code, theirs.code, `exit code of ${both}`);
  }

  test('a create over a hard count quota (setquota -N) is refused alike, and creates nothing', async () => {
    await other.create('/counted', 'c');
    await other.create('/counted/a');
    await setQuotaWithShell('-N', 2, '/counted');
    // zkCli reads the quota the shell wrote: /counted and /counted/a are the 2 nodes allowed.
    const listed = await runZkCli(server, ['listquota', '/counted']);
    assert.equal(listed.stdout, 'Output quota for /counted count=-1,bytes=-1=;byteHardLimit=-1;countHardLimit=2\n'
      + 'Output stat for /counted count=2,bytes=1\n', show(listed));

    await assertRefusedAlike(['create', '/counted/b', 'data'], '/counted/b');
    await assertRefusedAlike(['create', '-s', '/counted/seq-'], '/counted/seq-');
    assert.deepEqual(await other.children('/counted'), ['a']);
    assert.equal((await other.getData('/counted')).stat.cversion, 1, 'only /counted/a was ever created below /counted');

    // The extension's create gets the refusal the VS Code layer words as a hard quota's.
    const writer = new ZnodeWriter(session, { readOnly: false });
    const created = await writer.create({ path: '/counted/b', data: Buffer.from('data') });
    assert.deepEqual(created, { ok: false, failure: { code: 'quotaExceeded', operation: 'create', path: '/counted/b', zkCode: -125 } });
    assert.deepEqual(await other.children('/counted'), ['a']);
  });

  test('a set and a create over a hard byte quota (setquota -B) are refused alike, and change nothing', async () => {
    await other.create('/sized', '12345');
    await setQuotaWithShell('-B', 8, '/sized');

    // 5 bytes there, 8 allowed: 9 bytes of data, or a child of 4, would make 9.
    await assertRefusedAlike(['set', '/sized', '123456789'], '/sized');
    await assertRefusedAlike(['create', '/sized/c', '1234'], '/sized/c');
    const after = await other.getData('/sized');
    assert.equal(after.data.toString(), '12345');
    assert.equal(after.stat.version, 0, 'the refused set changed the version');
    assert.deepEqual(await other.children('/sized'), []);

    // The extension's setData, and a request straight on the session: the same code from the real server.
    const writer = new ZnodeWriter(session, { readOnly: false });
    const set = await writer.setData('/sized', Buffer.from('123456789'), -1);
    assert.deepEqual(set, { ok: false, failure: { code: 'quotaExceeded', operation: 'setData', path: '/sized', zkCode: -125 } });
    const raw = await session.request(writes.setData(session.channel, '/sized', Buffer.from('123456789'), -1), 'setData', '/sized')
      .then(() => undefined, (error: unknown) => error);
    assert.ok(isQuotaExceeded(raw), `not a quota refusal: ${String(raw)}`);
    assert.equal((await other.getData('/sized')).data.toString(), '12345');

    // Within the limit the same node still takes writes: the refusals were the quota's, not something else's.
    const fits = await runZooscopeShell(cli, server, ['set', '/sized', '12345678']);
    assert.deepEqual(fits, { stdout: '', stderr: '', code: 0 });
    assert.equal((await other.getData('/sized')).data.toString(), '12345678');
  });
});
