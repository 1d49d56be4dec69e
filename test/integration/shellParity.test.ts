// `zooscope shell` against ZooKeeper 3.8.0's own zkCli.sh on one real server: the same commands through both,
// compared byte for byte (stdout, stderr and exit code). Reads run on one fixture; writes run on twin subtrees
// (/twin-zk for zkCli, /twin-zs for the shell, built alike) and their outputs are compared with the twin's name
// swapped; quotas set by one tool are listed by the other.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { CommandRun, runZkCli, runZooscopeShell } from '../support/clients/shellRunners';
import { mapBounded } from '../../src/zk/timeouts';

describe('zooscope shell speaks zkCli 3.8 (against zkCli.sh itself)', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let cli: string;
  let server: string;

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone()]);
    server = zk.members[0].address;
    other = await connectOtherClient(zk.connectString);
    await other.create('/ro', 'root data');
    // Names whose Java order differs from a natural one, data with spaces and UTF-8, an empty and a null node.
    for (const name of ['b', 'a10', 'a9', 'B', '_x', 'ä']) await other.create(`/ro/${name}`, `data of ${name}`);
    await other.create('/ro/a9/deep', 'multi\nline');
    await other.create('/ro/a9/deep/er');
    await other.create('/ro/empty', Buffer.alloc(0));
  });
  after(async () => {
    other?.close();
    await zk?.stop();
  });

  const show = (r: CommandRun) => JSON.stringify(r);

  async function assertSame(args: string[], ours: string[] = args, map: (text: string) => string = (t) => t): Promise<void> {
    const [theirs, mine] = await Promise.all([runZkCli(server, args), runZooscopeShell(cli, server, ours)]);
    assert.equal(map(mine.stdout), theirs.stdout, `stdout of ${args.join(' ')}\nzkCli ${show(theirs)}\nshell ${show(mine)}`);
    assert.equal(map(mine.stderr), theirs.stderr, `stderr of ${args.join(' ')}\nzkCli ${show(theirs)}\nshell ${show(mine)}`);
    assert.equal(mine.code, theirs.code, `exit code of ${args.join(' ')}\nzkCli ${show(theirs)}\nshell ${show(mine)}`);
  }

  test('read-only commands, errors and usage lines print the same bytes and exit codes', async () => {
    const commands: string[][] = [
      ['ls', '/ro'], ['ls', '-s', '/ro'], ['ls', '-R', '/ro'], ['get', '-s', '/ro/a9/deep'], ['get', '/ro/a9/deep/er'],
      ['get', '/ro/empty'], ['stat', '/ro/ä'], ['getAcl', '-s', '/ro'], ['getAllChildrenNumber', '/ro'],
      ['ls', '/ro/nope'], ['ls', 'ro'], ['get', '-x', '/ro'], ['set', '-v', '/ro', 'x'], ['stat'], ['ls', '/ro', 'watch'],
      ['setquota', '/ro'], ['setquota', '-n', '1', '-b', '2', '/ro'], ['nosuchcommand', '/ro'], ['ls', '/ro//a'],
      ['sync', '/ro'], ['whoami'], ['getEphemerals', '/ro'], ['config'], ['history'], ['printwatches'], ['redo', '0'],
    ];
    // Two at a time: zkCli is a JVM start each (~0.8 s) and the machine has two cores.
    const failures: string[] = [];
    await mapBounded(commands, 2, async (args) => {
      try {
        await assertSame(args);
      } catch (error) {
        failures.push((error as Error).message);
      }
    });
    assert.deepEqual(failures, []);
  });

  test('writes on twin subtrees print the same and leave the same tree', async () => {
    for (const twin of ['/twin-zk', '/twin-zs']) {
      await other.create(twin);
      await other.create(`${twin}/full`, 'x');
      await other.create(`${twin}/full/child`);
    }
    const swap = (t: string) => t.replaceAll('/twin-zs', '/twin-zk');
    const steps: string[][] = [
      ['create', '@/a', 'hello world'], ['create', '@/a'], ['create', '-s', '@/seq-', 'one'], ['create', '-s', '@/seq-'],
      ['create', '@/acl', 'd', 'world:anyone:rx,digest:bob'], ['create', '@/bad', 'd', 'nonsense'], ['create', '-c', '-e', '@/c'],
      ['create', '-t', '100000', '@/ttl'], ['create', '@/nope/child'], ['set', '@/a', 'changed'], ['set', '-v', '7', '@/a', 'x'],
      ['delete', '@/full'], ['delete', '-v', '0', '@/seq-0000000002'], ['setAcl', '@/acl', 'world:anyone:cdrwa'],
      ['deleteall', '@/full'], ['delete', '@/full'],
    ];
    for (const step of steps) {
      const zkArgs = step.map((w) => w.replace('@', '/twin-zk'));
      const ourArgs = step.map((w) => w.replace('@', '/twin-zs'));
      await assertSame(zkArgs, ourArgs, swap);
    }
    // The same tree and data, as zkCli itself reads both twins.
    const [left, right] = await Promise.all([runZkCli(server, ['ls', '-R', '/twin-zk']), runZkCli(server, ['ls', '-R', '/twin-zs'])]);
    assert.equal(swap(right.stdout), left.stdout);
    for (const node of ['/a', '/seq-0000000000', '/seq-0000000001', '/acl']) {
      const [zkGet, zsGet] = await Promise.all([runZkCli(server, ['get', `/twin-zk${node}`]), runZkCli(server, ['get', `/twin-zs${node}`])]);
      assert.equal(zsGet.stdout, zkGet.stdout, node);
    }
    await assertSame(['getAcl', '/twin-zs/acl']);
  });

  test('quotas set by one tool are listed, changed and removed by the other', async () => {
    await other.create('/q-zk', 'twelve bytes');
    await other.create('/q-zk/c', 'abc');
    // zkCli sets, the shell lists (and the other way round): the same facts in the same lines as zkCli's listquota.
    let set = await runZkCli(server, ['setquota', '-n', '5', '/q-zk']);
    assert.equal(set.code, 0, JSON.stringify(set));
    await assertSame(['listquota', '/q-zk']);
    set = await runZooscopeShell(cli, server, ['setquota', '-B', '4', '/q-zk']);
    assert.deepEqual(set, { stdout: '[Warning]: the bytes quota you create is less than the existing bytes:15\n', stderr: '', code: 0 });
    await assertSame(['listquota', '/q-zk']);
    await assertSame(['setquota', '-n', '3', '/q-zk/c']);
    await assertSame(['delquota', '-n', '/q-zk']);
    await assertSame(['listquota', '/q-zk']);
    const removed = await runZooscopeShell(cli, server, ['delquota', '/q-zk']);
    assert.deepEqual(removed, { stdout: '', stderr: '', code: 0 });
    await assertSame(['listquota', '/q-zk']);
    await assertSame(['delquota', '/q-zk']);
    await assertSame(['ls', '/zookeeper/quota']);
  });
});
