// The one overlap guard of copy and mirror (src/zk/compare/overlap.ts, through planCopy, which the CLI and VS Code
// both call) against real servers: one server reached as two sessions — two spellings, a chroot against an
// absolute path, a TCP relay standing for a tunnel — is one ensemble, and overlapping subtrees are refused before
// anything is read or written; an unrelated server is another ensemble, also when "/" is the source.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { planCopy, sameEnsemble } from '../../src/zk/compare';
import { ZkSession } from '../../src/zk/session/session';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const OVERLAP = (path: string) => ({ side: 'target', code: 'overlap', path });

describe('copy and mirror: overlap decided on the servers', () => {
  let one: ZkCluster;
  let two: ZkCluster;
  let proxy: TcpProxy;
  let other: OtherClient;
  const sessions: ZkSession[] = [];
  const open = async (connectString: string, chroot?: string) => {
    const session = new ZkSession({ connectString, chroot, sessionTimeoutMs: 20000 });
    sessions.push(session);
    await session.open();
    return session;
  };

  before(async () => {
    [one, two] = await Promise.all([startStandalone({ adminServer: false }), startStandalone({ adminServer: false })]);
    proxy = await startProxy(one.members[0].clientPort);
    other = await connectOtherClient(one.connectString);
    for (const node of ['/app', '/app/a', '/app/copy', '/app/copy/b']) await other.create(node, 'v');
  });

  after(async () => {
    for (const session of sessions) session.close();
    other?.close();
    await proxy?.close();
    await Promise.all([one?.stop(), two?.stop()]);
  });

  test('two spellings, a chroot against an absolute path, and a relay to the same server overlap; nothing is written', async () => {
    const port = one.members[0].clientPort;
    const numeric = await open(`127.0.0.1:${port}`);
    const named = await open(`localhost:${port}`);
    const chrooted = await open(`localhost:${port}/app`);
    const relayed = await open(`127.0.0.1:${proxy.port}`);
    const cases: [ZkSession, string, ZkSession, string][] = [
      [numeric, '/app/copy', named, '/app'], // the mirror, which deleted its own source
      [numeric, '/app', named, '/app/copy'], // the reverse, which wrote the target into itself
      [numeric, '/app', chrooted, '/copy'], // /copy below the chroot /app is /app/copy
      [chrooted, '/', numeric, '/app/copy'],
      [chrooted, '/copy', numeric, '/app'],
      [relayed, '/app', numeric, '/app/copy'],
      [numeric, '/', named, '/backup'], // "/" witnesses nothing by itself: a top-level node does
    ];
    for (const [source, from, target, to] of cases) {
      const plan = await planCopy({ session: source, root: from }, target, to, { mirror: true });
      assert.deepEqual(plan.problem, OVERLAP(to), `${from} → ${to}`);
    }
    assert.deepEqual((await other.children('/app')).sort(), ['a', 'copy']);
    assert.deepEqual(await other.children('/app/copy'), ['b']);
    assert.equal(await other.exists('/backup'), undefined);
  });

  test('an unrelated server is another ensemble: the same paths are no overlap, "/" as the source included', async () => {
    const here = await open(one.connectString);
    const there = await open(two.connectString);
    assert.equal(await sameEnsemble(here, there, ['/app']), false);
    const plan = await planCopy({ session: here, root: '/app' }, there, '/app/copy', { mirror: true });
    assert.equal(plan.problem, undefined, JSON.stringify(plan.problem));
    assert.equal(plan.counts.create, 4);
    const whole = await planCopy({ session: here, root: '/' }, there, '/backup', { mirror: true });
    assert.equal(whole.problem, undefined, JSON.stringify(whole.problem));
    assert.ok(whole.counts.create >= 4);
  });
});
