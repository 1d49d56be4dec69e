// Do the members agree, on real servers: a healthy 3-member ensemble; a follower frozen with SIGSTOP (unreachable,
// the check bounded by its per-member deadline); a follower stopped while writes go on and then started again
// (unreachable, then lagging or agreeing once it caught up); a path read from each member alone while one
// follower's link to the leader is held (stale there, then the same once released); a whitelist without `mntr`;
// hostile names and data in the CLI.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { checkEnsemble } from '../../src/zk/servers/consistencyCheck';
import { zxidText } from '../../src/zk/servers/memberFigures';
import { comparePathAcrossMembers } from '../../src/zk/servers/pathAcrossMembers';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { freeze, Frozen } from '../support/fakes/freeze';
import { HOSTILE_DATA, HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';
import { freePort } from '../support/ports';
import { waitFor } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startEnsemble, startStandalone, ZkCluster, ZkMember } from '../support/servers/zkServer';

interface CliRun { code: number; stdout: string; stderr: string }

function runCli(cli: string, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 120000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/**
 * A loopback relay in front of the leader's quorum port for one follower: `hold()` keeps what the leader sends it
 * (proposals, commits) until `release()`, so the follower keeps serving its clients while it falls behind.
 */
async function startHoldableRelay(targetPort: number): Promise<{ port: number; hold(): void; release(): void; close(): void }> {
  let held = false;
  const waiting: { socket: net.Socket; chunk: Buffer }[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((follower) => {
    const leader = net.connect(targetPort, '127.0.0.1');
    sockets.add(follower).add(leader);
    follower.pipe(leader);
    leader.on('data', (chunk: Buffer) => (held ? waiting.push({ socket: follower, chunk }) : follower.write(chunk)));
    const end = () => { follower.destroy(); leader.destroy(); };
    follower.on('close', end).on('error', end);
    leader.on('close', end).on('error', end);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    hold: () => { held = true; },
    release: () => {
      held = false;
      for (const { socket, chunk } of waiting.splice(0)) if (!socket.destroyed) socket.write(chunk);
    },
    close: () => { server.close(); sockets.forEach((s) => s.destroy()); },
  };
}

describe('ensemble check: do the members agree', () => {
  let zk: ZkCluster;
  let cli: string;
  let leader: ZkMember;
  let followers: ZkMember[];
  let writer: OtherClient;
  const frozen: Frozen[] = [];
  let fresh: Awaited<ReturnType<typeof checkEnsemble>>;

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startEnsemble(3)]);
    const modes = await Promise.all(zk.members.map((m) => m.waitServing()));
    leader = zk.members[modes.indexOf('leader')];
    followers = zk.members.filter((m) => m !== leader);
    assert.ok(leader && followers.length === 2, `roles: ${modes.join(', ')}`);
    // Before any client: no transaction in the new epoch yet (the followers' zxid is still the old epoch's).
    fresh = await checkEnsemble(zk.connectString, { thresholds: { maxLagTransactions: 0, deadlineMs: 30000 } });
    writer = await connectOtherClient(leader.address, 20000);
  });
  after(async () => {
    for (const f of frozen) f.thaw();
    writer?.close();
    await zk?.stop();
  });

  /** Every member serving and agreeing (the previous test may have left one catching up). */
  const allAgree = () => waitFor('all members agreeing', async () => {
    const result = await checkEnsemble(zk.connectString, { thresholds: { maxLagTransactions: 0 } });
    return result.agree ? result : undefined;
  }, 60000, 200);

  test('a fresh ensemble agrees before its first transaction (followers still in the old epoch are not lagging)', () => {
    assert.deepEqual(fresh.members.map((m) => m.flags), [[], [], []], JSON.stringify(fresh.members.map((m) => m.figures?.zxid)));
    assert.equal(fresh.agree, true);
  });

  test('a healthy ensemble agrees: exit 0, no flags, one leader, every figure read', async () => {
    await allAgree();
    const run = await runCli(cli, ['ensemble', zk.connectString, '--check', '--json']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const { check } = JSON.parse(run.stdout) as { check: { agree: boolean; leader: string; flags: unknown[]; members: { address: string; flags: unknown[]; figures: Record<string, unknown> & { unknown: object } }[] } };
    assert.equal(check.agree, true);
    assert.deepEqual(check.flags, []);
    assert.equal(check.leader, leader.address);
    for (const m of check.members) {
      assert.deepEqual(m.flags, [], m.address);
      assert.deepEqual(m.figures.unknown, {}, m.address);
      for (const name of ['mode', 'zxid', 'znodes', 'ephemerals', 'connections', 'watches', 'dataSize', 'outstanding', 'latency']) {
        assert.ok(m.figures[name] !== undefined, `${m.address} ${name}`);
      }
    }
    // The AdminServer gives the same figures (the zxid from server_stats).
    const adminPorts = Object.fromEntries(zk.members.map((m) => [m.address, m.adminPort!]));
    const viaAdmin = await checkEnsemble(zk.connectString, { adminPorts, thresholds: { deadlineMs: 60000 } });
    assert.deepEqual(viaAdmin.members.map((m) => [m.via, m.adminError, m.figures?.unknown]), zk.members.map(() => ['admin', undefined, {}]));
    assert.equal(viaAdmin.agree, true);
    assert.deepEqual(viaAdmin.members.map((m) => m.figures?.zxid && zxidText(m.figures.zxid)), check.members.map((m) => (m.figures.zxid as { hex: string }).hex));
    const text = await runCli(cli, ['ensemble', zk.connectString, '--check']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /all members agree/);
    assert.match(text.stdout, /thresholds: lagging when more than 100 transactions behind/);
  });

  test('a follower frozen with SIGSTOP is shown unreachable, and the check ends by its deadline', async () => {
    await allAgree();
    const victim = followers[0];
    const f = freeze(victim);
    frozen.push(f);
    try {
      const run = await runCli(cli, ['ensemble', zk.connectString, '--check', '--json', '--deadline', '2']);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const { check } = JSON.parse(run.stdout) as { check: { members: { address: string; flags: { kind: string; reason?: string }[] }[] } };
      const flagsOf = (address: string) => check.members.find((m) => m.address === address)?.flags;
      assert.deepEqual(flagsOf(victim.address), [{ kind: 'unreachable', reason: 'no answer within 2000 ms' }]);
      assert.deepEqual(flagsOf(leader.address), []);
      const text = await runCli(cli, ['ensemble', zk.connectString, '--check', '--deadline', '2']);
      assert.equal(text.code, 1);
      assert.match(text.stdout, /UNREACHABLE \(no answer within 2000 ms\)/);
    } finally {
      f.thaw();
    }
    await victim.waitServing(60000);
  });

  test('a follower stopped while writes go on: unreachable, then lagging or agreeing once started again', async () => {
    await allAgree();
    const victim = followers[1];
    await victim.stop();
    await writer.mkdirp('/agree/writes');
    for (let i = 0; i < 30; i++) await writer.create(`/agree/writes/n${i}`, `v${i}`);
    const down = await checkEnsemble(zk.connectString, { thresholds: { deadlineMs: 5000 } });
    assert.equal(down.agree, false);
    assert.equal(down.members.find((m) => m.address === victim.address)?.flags[0]?.kind, 'unreachable');
    victim.start();
    const seen = new Set<string>();
    const caughtUp = await waitFor('the restarted follower agreeing', async () => {
      const result = await checkEnsemble(zk.connectString, { thresholds: { maxLagTransactions: 0 } });
      for (const flag of result.members.find((m) => m.address === victim.address)?.flags ?? []) seen.add(flag.kind);
      return result.agree ? result : undefined;
    }, 60000, 200);
    const back = caughtUp.members.find((m) => m.address === victim.address);
    assert.equal(back?.figures?.znodes, caughtUp.members.find((m) => m.isLeader)?.figures?.znodes);
    for (const kind of seen) assert.ok(['unreachable', 'notServing', 'lagging', 'epochDiffers'].includes(kind), `only a member catching up's flags: ${[...seen].join(', ')}`);
  });

  test('a path read from each member alone: stale on the follower whose link to the leader was held while it was written', async () => {
    await allAgree();
    const victim = followers[0];
    // The follower reaches the leader's quorum port through a relay that can hold what the leader sends it. A frozen
    // (SIGSTOP) member answers no reads, and after SIGCONT catches up before a session could read it: holding its link
    // is how a follower serves stale data for a while. Local sessions: a global session opened on the follower needs
    // the leader's commit, which the held link would keep from it too.
    const cfgFile = path.join(victim.dir, 'zoo.cfg');
    const original = fs.readFileSync(cfgFile, 'utf8');
    const leaderLine = new RegExp(`^server\\.${leader.id}=127\\.0\\.0\\.1:(\\d+):`, 'm');
    const quorumPort = Number(leaderLine.exec(original)?.[1]);
    const relay = await startHoldableRelay(quorumPort);
    try {
      await victim.stop();
      fs.writeFileSync(cfgFile, `${original.replace(leaderLine, `server.${leader.id}=127.0.0.1:${relay.port}:`)}localSessionsEnabled=true\n`);
      await victim.restart();
      await allAgree();
      await writer.mkdirp('/agree/stale');
      await writer.setData('/agree/stale', 'before');
      const members = zk.members.map((m) => m.address);
      await waitFor('every member serving the first write', async () => {
        const c = await comparePathAcrossMembers(members, '/agree/stale', { leader: leader.address, deadlineMs: 5000 });
        return !c.stale && c.members.every((m) => m.error === undefined && m.data?.toString() === 'before');
      }, 30000, 100);
      relay.hold();
      await writer.setData('/agree/stale', 'after');
      const stale = await comparePathAcrossMembers(members, '/agree/stale', { leader: leader.address, deadlineMs: 5000, withChildren: true });
      const onVictim = stale.members.find((m) => m.address === victim.address);
      assert.equal(stale.stale, true);
      assert.equal(onVictim?.data?.toString(), 'before');
      assert.deepEqual(onVictim?.differences, ['mzxid', 'version', 'data']);
      assert.deepEqual(stale.members.find((m) => m.address === followers[1].address)?.differences, []);
      const run = await runCli(cli, ['ensemble', zk.connectString, '--check', '--path', '/agree/stale']);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /STALE: mzxid, version, data differ/);
      assert.match(run.stdout, /no sync is issued here, on purpose/);
      relay.release();
      await waitFor('the follower serving the write once its link is released', async () => {
        const c = await comparePathAcrossMembers(members, '/agree/stale', { leader: leader.address, deadlineMs: 5000 });
        return !c.stale && c.members.every((m) => m.data?.toString() === 'after');
      }, 30000, 100);
    } finally {
      relay.release();
      fs.writeFileSync(cfgFile, original);
      await victim.restart();
      relay.close();
    }
  });

  test('hostile names and data are inert in the CLI (text and JSON)', async () => {
    await allAgree();
    await writer.mkdirp('/agree/hostile');
    for (const name of Object.values(HOSTILE_NAMES)) {
      const p = `/agree/hostile/${name}`;
      await writer.create(p, HOSTILE_DATA).catch(() => writer.setData(p, HOSTILE_DATA));
      const text = await runCli(cli, ['ensemble', zk.connectString, '--check', '--path', p, '--children', '--deadline', '10']);
      assert.ok([0, 1].includes(text.code), text.stderr);
      assert.ok(!RAW_HIDDEN.test(text.stdout.replace(/\n/g, '')), `raw hidden characters in ${JSON.stringify(text.stdout)}`);
      assert.ok(!RAW_HIDDEN.test(text.stderr.replace(/\n/g, '')));
      const json = await runCli(cli, ['ensemble', zk.connectString, '--check', '--path', p, '--json', '--deadline', '10']);
      assert.ok(!RAW_HIDDEN.test(json.stdout.replace(/\n/g, '')));
      const parsed = JSON.parse(json.stdout) as { path: { path: string; members: { dataBase64?: string }[] } };
      assert.equal(parsed.path.path, p, 'the same path, escaped only');
      assert.ok(parsed.path.members.every((m) => m.dataBase64 === HOSTILE_DATA.toString('base64')));
    }
  });
});

describe('ensemble check: a whitelist without mntr', () => {
  let zk: ZkCluster;
  let cli: string;
  before(async () => { [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone({ fourLetterWhitelist: 'srvr,conf', adminServer: false })]); });
  after(async () => { await zk?.stop(); });

  test('figures only mntr gives are "unknown (mntr not allowed)", the rest read from srvr', async () => {
    const result = await checkEnsemble(zk.connectString);
    const [member] = result.members;
    assert.equal(member.figures?.mode, 'standalone');
    assert.ok(member.figures?.zxid && member.figures.znodes !== undefined);
    assert.deepEqual(member.figures?.unknown, { ephemerals: 'mntr not allowed', watches: 'mntr not allowed', dataSize: 'mntr not allowed' });
    assert.equal(result.agree, true);
    const run = await runCli(cli, ['ensemble', zk.connectString, '--check']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /ephemerals, watches, data size unknown \(mntr not allowed\)/);
  });
});
